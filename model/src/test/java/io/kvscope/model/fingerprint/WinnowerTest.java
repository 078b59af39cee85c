package io.kvscope.model.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class WinnowerTest {

  @Test
  void reproducesThePaperExample() {
    // Schleimer et al. 2003, figure 2: hashes of "adorunrunrunadorunrun", windows of 4.
    long[] hashes = {77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98};

    Fingerprints fp = Winnower.winnow(hashes, 4);

    assertThat(fp.positions()).containsExactly(3, 6, 8, 11, 15);
    assertThat(new long[] {fp.hash(0), fp.hash(1), fp.hash(2), fp.hash(3), fp.hash(4)})
        .containsExactly(17, 17, 8, 39, 17);
  }

  @Test
  void tiesKeepThePreviousSelectionAndRescansTakeTheRightmost() {
    // All equal: the first window takes its rightmost (2); it is kept while inside the window;
    // when it leaves, the rescan of [3, 5] takes 5, which lasts to the end.
    Fingerprints fp = Winnower.winnow(new long[] {5, 5, 5, 5, 5, 5, 5, 5}, 3);

    assertThat(fp.positions()).containsExactly(2, 5);
  }

  @Test
  void everyWindowContainsASelectedMinimum() {
    Random random = new Random(11);
    for (int trial = 0; trial < 2000; trial++) {
      int w = 1 + random.nextInt(20);
      int m = random.nextInt(200);
      int alphabet = 1 + random.nextInt(random.nextBoolean() ? 4 : 1000); // small: many ties
      long[] h = new long[m];
      for (int i = 0; i < m; i++) {
        h[i] = random.nextInt(alphabet) - alphabet / 2;
      }
      Fingerprints fp = Winnower.winnow(h, w);
      int[] positions = fp.positions();
      for (int i = 1; i < positions.length; i++) {
        assertThat(positions[i]).isGreaterThan(positions[i - 1]);
      }
      for (int i = 0; i < fp.size(); i++) {
        assertThat(fp.hash(i)).isEqualTo(h[fp.position(i)]);
      }
      for (int left = 0; left + w <= m; left++) {
        long min = Long.MAX_VALUE;
        for (int i = left; i < left + w; i++) {
          min = Math.min(min, h[i]);
        }
        boolean covered = false;
        for (int p : positions) {
          if (p >= left && p < left + w && h[p] == min) {
            covered = true;
            break;
          }
        }
        assertThat(covered).as("trial %s window at %s", trial, left).isTrue();
      }
      if (m < w) {
        assertThat(fp.size()).isZero();
      }
    }
  }

  @Test
  void rejectsNonPositiveWindow() {
    assertThatThrownBy(() -> Winnower.winnow(new long[] {1}, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
