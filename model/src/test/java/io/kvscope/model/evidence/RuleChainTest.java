package io.kvscope.model.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Confidence;
import java.util.List;
import org.junit.jupiter.api.Test;

class RuleChainTest {

  private record Fixed(String name, Verdict verdict) implements EvidenceRule<String> {
    public Verdict apply(Mechanism m, String facts) {
      return verdict;
    }
  }

  @Test
  void capsLowerTheConfidenceNotesExplainAndTheFirstDropEndsTheChain() {
    RuleChain<String> chain = new RuleChain<>(List.of(
        new Fixed("a", Verdict.note("a", "noted")),
        new Fixed("b", Verdict.cap("b", Confidence.PROBABLE, "capped")),
        new Fixed("c", Verdict.cap("c", Confidence.CONFIRMED, "no lower")),
        new Fixed("d", Verdict.pass())));
    Decision d = chain.decide(Mechanism.none(), "x");
    assertThat(d.kept()).isTrue();
    assertThat(d.confidence()).isEqualTo(Confidence.PROBABLE);
    assertThat(d.reasons()).containsExactly("a: noted", "b: capped", "c: no lower");

    RuleChain<String> dropping = new RuleChain<>(List.of(new Fixed("a", Verdict.cap("a", Confidence.SUSPECT, "low")),
        new Fixed("b", Verdict.drop("b", "gone")), new Fixed("c", Verdict.note("c", "never reached"))));
    Decision gone = dropping.decide(Mechanism.none(), "x");
    assertThat(gone.kept()).isFalse();
    assertThat(gone.droppedBy()).isEqualTo("b");
    assertThat(gone.reasons()).containsExactly("a: low", "b: gone");
  }
}
