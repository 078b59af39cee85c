package io.kvscope.analysis.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a revealed copy of the reports goes and how it is told apart: its own folder beside the
 * redacted reports (never over them: the redacted files are the ones that may be passed on), and a
 * mark in report.html and report.md that says which kind a file is.
 */
public final class RevealedCopy {

  /** The folder, inside the redacted reports' folder, that {@code kvscope report --reveal} writes to. */
  public static final String FOLDER = "revealed";

  /** In report.html's head: {@code content="revealed"} or {@code content="redacted"}. */
  static final String HTML_MARK = "<meta name=\"kvscope-content\" content=\"%s\">";

  /** report.md's second line. */
  static final String MARKDOWN_MARK = "<!-- kvscope-content: %s -->";

  private static final List<String> MARKED = List.of(HtmlReport.FILE_NAME, Format.MARKDOWN.fileName());

  private RevealedCopy() {}

  static String htmlMark(boolean reveal) {
    return HTML_MARK.formatted(reveal ? "revealed" : "redacted");
  }

  static String markdownMark(boolean reveal) {
    return MARKDOWN_MARK.formatted(reveal ? "revealed" : "redacted");
  }

  /**
   * The command that writes the revealed copy, to be run in the reports' folder, exactly as the
   * redacted reports print it: the index by its absolute path, so it works from there.
   */
  public static String command(String index) {
    return "kvscope report report.json --index " + (index == null ? "<index folder>" : quoted(index)) + " --reveal";
  }

  /**
   * The report.html or report.md in {@code dir} that is not a revealed copy (a redacted report, or
   * one older than the mark), or null: revealed text must never replace it.
   */
  public static Path redactedReportIn(Path dir) throws IOException {
    for (String name : MARKED) {
      Path file = dir.resolve(name);
      if (Files.isRegularFile(file) && !isRevealed(file)) {
        return file;
      }
    }
    return null;
  }

  private static boolean isRevealed(Path file) throws IOException {
    try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String mark = (file.getFileName().toString().endsWith(".html") ? htmlMark(true) : markdownMark(true));
      char[] head = new char[4096];
      int n = in.read(head);
      return n > 0 && new String(head, 0, n).contains(mark);
    } catch (java.nio.charset.MalformedInputException notText) {
      return false;
    }
  }

  private static String quoted(String path) {
    return path.matches("[A-Za-z0-9_./:@%+=,-]+") ? path : "'" + path.replace("'", "'\\''") + "'";
  }
}
