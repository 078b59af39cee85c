package io.kvscope.samples.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PagePoolTest {

  private final List<String> events = new ArrayList<>();
  private final PagePool.OwnerListener listener = new PagePool.OwnerListener() {
    @Override
    public void gained(int owner) {
      events.add("+" + owner);
    }

    @Override
    public void lost(int owner) {
      events.add("-" + owner);
    }
  };

  @Test
  void allocatesTheLowestFreePagesAndReusesReleasedOnesFirst() {
    PagePool pool = new PagePool(10 * 64, 64, listener);
    int[] a = pool.allocate(3);
    int[] b = pool.allocate(2);
    assertThat(a).containsExactly(0, 1, 2);
    assertThat(b).containsExactly(3, 4);
    pool.release(a);
    assertThat(pool.allocate(4)).containsExactly(0, 1, 2, 5);
    assertThat(pool.freePages()).isEqualTo(10 - 6);
    assertThat(pool.allocate(5)).isNull();
  }

  @Test
  void releaseKeepsContentUntilTheNextWriter() {
    PagePool pool = new PagePool(4 * 64, 64, listener);
    int[] first = pool.allocate(2);
    pool.writeSequence(first, 7, 100);
    pool.release(first);
    assertThat(pool.owner(0)).isEqualTo(7);
    assertThat(pool.offset(1)).isEqualTo(64);
    assertThat(pool.fill(1)).isEqualTo(36);
    int[] second = pool.allocate(1);
    pool.write(second[0], 8, 0, 1);
    assertThat(pool.owner(0)).isEqualTo(8);
    assertThat(pool.owner(1)).isEqualTo(7);
    assertThat(events).containsExactly("+7", "+7", "-7", "+8");
  }

  @Test
  void forgetAllDropsEveryOwnerAndDoubleFreeIsABug() {
    PagePool pool = new PagePool(4 * 64, 64, listener);
    int[] p = pool.allocate(2);
    pool.writeSequence(p, 3, 128);
    pool.forgetAll();
    assertThat(pool.owner(0)).isEqualTo(PagePool.NONE);
    assertThat(events).containsExactly("+3", "+3", "-3", "-3");
    pool.release(p);
    assertThatThrownBy(() -> pool.release(p)).isInstanceOf(IllegalStateException.class);
  }
}
