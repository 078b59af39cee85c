package io.kvscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.analysis.analyzers.OverLengthAccepted;
import io.kvscope.analysis.analyzers.PrefillUnderrun;
import io.kvscope.analysis.impact.Preliminary;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The preliminary figures: told once, as soon as the analyzers they need have run and before any
 * other, and the same as the report's; an analyzer that would change them afterwards is refused.
 */
class PreliminaryFiguresTest {

  @TempDir Path tmp;

  /** An analyzer that emits the findings it is given. */
  private record Emitting(String name, Set<String> requires, List<Finding> emits) implements Analyzer {
    public String description() {
      return name;
    }

    public void analyze(AnalysisContext context, Consumer<Finding> findings) {
      emits.forEach(findings);
    }
  }

  private static Finding overLength(String request, String node, String time) {
    return new Finding("over_length_accepted:" + request, FindingKind.OVER_LENGTH_ACCEPTED, Confidence.CONFIRMED,
        request, "rid-" + request, "org-1", Instant.parse(time), node, "decode-0", List.of(), Map.of());
  }

  /** prefill-0 vulnerable until its pool grew; prefill-1 on a release called fixed, but its own logs show the mechanism. */
  private TestIndex twoNodes() {
    return new TestIndex(tmp.resolve("index"))
        .epoch("prefill-0", NodeRole.PREFILL, "2026-08-27T09:00:00Z", 681_280, 1_048_576, "0.5.19")
        .epoch("prefill-0", NodeRole.PREFILL, "2026-09-05T12:00:00Z", 1_048_576, 1_048_576, "0.5.19")
        .epoch("prefill-1", NodeRole.PREFILL, "2026-08-27T09:00:00Z", 681_280, 1_048_576, "0.5.22");
  }

  @Test
  void toldOnceBeforeTheOtherAnalyzersAndEqualToTheReport() throws Exception {
    List<String> told = new ArrayList<>();
    List<Preliminary> figures = new ArrayList<>();
    Analysis.Progress progress = new Analysis.Progress() {
      @Override
      public void analyzer(String name, int index, int count) {
        told.add(name);
      }

      @Override
      public void preliminary(Preliminary p) {
        told.add("PRELIMINARY");
        figures.add(p);
      }
    };
    List<Analyzer> analyzers = List.of(
        new Emitting("a-audit", Set.of(), List.of()),
        new Emitting(OverLengthAccepted.NAME, Set.of(), List.of(overLength("gw-1", "prefill-1", "2026-09-01T10:00:00Z"),
            overLength("gw-2", "prefill-0", "2026-08-28T10:00:00Z"), overLength("gw-2", "prefill-0", "2026-08-28T10:00:00Z"))),
        new Emitting(PrefillUnderrun.NAME, Set.of(), List.of()),
        new Emitting("text", Analysis.PRELIMINARY_NEEDS, List.of()));
    Report report;
    try (var search = twoNodes().open()) {
      report = new Analysis(analyzers, Clock.systemUTC()).run(search, AnalysisOptions.defaults(), progress);
    }

    assertThat(told).containsExactly(OverLengthAccepted.NAME, PrefillUnderrun.NAME, "PRELIMINARY", "a-audit", "text");
    Preliminary p = figures.get(0);
    assertThat(p.overLengthAccepted()).isEqualTo(2).isEqualTo(report.summary().overLengthAccepted());
    assertThat(p.prefillUnderruns()).isZero().isEqualTo(report.summary().prefillUnderruns());
    List<Window> vulnerable = report.windows().stream().filter(w -> w.kind() == Window.Kind.VULNERABLE).toList();
    assertThat(p.vulnerableWindows()).extracting(Window::id, Window::end, Window::reason)
        .containsExactlyElementsOf(vulnerable.stream().map(w -> org.assertj.core.groups.Tuple.tuple(w.id(), w.end(), w.reason())).toList());
    assertThat(p.vulnerableWindows()).extracting(Window::node).containsExactlyInAnyOrder("prefill-0", "prefill-1");
    assertThat(p.vulnerableWindows()).filteredOn(w -> w.node().equals("prefill-1")).singleElement()
        .satisfies(w -> assertThat(w.open()).as("the mechanism keeps the patched node's window open").isTrue());
  }

  @Test
  void anAnalyzerThatWouldChangeThemAfterTheyWereToldIsRefused() throws Exception {
    List<Analyzer> analyzers = List.of(new Emitting(OverLengthAccepted.NAME, Set.of(), List.of()),
        new Emitting(PrefillUnderrun.NAME, Set.of(), List.of()),
        new Emitting("z-late", Set.of(), List.of(overLength("gw-1", "prefill-1", "2026-09-01T10:00:00Z"))));
    try (var search = twoNodes().open()) {
      assertThatThrownBy(() -> new Analysis(analyzers, Clock.systemUTC()).run(search, AnalysisOptions.defaults(),
          Analysis.Progress.NONE))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("'z-late' emits over_length_accepted");
    }
  }
}
