package io.kvscope.gui;

import io.kvscope.index.OwnerOnly;
import java.nio.file.Path;

/**
 * Writes a demo incident (index + report.json) for {@code gui/screenshots.sh --demo}, until the
 * sample generator is wired in: {@code DemoIncident OUT_DIR [LEAKS]} creates {@code OUT_DIR/index}
 * and {@code OUT_DIR/report.json}.
 */
public final class DemoIncident {

  private DemoIncident() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: DemoIncident OUT_DIR [LEAKS]");
      System.exit(2);
    }
    Path out = OwnerOnly.directory(Path.of(args[0]));
    int leaks = args.length > 1 ? Integer.parseInt(args[1]) : 155;
    IncidentFixture.Incident incident = IncidentFixture.write(out.resolve("index"), leaks, 20260827L);
    io.kvscope.analysis.report.ReportJson.write(incident.report(), out.resolve("report.json"));
    OwnerOnly.file(out.resolve("report.json"));
    System.out.println("wrote " + out.resolve("index") + " (" + incident.requests().size() + " requests) and "
        + out.resolve("report.json") + " (" + incident.report().findings().size() + " findings)");
  }
}
