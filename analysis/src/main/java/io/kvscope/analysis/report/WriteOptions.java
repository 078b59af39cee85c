package io.kvscope.analysis.report;

import java.util.EnumSet;
import java.util.Set;

/**
 * How {@link ReportWriters} writes a report.
 *
 * @param reveal show prompt/response text of leaked spans in the human reports (never in the
 *     tenant bundles); off by default
 * @param text where leaked spans' text comes from; {@link TextSource#NONE} shows offsets only
 * @param formats which outputs to write
 * @param topFindings rows of report.md's findings table before "and N more", and the findings whose
 *     leaked spans the human reports describe (report.html's findings table holds every finding)
 * @param topMatrix tenants per axis of report.md's source x recipient list (report.html's heat map
 *     holds more, and lists every pair beyond it)
 * @param notice who sends the tenant notices and what they say of the remediation
 * @param traceLinks links from requests to their traces in the human reports ({@link TraceLinks#NONE}: none)
 */
public record WriteOptions(boolean reveal, TextSource text, Set<Format> formats, int topFindings, int topMatrix,
    NoticeDetails notice, TraceLinks traceLinks) {

  public WriteOptions {
    text = text == null ? TextSource.NONE : text;
    formats = formats == null || formats.isEmpty() ? Set.copyOf(EnumSet.allOf(Format.class)) : Set.copyOf(formats);
    notice = notice == null ? NoticeDetails.NONE : notice;
    traceLinks = traceLinks == null ? TraceLinks.NONE : traceLinks;
    if (topFindings < 1 || topMatrix < 1) {
      throw new IllegalArgumentException("topFindings and topMatrix must be at least 1");
    }
  }

  /** Every format, redacted, no text source, 50 findings, 12 tenants per matrix axis. */
  public static WriteOptions defaults() {
    return new WriteOptions(false, TextSource.NONE, EnumSet.allOf(Format.class), 50, 12, NoticeDetails.NONE, TraceLinks.NONE);
  }

  public WriteOptions withReveal(boolean reveal) {
    return new WriteOptions(reveal, text, formats, topFindings, topMatrix, notice, traceLinks);
  }

  public WriteOptions withText(TextSource text) {
    return new WriteOptions(reveal, text, formats, topFindings, topMatrix, notice, traceLinks);
  }

  public WriteOptions withFormats(Set<Format> formats) {
    return new WriteOptions(reveal, text, formats, topFindings, topMatrix, notice, traceLinks);
  }

  public WriteOptions withNotice(NoticeDetails notice) {
    return new WriteOptions(reveal, text, formats, topFindings, topMatrix, notice, traceLinks);
  }

  public WriteOptions withTop(int topFindings, int topMatrix) {
    return new WriteOptions(reveal, text, formats, topFindings, topMatrix, notice, traceLinks);
  }

  public WriteOptions withTraceLinks(TraceLinks traceLinks) {
    return new WriteOptions(reveal, text, formats, topFindings, topMatrix, notice, traceLinks);
  }
}
