package io.kvscope.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --index DIR}, shared by every command that reads or writes an index. */
final class IndexOption {
  @Option(names = {"-i", "--index"}, paramLabel = "DIR", defaultValue = "kvscope-index",
      description = "Index directory (default: ${DEFAULT-VALUE}). Created owner-only.")
  Path path;
}
