package io.kvscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.model.finding.Finding;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Analyzers run after the ones they declare they need; the manager refuses what cannot be ordered. */
class AnalyzersTest {

  @TempDir Path tmp;

  private record Named(String name, Set<String> requires) implements Analyzer {
    Named(String name, String... requires) {
      this(name, Set.of(requires));
    }

    public String description() {
      return name;
    }

    public void analyze(AnalysisContext context, Consumer<Finding> findings) {
      requires.forEach(context::findingsOf);
    }
  }

  @Test
  void eachAnalyzerComesAfterWhatItRequiresAndTiesGoByName() {
    List<Analyzer> ordered = Analyzers.ordered(List.of(new Named("overlap", "underrun", "over-length"),
        new Named("identifiers", "overlap"), new Named("underrun"), new Named("audit"), new Named("over-length")));
    assertThat(ordered).extracting(Analyzer::name)
        .containsExactly("audit", "over-length", "underrun", "overlap", "identifiers");
  }

  @Test
  void theAnalyzersAskedForFirstRunBeforeTheRestAfterWhatTheyRequire() {
    List<Analyzer> ordered = Analyzers.ordered(List.of(new Named("overlap", "underrun", "over-length"),
        new Named("audit"), new Named("underrun"), new Named("over-length", "units"), new Named("units")),
        Set.of("underrun", "over-length", "not-registered"));
    assertThat(ordered).extracting(Analyzer::name)
        .containsExactly("units", "over-length", "underrun", "audit", "overlap");
  }

  @Test
  void theStandardRunBuildsThePreliminaryFiguresFirst() {
    List<String> names = Analyzers.ordered(Analyzers.discover(), Analysis.PRELIMINARY_NEEDS).stream()
        .map(Analyzer::name).toList();
    assertThat(names.subList(0, Analysis.PRELIMINARY_NEEDS.size())).containsExactlyInAnyOrderElementsOf(
        Analysis.PRELIMINARY_NEEDS);
  }

  @Test
  void theRegisteredAnalyzersAllResolve() {
    List<String> names = Analyzers.discover().stream().map(Analyzer::name).toList();
    assertThat(names.indexOf("cross-tenant-overlap")).isGreaterThan(names.indexOf("prefill-underrun"))
        .isGreaterThan(names.indexOf("over-length-accepted")).isGreaterThan(names.indexOf("timing-anomaly"));
    assertThat(names.indexOf("identifier-leaks")).isGreaterThan(names.indexOf("cross-tenant-overlap"));
  }

  @Test
  void aCycleAnUnknownRequirementAndTwoOfOneNameAreRefused() {
    assertThatThrownBy(() -> Analyzers.ordered(List.of(new Named("a", "b"), new Named("b", "c"), new Named("c", "a"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle").hasMessageContaining("a -> b -> c -> a");
    assertThatThrownBy(() -> Analyzers.ordered(List.of(new Named("a", "missing"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'missing'");
    assertThatThrownBy(() -> Analyzers.ordered(List.of(new Named("a"), new Named("a"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two analyzers");
  }

  @Test
  void anAnalyzerReadsOnlyTheFindingsItDeclares() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"));
    try (var search = index.open()) {
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults());
      context.run(new Named("underrun"), f -> { });
      context.run(new Named("declared", "underrun"), f -> { });
      Analyzer sneaky = new Analyzer() {
        public String name() {
          return "sneaky";
        }

        public String description() {
          return "reads what it did not declare";
        }

        public void analyze(AnalysisContext c, Consumer<Finding> findings) {
          c.findingsOf("underrun");
        }
      };
      assertThatThrownBy(() -> context.run(sneaky, f -> { }))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("'sneaky' does not declare");
    }
  }
}
