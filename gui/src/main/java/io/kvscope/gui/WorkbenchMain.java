package io.kvscope.gui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A command line for the workbench alone ({@code gui/screenshots.sh} uses it; users go through
 * {@code kvscope gui}, which calls {@link Workbench#launch} the same way):
 * {@code --index DIR [--report report.json] [--screenshot-dir DIR]}. Settings of the analysis
 * (such as the fixed release) are the report's own.
 */
public final class WorkbenchMain {

  private WorkbenchMain() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  static int run(String[] args) {
    Path index = null;
    Path report = null;
    Path screenshots = null;
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--index" -> index = Path.of(value(args, ++i, "--index"));
          case "--report" -> report = Path.of(value(args, ++i, "--report"));
          case "--screenshot-dir" -> screenshots = Path.of(value(args, ++i, "--screenshot-dir"));
          case "-h", "--help" -> {
            System.out.println(USAGE);
            return 0;
          }
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
      if (index == null) {
        throw new IllegalArgumentException("--index DIR is required");
      }
      if (report != null && !Files.isRegularFile(report)) {
        throw new IllegalArgumentException("no report file at " + report);
      }
    } catch (IllegalArgumentException e) {
      System.err.println("kvscope gui: " + e.getMessage());
      System.err.println(USAGE);
      return 2;
    }
    WorkbenchInput input = WorkbenchInput.of(index, report == null ? ReportSource.none(index) : ReportSource.file(report))
        .withScreenshots(screenshots);
    try {
      List<Path> written = Workbench.launch(input);
      written.forEach(p -> System.out.println("wrote " + p));
      return 0;
    } catch (Exception e) {
      System.err.println("kvscope gui: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
      return 2;
    }
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  static final String USAGE = "usage: kvscope gui --index DIR [--report report.json] [--screenshot-dir DIR]";
}
