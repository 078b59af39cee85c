package io.kvscope.model.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CandidatesTest {

  @Test
  void sameNodeThenSameRunThenMostRecentlyReleasedFirst() {
    Holder otherNode = new Holder(1, "gw-other-node", "a", 0, 9_000, false, true, false);
    Holder beforeRestart = new Holder(2, "gw-old-run", "b", 0, 8_000, true, false, false);
    Holder older = new Holder(3, "gw-older", "c", 0, 1_000, true, true, false);
    Holder newer = new Holder(4, "gw-newer", "d", 0, 5_000, true, true, true);
    Holder tie = new Holder(5, "gw-a-tie", "e", 0, 5_000, true, true, false);
    assertThat(Candidates.ranked(List.of(otherNode, older, beforeRestart, newer, tie)))
        .extracting(Holder::requestId)
        .containsExactly("gw-a-tie", "gw-newer", "gw-older", "gw-old-run", "gw-other-node");
  }

  @Test
  void twoRequestsWithOneIdStayTwoAndTieByTheirPlaceInRequestOrder() {
    // A forged (or merged) request id: the rules still see two requests, the earlier one first on a tie.
    Holder later = new Holder(9, "gw-same", "a", 0, 5_000, true, true, false);
    Holder earlier = new Holder(2, "gw-same", "b", 0, 5_000, true, true, false);
    assertThat(Candidates.ranked(List.of(later, earlier))).containsExactly(earlier, later);
    assertThat(Candidates.ranked(List.of(earlier, later))).containsExactly(earlier, later);
  }
}
