package io.kvscope.probe.canary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MarkerLedgerTest {

  private final MarkerLedger ledger = new MarkerLedger(new Markers("RUNTAG01", new SplittableRandom(7)));

  @Test
  void aMarkerIsItsOwnersAndAnyoneElsesIsALeak() {
    String mine = ledger.issue("fill-01");
    String theirs = ledger.issue("fill-02");
    assertThat(mine).matches("KVCANARY-RUNTAG01[A-Z0-9]{12}");

    assertThat(ledger.classify("fill-01", "Codes: " + mine + " and " + theirs + ", " + theirs))
        .extracting(MarkerLedger.Classified::match, MarkerLedger.Classified::owner)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(MarkerLedger.Match.OWN, "fill-01"),
            org.assertj.core.groups.Tuple.tuple(MarkerLedger.Match.OTHER_REQUEST, "fill-02"));
  }

  @Test
  void aCutMarkerStillNamesItsOwnerWhenEnoughOfItIsLeft() {
    String theirs = ledger.issue("fill-02");
    String eight = theirs.substring(0, theirs.length() - 4);
    String seven = theirs.substring(0, theirs.length() - 5);
    assertThat(ledger.classifyOne("over-pool-1", eight).match()).isEqualTo(MarkerLedger.Match.OTHER_REQUEST_PARTIAL);
    assertThat(ledger.classifyOne("over-pool-1", eight).owner()).isEqualTo("fill-02");
    assertThat(ledger.classifyOne("over-pool-1", seven).match()).isEqualTo(MarkerLedger.Match.UNISSUED_THIS_RUN);
    // Glued to the next word: still its owner's.
    assertThat(ledger.classifyOne("over-pool-1", theirs + "abc").match()).isEqualTo(MarkerLedger.Match.OTHER_REQUEST);
  }

  @Test
  void markersNobodyWasGivenAreNeverLeaks() {
    ledger.issue("fill-01");
    assertThat(ledger.classifyOne("normal-1", "KVCANARY-RUNTAG01ZZZZZZZZZZZZ").leak()).isFalse();
    assertThat(ledger.classifyOne("normal-1", "KVCANARY-OTHERRUNABCDEFGHIJKL").match()).isEqualTo(MarkerLedger.Match.NOT_THIS_RUN);
    assertThat(ledger.classify("normal-1", "no codes here")).isEmpty();
  }

  @Test
  void newRunsGetDifferentTagsAndMarkers() {
    Markers a = Markers.forNewRun();
    Markers b = Markers.forNewRun();
    assertThat(a.runTag()).isNotEqualTo(b.runTag());
    assertThat(a.next()).isNotEqualTo(a.next());
  }
}
