package io.kvscope.analysis.report;

import java.util.Locale;

/** The outputs {@link ReportWriters} can write, each with its fixed name in the output directory. */
public enum Format {
  /** The machine contract, {@link ReportJson}. */
  JSON("report.json"),
  /** One row per finding, {@link FindingsCsv}. */
  CSV("findings.csv"),
  /** The human report as Markdown, {@link MarkdownReport}. */
  MARKDOWN("report.md"),
  /** The human report as one self-contained page, {@link HtmlReport}. */
  HTML("report.html"),
  /** One row per finding and source as Arrow IPC, {@link FindingsArrow}. */
  ARROW("findings.arrow"),
  /** The same rows as newline-delimited JSON, {@link FindingsNdjson}. */
  NDJSON("findings.ndjson"),
  /** A directory per tenant with its own notification, {@link TenantBundles}. */
  BUNDLES("bundles"),
  /** Findings and window edges as Timesketch's JSON-lines import, {@link TimesketchTimeline}. */
  TIMESKETCH("timesketch.jsonl");

  private final String fileName;

  Format(String fileName) {
    this.fileName = fileName;
  }

  public String fileName() {
    return fileName;
  }

  /** {@code json}, {@code csv}, {@code markdown}, {@code html}, {@code arrow}, {@code ndjson}, {@code bundles}, {@code timesketch}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Format fromId(String id) {
    for (Format format : values()) {
      if (format.id().equalsIgnoreCase(id) || format.fileName.equalsIgnoreCase(id)) {
        return format;
      }
    }
    throw new IllegalArgumentException("unknown report format '" + id + "'; use one of "
        + String.join(", ", java.util.Arrays.stream(values()).map(Format::id).toList()));
  }
}
