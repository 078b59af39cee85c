package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.impact.HourCount;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The report's timeline stays a chart of bounded size whatever times a report holds: one hour in
 * the year 300000, 50000 or at the end of what an instant can say (where a timestamp of 1e300
 * saturates) next to the incident's own hours, and a window that runs there.
 */
class TimelineBoundsTest {

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"+300000-01-01T00:00:00Z", "+50000-01-01T00:00:00Z", "+292278994-08-17T07:00:00Z",
      "-292275055-05-16T17:00:00Z", "1970-01-01T00:00:00Z"})
  void aTimeFarFromTheIncidentGivesABoundedChart(String far) throws Exception {
    Report incident = IncidentFixture.incident();
    List<HourCount> timeline = new ArrayList<>(incident.timeline());
    timeline.add(new HourCount(Instant.parse(far), 1, 1, 1, 1));
    List<Window> windows = new ArrayList<>(incident.windows());
    Instant incidentStart = Instant.parse("2026-08-27T00:00:00Z");
    boolean later = Instant.parse(far).isAfter(incidentStart);
    windows.add(new Window(Window.Kind.VULNERABLE, "prefill-z", null, later ? incidentStart : Instant.parse(far),
        later ? Instant.parse(far) : incidentStart, 1, "far"));
    Report far_ = new Report(incident.reportVersion(), incident.generatedAt(), incident.index(), incident.summary(),
        windows, incident.findings(), incident.tenants(), incident.matrix(), timeline, incident.dataCategories(),
        incident.coverage(), incident.parameters());

    Path html = HtmlReport.write(far_, dir.resolve("report.html"), WriteOptions.defaults());

    assertThat(Files.size(html)).isLessThan(1L << 20);
    assertThat(Files.readString(html)).contains("<svg");
  }
}
