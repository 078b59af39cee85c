package io.kvscope.model.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.evidence.FocusedLookup.Held;
import io.kvscope.model.evidence.FocusedLookup.Sharing;
import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FocusedLookupTest {

  @Test
  void theMostSharingRequestsAreVerifiedTheEarlierOnATieListedInRequestOrder() {
    List<Sharing> sharing = new ArrayList<>();
    // Requests 0..299 share one fingerprint each; 500 and 400 share three and two.
    IntStream.range(0, 300).forEach(r -> sharing.add(new Sharing(r, 1, 0)));
    sharing.add(new Sharing(500, 1, 2));
    sharing.add(new Sharing(400, 2, 0));
    Collections.reverse(sharing);
    List<Sharing> best = FocusedLookup.best(sharing);
    assertThat(best).hasSize(FocusedLookup.MAX_CANDIDATES);
    // The two best, then the earliest 254 of the tied ones; listed by request.
    assertThat(best).extracting(Sharing::request)
        .containsExactlyElementsOf(IntStream.concat(IntStream.range(0, 254), IntStream.of(400, 500)).boxed().toList());
  }

  @Test
  void windowsStepTwoWordsAndSkipRunsAlreadyVerified() {
    String text = IntStream.range(0, 30).mapToObj(i -> "w" + i).reduce((a, b) -> a + " " + b).orElseThrow();
    List<TextRange> all = FocusedLookup.windows(WordTokenizer.tokenize(text), List.of());
    assertThat(all).extracting(TextRange::tokenStart).containsExactly(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20);
    assertThat(text.substring(all.get(1).charStart(), all.get(1).charEnd())).isEqualTo("w2 w3 w4 w5 w6 w7 w8 w9 w10 w11");
    // A verified run over words 4..19 holds the windows starting at 4, 6, 8 and 10 whole.
    List<TextRange> rest = FocusedLookup.windows(WordTokenizer.tokenize(text), List.<int[]>of(new int[] {4, 20}));
    assertThat(rest).extracting(TextRange::tokenStart).containsExactly(0, 2, 12, 14, 16, 18, 20);
  }

  @Test
  void aWindowKeepsItsLatestHoldersPromptBeforeReply() {
    List<Held> held = new ArrayList<>();
    IntStream.range(0, 100).forEach(r -> held.add(new Held(r, r % 3 == 0)));
    held.add(new Held(99, false));
    List<Held> latest = FocusedLookup.latest(held);
    assertThat(latest).hasSize(FocusedLookup.MAX_WINDOW_HOLDERS);
    assertThat(latest.subList(0, 3)).containsExactly(new Held(99, false), new Held(99, true), new Held(98, false));
    assertThat(latest.get(latest.size() - 1).request()).isEqualTo(99 - 62);
  }

  @Test
  void windowHoldersAlreadyVerifiedOnTheirSideAreNotVerifiedAgain() {
    List<Sharing> verified = List.of(new Sharing(5, 3, 0), new Sharing(7, 0, 1));
    List<Held> held = List.of(new Held(9, true), new Held(5, false), new Held(5, true), new Held(7, true),
        new Held(2, false), new Held(9, true));
    assertThat(FocusedLookup.beyond(verified, held))
        .containsExactly(new Sharing(2, 1, 0), new Sharing(5, 0, 1), new Sharing(9, 0, 1));
  }
}
