package io.kvscope.analysis.report;

import io.kvscope.ingest.Printable;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One CSV cell from a value that came from the logs, for every CSV kvscope writes (findings.csv,
 * the workbench's exports). Three rules, in this order:
 * <ol>
 *   <li>control characters become {@link Printable} escapes, so a cell never holds a raw line
 *       break or terminal escape;
 *   <li>formula injection is defused by the OWASP rule: a cell starting with {@code = + - @}, a tab
 *       or a carriage return (or the full-width {@code ＝ ＋ － ＠} some spreadsheets also take as
 *       formulas) gets a leading {@code '}, so {@code =HYPERLINK(...)} shows as text;
 *   <li>RFC 4180 quoting: a cell holding a comma, semicolon or quote is quoted, quotes doubled.
 * </ol>
 * An empty string stands for an unknown value.
 */
public final class CsvCell {

  private static final String FORMULA_STARTS = "=+-@\t\r\uff1d\uff0b\uff0d\uff20";

  private CsvCell() {}

  /** The cell for {@code value}; empty for {@code null}. */
  public static String of(String value) {
    return quoted(defused(value));
  }

  /**
   * A multi-valued cell, {@code ;}-separated; each part is defused on its own, since a
   * spreadsheet set to split on {@code ;} would make every part a cell.
   */
  public static String list(List<String> values) {
    return quoted(values.stream().map(CsvCell::defused).collect(Collectors.joining(";")));
  }

  /** Rules 1 and 2: printable, and never read as a formula. */
  static String defused(String value) {
    if (value == null || value.isEmpty()) {
      return "";
    }
    String printable = Printable.isClean(value) ? value : Printable.text(value);
    return FORMULA_STARTS.indexOf(printable.charAt(0)) >= 0 ? "'" + printable : printable;
  }

  private static String quoted(String value) {
    boolean quote = value.indexOf(',') >= 0 || value.indexOf(';') >= 0 || value.indexOf('"') >= 0;
    return quote ? '"' + value.replace("\"", "\"\"") + '"' : value;
  }
}
