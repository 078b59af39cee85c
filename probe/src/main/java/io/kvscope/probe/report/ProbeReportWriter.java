package io.kvscope.probe.report;

import io.kvscope.index.store.OwnerOnly;
import io.kvscope.probe.ProbeResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Writes a run's evidence into its own folder under the output directory,
 * {@code probe-<UTC start>-<run tag>/} with {@code probe.json}, {@code probe.md} and
 * {@code probe.html}: owner-only, each file complete or absent, and never over an earlier run's.
 */
public final class ProbeReportWriter {

  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private ProbeReportWriter() {}

  /** The folder written. */
  public static Path write(ProbeResult r, Path out) throws IOException {
    Path dir = out.resolve("probe-" + STAMP.format(r.started()) + "-" + r.runTag());
    OwnerOnly.directory(dir);
    OwnerOnly.writeAtomically(dir.resolve("probe.json"), ProbeReportJson.bytes(r));
    OwnerOnly.writeAtomically(dir.resolve("probe.md"), ProbeReportMarkdown.render(r).getBytes(StandardCharsets.UTF_8));
    OwnerOnly.writeAtomically(dir.resolve("probe.html"), ProbeReportHtml.render(r).getBytes(StandardCharsets.UTF_8));
    return dir;
  }
}
