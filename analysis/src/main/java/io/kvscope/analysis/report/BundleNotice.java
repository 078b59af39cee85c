package io.kvscope.analysis.report;

import io.kvscope.ingest.KvscopeOutputs;
import java.io.IOException;
import java.io.Writer;
import java.util.List;

/**
 * Where a tenant's notice is written: its words are composed once ({@link TenantBundles}) and
 * rendered as notification.md or as notification.html. Every value is escaped for its format
 * here; callers pass plain text.
 */
interface BundleNotice {

  /** A table column; {@code code} for identifiers the customer will search for (request ids). */
  record Column(String header, boolean numeric, boolean code) {

    static Column text(String header) {
      return new Column(header, false, false);
    }

    static Column number(String header) {
      return new Column(header, true, false);
    }

    static Column code(String header) {
      return new Column(header, false, true);
    }
  }

  /** The first line: {@code text} followed by {@code name} (a tenant), shown as a literal name. */
  void title(String text, String name) throws IOException;

  void heading(String text) throws IOException;

  void paragraph(String text) throws IOException;

  void table(List<Column> columns, List<List<String>> rows) throws IOException;

  /** Ends the document. */
  void end() throws IOException;

  /** notification.md. */
  final class MarkdownNotice implements BundleNotice {
    private final Writer out;

    MarkdownNotice(Writer out) {
      this.out = out;
    }

    @Override
    public void title(String text, String name) throws IOException {
      // Starts with KvscopeOutputs.NOTIFICATION_MARKDOWN_TITLE: an ingest skips the file as kvscope's own.
      // The name as a code span: nothing a tenant is called can become a link or markup.
      out.write("# " + Markdown.text(text) + Markdown.code(name) + "\n\n");
    }

    @Override
    public void heading(String text) throws IOException {
      out.write("## " + Markdown.text(text) + "\n\n");
    }

    @Override
    public void paragraph(String text) throws IOException {
      out.write(Markdown.text(text) + "\n\n");
    }

    @Override
    public void table(List<Column> columns, List<List<String>> rows) throws IOException {
      StringBuilder head = new StringBuilder("|");
      StringBuilder rule = new StringBuilder("|");
      for (Column c : columns) {
        head.append(' ').append(Markdown.text(c.header())).append(" |");
        rule.append(c.numeric() ? "---:|" : "---|");
      }
      out.write(head + "\n" + rule + "\n");
      for (List<String> row : rows) {
        StringBuilder line = new StringBuilder("|");
        for (int i = 0; i < columns.size(); i++) {
          String value = row.get(i);
          line.append(' ').append(columns.get(i).code() ? Markdown.code(value) : Markdown.text(value)).append(" |");
        }
        out.write(line + "\n");
      }
      out.write("\n");
    }

    @Override
    public void end() {}
  }

  /**
   * notification.html: one self-contained page with inline style only (no script, nothing to
   * load; a Content-Security-Policy forbids it), for customers who read the notice in a browser.
   */
  final class HtmlNotice implements BundleNotice {
    private final Writer out;
    private boolean started;

    HtmlNotice(Writer out) {
      this.out = out;
    }

    @Override
    public void title(String text, String name) throws IOException {
      out.write("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          + KvscopeOutputs.HTML_GENERATOR_TAG + "\n" // an ingest skips what carries it
          + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
          + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" + Html.esc(text + name)
          + "</title>\n<style>\n" + CSS + "</style>\n</head>\n<body>\n<main>\n<h1>" + Html.esc(text) + "<code>"
          + Html.esc(name) + "</code></h1>\n");
      started = true;
    }

    @Override
    public void heading(String text) throws IOException {
      out.write("<h2>" + Html.esc(text) + "</h2>\n");
    }

    @Override
    public void paragraph(String text) throws IOException {
      out.write("<p>" + Html.esc(text) + "</p>\n");
    }

    @Override
    public void table(List<Column> columns, List<List<String>> rows) throws IOException {
      out.write("<div class=\"scroll\"><table>\n<thead><tr>");
      for (Column c : columns) {
        out.write("<th" + (c.numeric() ? " class=\"num\"" : "") + ">" + Html.esc(c.header()) + "</th>");
      }
      out.write("</tr></thead>\n<tbody>\n");
      for (List<String> row : rows) {
        out.write("<tr>");
        for (int i = 0; i < columns.size(); i++) {
          Column c = columns.get(i);
          String value = Html.times(Html.esc(row.get(i)));
          out.write("<td" + (c.numeric() ? " class=\"num\"" : "") + ">" + (c.code() ? "<code>" + value + "</code>" : value)
              + "</td>");
        }
        out.write("</tr>\n");
      }
      out.write("</tbody>\n</table></div>\n");
    }

    @Override
    public void end() throws IOException {
      if (!started) {
        throw new IllegalStateException("a notice starts with its title");
      }
      out.write("</main>\n</body>\n</html>\n");
    }

    private static final String CSS = """
        body { margin: 0; background: #f6f7f9; color: #1f2933;
          font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
        main { max-width: 1040px; margin: 0 auto; padding: 24px 20px 48px; }
        h1 { font-size: 24px; margin: 0 0 12px; }
        h2 { font-size: 18px; margin: 28px 0 8px; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; font-size: 14px; background: #fff; }
        th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #e3e7eb; vertical-align: top; }
        thead th { background: #f0f2f5; }
        .num { text-align: right; font-variant-numeric: tabular-nums; }
        .t { white-space: nowrap; }
        code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; word-break: break-all; }
        td code { white-space: nowrap; word-break: normal; } /* a request id on one line: the table scrolls instead */
        """;
  }
}
