package io.kvscope.model.reach;

import static io.kvscope.model.reach.ReachRule.UNKNOWN_NODE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The reach rule on plain values: node 0 restarts at t=1,000; node 1 never does; horizon 5,000 ms. */
class ReachRuleTest {

  private final ReachRule rule = new ReachRule(5_000, new long[][] {{1_000}, {}});

  @Test
  void anEarlierRequestOnTheSameNodeInTheSameRunIsWithinReach() {
    assertThat(rule.reaches(1_500, 0, true, 2_000, 0)).isTrue();
    assertThat(rule.sameNode(0, 0)).isTrue();
    assertThat(rule.sameRun(1_500, 0, 2_000, 0)).isTrue();
  }

  @Test
  void aRestartBetweenTheTwoPutsTheSourceOutOfReach() {
    assertThat(rule.reaches(500, 0, true, 2_000, 0)).isFalse();
    assertThat(rule.sameRun(500, 0, 2_000, 0)).isFalse();
  }

  @Test
  void anotherDecodeNodeHasItsOwnPool() {
    assertThat(rule.reaches(1_500, 1, true, 2_000, 0)).isFalse();
    assertThat(rule.sameNode(1, 0)).isFalse();
  }

  @Test
  void aSourceMustStartBeforeTheRecipientAndWithinTheHorizon() {
    assertThat(rule.reaches(2_000, 1, true, 2_000, 1)).as("same instant").isFalse();
    assertThat(rule.reaches(2_500, 1, true, 2_000, 1)).as("later").isFalse();
    assertThat(rule.reaches(2_000, 1, true, 7_000, 1)).as("exactly the horizon").isTrue();
    assertThat(rule.reaches(1_999, 1, true, 7_000, 1)).as("past the horizon").isFalse();
  }

  @Test
  void aRequestThatWroteNoKvReachesNobody() {
    assertThat(rule.reaches(1_500, 0, false, 2_000, 0)).isFalse();
  }

  @Test
  void anUnknownNodeStaysPossibleAndIsJudgedByTheKnownOnesRestarts() {
    assertThat(rule.reaches(1_500, UNKNOWN_NODE, true, 2_000, 0)).isTrue();
    assertThat(rule.reaches(500, UNKNOWN_NODE, true, 2_000, 0)).as("the recipient's node restarted").isFalse();
    assertThat(rule.reaches(500, UNKNOWN_NODE, true, 2_000, UNKNOWN_NODE)).isTrue();
    assertThat(rule.sameNode(UNKNOWN_NODE, UNKNOWN_NODE)).isFalse();
    assertThat(rule.sameRun(500, UNKNOWN_NODE, 2_000, UNKNOWN_NODE)).isFalse();
  }

  @Test
  void aHorizonOfNothingIsRefused() {
    assertThatThrownBy(() -> new ReachRule(0, new long[0][])).isInstanceOf(IllegalArgumentException.class);
  }
}
