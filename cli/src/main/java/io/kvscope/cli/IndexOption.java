package io.kvscope.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --index DIR} and the settings file beside it, shared by every command that reads or writes an index. */
final class IndexOption {
  @Option(names = {"-i", "--index"}, paramLabel = "DIR", defaultValue = "kvscope-index",
      description = "Index directory (default: ${DEFAULT-VALUE}). Created owner-only.")
  Path path;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Settings file of option=value lines for what every run repeats (tenant-key, mapping, fixed-version,"
          + " horizon, operator...; default: " + Settings.FILE + " in the index folder, when there is one).")
  Path config;
}
