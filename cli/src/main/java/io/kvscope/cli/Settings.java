package io.kvscope.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The settings file: what every run of a case repeats ({@code --tenant-key}, {@code --mapping},
 * {@code --fixed-version}, {@code --horizon}, the notices' signature), as {@code option=value}
 * lines, optionally for one command only ({@code analyze.horizon=14d}). It is {@code --config
 * FILE}, else {@value #FILE} in the index folder when there is one. An option given on the command
 * line wins. Only the options in {@link #ALLOWED} can be set: a file must never turn on
 * {@code --reveal} or point a run at another index, and a key it does not know is an error, not
 * ignored.
 */
final class Settings implements CommandLine.IDefaultValueProvider {

  static final String FILE = "kvscope.properties";

  /** The options a settings file may give, by long name without dashes. */
  static final Set<String> ALLOWED = Set.of("tenant-key", "mapping", "fixed-version", "horizon", "min-span", "operator",
      "incident-ref", "contact", "remediation", "trace-url");

  /** Options whose value is a path: relative ones are read from the settings file's folder. */
  private static final Set<String> PATHS = Set.of("mapping");

  private final Path file;
  private final Properties values;

  private Settings(Path file, Properties values) {
    this.file = file;
    this.values = values;
  }

  Path file() {
    return file;
  }

  /**
   * The settings for the command {@code parsed} runs: its {@code --config}, else the file in its
   * index folder; null when there is none.
   *
   * @throws CommandLine.ParameterException for a missing --config file, an unreadable one, or a key it may not hold
   */
  static Settings of(ParseResult parsed) {
    ParseResult command = parsed;
    while (command.hasSubcommand()) {
      command = command.subcommand();
    }
    CommandLine commandLine = command.commandSpec().commandLine();
    Path file = command.matchedOptionValue("--config", null);
    if (file == null) {
      OptionSpec index = command.commandSpec().findOption("--index");
      Path dir = index == null ? null : index.getValue();
      if (dir == null || !Files.isRegularFile(dir.resolve(FILE))) {
        return null;
      }
      file = dir.resolve(FILE);
    } else if (!Files.isRegularFile(file)) {
      throw new CommandLine.ParameterException(commandLine, "no settings file at " + file);
    }
    Properties values = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      values.load(in);
    } catch (IOException | IllegalArgumentException unreadable) {
      throw new CommandLine.ParameterException(commandLine, "cannot read the settings file " + file + " ("
          + KvScope.describe(unreadable) + ")");
    }
    for (String key : values.stringPropertyNames()) {
      String option = key.substring(key.indexOf('.') + 1);
      if (!ALLOWED.contains(option)) {
        throw new CommandLine.ParameterException(commandLine, "the settings file " + file + " sets '" + key
            + "', which a settings file cannot set; it may set " + String.join(", ", new TreeSet<>(ALLOWED))
            + " (optionally as command.option, e.g. analyze.horizon)");
      }
    }
    return new Settings(file, values);
  }

  @Override
  public String defaultValue(ArgSpec spec) {
    if (!(spec instanceof OptionSpec option)) {
      return null;
    }
    String name = option.longestName().replaceFirst("^-+", "");
    if (!ALLOWED.contains(name)) {
      return null;
    }
    String value = values.getProperty(spec.command().name() + "." + name, values.getProperty(name));
    if (value == null || value.isBlank()) {
      return null;
    }
    value = value.strip();
    return PATHS.contains(name) ? file.toAbsolutePath().getParent().resolve(value).toString() : value;
  }

  /** What a run says on stderr when a settings file gave it options. */
  String describe() {
    List<String> keys = values.stringPropertyNames().stream().sorted().toList();
    return "kvscope: settings from " + file + " (" + String.join(", ", keys) + "); options given on the command line win";
  }
}
