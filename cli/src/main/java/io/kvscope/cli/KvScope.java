package io.kvscope.cli;

import io.kvscope.ingest.Printable;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.security.CodeSource;
import java.util.Arrays;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** The {@code kvscope} command: dispatches to one class per subcommand. */
@Command(
    name = "kvscope",
    mixinStandardHelpOptions = true,
    versionProvider = KvScope.Version.class,
    description = "Forensics for cross-request KV-cache leak incidents in LLM serving.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:success (audit: clean)",
        "1:findings (audit) or bad input with --strict",
        "2:error: bad usage, unreadable index, I/O failure"
    })
public final class KvScope implements java.util.concurrent.Callable<Integer> {

  /**
   * The subcommands, in the order the usage lists them. picocli builds the whole model of every
   * subcommand it is given (their options, mixins and converters, read by reflection), which was
   * 5% of an analysis run's main thread on a corpus incident (bench/README.md, "Analysis CPU: the
   * phrase lookups, the epochs and the writers"), so a run is given only the one it runs.
   */
  private static final List<Class<?>> SUBCOMMANDS = List.of(
      IngestCommand.class,
      SearchCommand.class,
      AnalyzeCommand.class,
      ScopeCommand.class,
      AuditCommand.class,
      ProbeCommand.class,
      ReportCommand.class,
      GenerateCommand.class,
      DemoCommand.class,
      GuiCommand.class,
      ScoreCommand.class,
      CommandLine.HelpCommand.class,
      CompletionCommand.class);

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** No command given: the usage, on stderr, and a usage error, so a script that forgot it does not read success. */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.ERROR;
  }

  /**
   * Lucene says on stderr, once per process, that it runs without the incubating vector module;
   * that is a tuning hint for us, not something the person at the terminal can act on. Held here
   * because the logging framework keeps loggers only weakly.
   */
  private static final java.util.logging.Logger LUCENE_VECTOR_NOTICE =
      java.util.logging.Logger.getLogger("org.apache.lucene.internal.vectorization");

  public static void main(String[] args) {
    LUCENE_VECTOR_NOTICE.setLevel(java.util.logging.Level.SEVERE);
    System.exit(commandLine(args).execute(args));
  }

  /** The configured command line with every subcommand. */
  public static CommandLine commandLine() {
    return commandLine(new String[0]);
  }

  /**
   * The configured command line for {@code args}; tests call {@code execute} on it without exiting
   * the JVM. It holds only the subcommand {@code args} start with, when they name one that does not
   * read the others (help and completion list them all), else every subcommand: the usage, and a
   * mistyped name's suggestions, need them.
   */
  public static CommandLine commandLine(String... args) {
    CommandLine cli = model(args);
    HelpText.install(cli);
    cli.setExecutionStrategy(KvScope::executeFiltered);
    cli.setExecutionExceptionHandler((exception, commandLine, parseResult) -> {
      PrintWriter err = commandLine.getErr();
      err.println("kvscope: " + Printable.text(describe(exception)));
      if (Boolean.getBoolean("kvscope.debug")) {
        exception.printStackTrace(err);
      }
      return ExitCodes.ERROR;
    });
    cli.setExitCodeExceptionMapper(exception -> ExitCodes.ERROR);
    cli.setParameterExceptionHandler((exception, given) -> {
      PrintWriter err = exception.getCommandLine().getErr();
      err.println("kvscope: " + Printable.text(exception.getMessage()));
      if (exception instanceof CommandLine.UnmatchedArgumentException unmatched) {
        CommandLine.UnmatchedArgumentException.printSuggestions(unmatched, err);
      }
      err.println("Try '" + exception.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
      return ExitCodes.ERROR;
    });
    return cli;
  }

  /** The commands' model for {@code args}, as picocli builds it, with the subcommands {@link #commandLine(String...)} says. */
  static CommandLine model(String... args) {
    CommandLine cli = new CommandLine(new KvScope());
    Class<?> only = args.length == 0 ? null : subcommandNamed(args[0]);
    for (Class<?> subcommand : SUBCOMMANDS) {
      if (only == null || subcommand == only) {
        cli.addSubcommand(subcommand);
      }
    }
    return cli;
  }

  /** The subcommand {@code name} names by its name or an alias, but help or completion; null for none. */
  private static Class<?> subcommandNamed(String name) {
    for (Class<?> subcommand : SUBCOMMANDS) {
      Command command = subcommand.getAnnotation(Command.class);
      boolean readsTheOthers = subcommand == CommandLine.HelpCommand.class || subcommand == CompletionCommand.class;
      if (!readsTheOthers && (command.name().equals(name) || Arrays.asList(command.aliases()).contains(name))) {
        return subcommand;
      }
    }
    return null;
  }

  /**
   * Runs the chosen subcommand with stdout and stderr behind a {@link ControlCharFilter}: whatever
   * a command prints, no raw control character reaches the terminal or the file it is piped to.
   * A settings file ({@link Settings}) supplies the options the command line left out.
   */
  private static int executeFiltered(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult parseResult = parsed;
    Settings settings = Settings.of(parsed);
    if (settings != null) {
      // Parsed again with the file's values as defaults: the command line still wins.
      CommandLine again = commandLine(parsed.originalArgs().toArray(String[]::new));
      again.setOut(parsed.commandSpec().commandLine().getOut());
      again.setErr(parsed.commandSpec().commandLine().getErr());
      again.setDefaultValueProvider(settings);
      parseResult = again.parseArgs(parsed.originalArgs().toArray(String[]::new));
      System.err.println(Printable.text(settings.describe()));
    }
    PrintStream out = System.out;
    PrintStream err = System.err;
    PrintStream safeOut = ControlCharFilter.wrap(out);
    PrintStream safeErr = ControlCharFilter.wrap(err);
    System.setOut(safeOut);
    System.setErr(safeErr);
    try {
      return new CommandLine.RunLast().execute(parseResult);
    } finally {
      safeOut.flush();
      safeErr.flush();
      System.setOut(out);
      System.setErr(err);
    }
  }

  /** One line a person can act on: the exception's own message, with its type when that adds meaning. */
  static String describe(Throwable exception) {
    Throwable cause = exception;
    while (cause.getCause() != null && cause.getMessage() == null) {
      cause = cause.getCause();
    }
    String message = cause.getMessage();
    if (cause instanceof java.nio.file.NoSuchFileException missing) {
      return (missing.getReason() != null ? missing.getReason() + ": " : "no such file: ") + missing.getFile();
    }
    if (cause instanceof java.nio.file.AccessDeniedException denied) {
      return "permission denied: " + denied.getFile();
    }
    return message == null ? cause.getClass().getSimpleName() : message;
  }

  /** The release and the commit it was built from, as the jar's manifest records them. */
  static final class Version implements CommandLine.IVersionProvider {
    /** The version line, as {@code kvscope --version} prints it; what reports record as their author. */
    static String text() {
      try {
        return new Version().getVersion()[0];
      } catch (IOException | URISyntaxException | RuntimeException unreadable) {
        return "kvscope (version unknown: " + unreadable.getMessage() + ")";
      }
    }

    @Override
    public String[] getVersion() throws IOException, URISyntaxException {
      Manifest manifest = manifest();
      if (manifest == null) {
        return new String[] {"kvscope (not built as a jar: version unknown)"};
      }
      Attributes main = manifest.getMainAttributes();
      String commit = main.getValue("Build-Commit");
      boolean modified = "true".equals(main.getValue("Build-Commit-Modified"));
      String built = commit == null || commit.isBlank() || commit.startsWith("$")
          ? "commit unknown"
          : "commit " + commit + (modified ? ", with uncommitted changes" : "");
      return new String[] {"kvscope " + main.getValue("Implementation-Version") + " (" + built + ")"};
    }

    private static Manifest manifest() throws IOException, URISyntaxException {
      CodeSource source = KvScope.class.getProtectionDomain().getCodeSource();
      if (source == null || !source.getLocation().getPath().endsWith(".jar")) {
        return null;
      }
      try (JarFile jar = new JarFile(new File(source.getLocation().toURI()))) {
        return jar.getManifest();
      }
    }
  }
}
