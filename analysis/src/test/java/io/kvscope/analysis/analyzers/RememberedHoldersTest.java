package io.kvscope.analysis.analyzers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

class RememberedHoldersTest {

  /** Holders per passage as doc * 2 + (in reply ? 1 : 0), in the order an index would visit them. */
  private static final class ListedIndex implements TextIndex {
    final Map<String, int[]> holders;
    int lookups;

    ListedIndex(Map<String, int[]> holders) {
      this.holders = holders;
    }

    @Override
    public void holders(String passage, IntPredicate eligible, HolderVisitor visitor) throws IOException {
      lookups++;
      for (int encoded : holders.getOrDefault(passage, new int[0])) {
        if (eligible.test(encoded >> 1) && !visitor.visit(encoded >> 1, (encoded & 1) == 1)) {
          return;
        }
      }
    }

    @Override
    public int replyTenants(String piece, int atMost) {
      return 0;
    }

    @Override
    public String text(int doc, String field) {
      return null;
    }
  }

  private static List<String> visits(TextIndex index, String passage, IntPredicate eligible, int stopAfter)
      throws IOException {
    List<String> seen = new ArrayList<>();
    index.holders(passage, eligible, (doc, inReply) -> {
      seen.add(doc + (inReply ? "r" : "p"));
      return seen.size() < stopAfter;
    });
    return seen;
  }

  @Test
  void replaysWhatTheIndexWouldSayForEveryRecipientWithOneLookup() throws IOException {
    ListedIndex index = new ListedIndex(Map.of("the passage", new int[] {2 * 7, 2 * 3 + 1, 2 * 7 + 1, 2 * 9 + 1}));
    RememberedHolders remembered = new RememberedHolders(index);
    IntPredicate notSeven = doc -> doc != 7;
    IntPredicate odd = doc -> doc % 2 == 1;

    assertThat(visits(remembered, "the passage", notSeven, 10)).isEqualTo(visits(index, "the passage", notSeven, 10))
        .containsExactly("3r", "9r");
    assertThat(visits(remembered, "the passage", odd, 2)).isEqualTo(visits(index, "the passage", odd, 2))
        .containsExactly("7p", "3r");
    assertThat(visits(remembered, "nobody holds this", odd, 10)).isEmpty();
    index.lookups = 0;
    visits(remembered, "the passage", doc -> true, 10);
    visits(remembered, "nobody holds this", doc -> true, 10);
    assertThat(index.lookups).as("both passages are remembered").isZero();
    assertThat(remembered.hits).isEqualTo(3);
  }

  @Test
  void forgetsTheLeastRecentlyUsedPassageWhenFull() throws IOException {
    String longPassage = "w".repeat((int) (RememberedHolders.MAX_WEIGHT / 2));
    ListedIndex index = new ListedIndex(Map.of("a" + longPassage, new int[] {2}, "b" + longPassage, new int[] {4},
        "c" + longPassage, new int[] {6}));
    RememberedHolders remembered = new RememberedHolders(index);
    visits(remembered, "a" + longPassage, doc -> true, 10);
    visits(remembered, "b" + longPassage, doc -> true, 10); // over the bound: "a" goes
    index.lookups = 0;
    assertThat(visits(remembered, "b" + longPassage, doc -> true, 10)).containsExactly("2p");
    assertThat(index.lookups).isZero();
    assertThat(visits(remembered, "a" + longPassage, doc -> true, 10)).containsExactly("1p");
    assertThat(index.lookups).isEqualTo(1);
  }

  @Test
  void aPassageWithTooManyHoldersIsAskedAfreshAndStillAnsweredWhole() throws IOException {
    int[] many = new int[RememberedHolders.MAX_HOLDERS + 1];
    for (int i = 0; i < many.length; i++) {
      many[i] = 2 * i + 1;
    }
    ListedIndex index = new ListedIndex(Map.of("everyone says this", many));
    RememberedHolders remembered = new RememberedHolders(index);
    IntPredicate last = doc -> doc == RememberedHolders.MAX_HOLDERS;
    assertThat(visits(remembered, "everyone says this", last, 10)).containsExactly(RememberedHolders.MAX_HOLDERS + "r");
    index.lookups = 0;
    assertThat(visits(remembered, "everyone says this", last, 10)).hasSize(1);
    assertThat(index.lookups).as("asked once, filtered, not listed whole again").isEqualTo(1);
    assertThat(remembered.hits).isZero();
  }
}
