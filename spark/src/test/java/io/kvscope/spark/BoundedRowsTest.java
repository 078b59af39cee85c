package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A push parser's rows pulled by a task: all of them in order, never more than the queue ahead. */
class BoundedRowsTest {

  @Test
  void everyRowComesInTheOrderMadeAndTheParserNeverRunsFarAhead() {
    int capacity = 8;
    AtomicInteger made = new AtomicInteger();
    Iterator<Integer> rows = BoundedRows.of(capacity, sink -> {
      for (int i = 0; i < 10_000; i++) {
        sink.accept(i);
        made.incrementAndGet();
      }
    });
    List<Integer> read = new ArrayList<>();
    int furthestAhead = 0;
    while (rows.hasNext()) {
      read.add(rows.next());
      furthestAhead = Math.max(furthestAhead, made.get() - read.size());
    }
    assertThat(read).containsExactlyElementsOf(IntStream.range(0, 10_000).boxed().toList());
    // The queue's rows, and the one the reader holds between hasNext and next.
    assertThat(furthestAhead).isLessThanOrEqualTo(capacity + 1);
  }

  @Test
  void aFailureOfTheParserReachesTheTaskAfterTheRowsBeforeIt() {
    Iterator<String> rows = BoundedRows.of(4, sink -> {
      sink.accept("a");
      sink.accept("b");
      throw new IllegalStateException("the parser failed");
    });
    assertThat(rows.next()).isEqualTo("a");
    assertThat(rows.next()).isEqualTo("b");
    assertThatThrownBy(rows::hasNext).isInstanceOf(IllegalStateException.class).hasMessage("the parser failed");
  }

  @Test
  void aTaskThatStopsReadingEndsTheParser() throws InterruptedException {
    CountDownLatch ended = new CountDownLatch(1);
    AtomicInteger made = new AtomicInteger();
    BoundedRows<Integer> rows = (BoundedRows<Integer>) BoundedRows.<Integer>of(4, sink -> {
      try {
        for (int i = 0; ; i++) {
          sink.accept(i);
          made.incrementAndGet();
        }
      } finally {
        ended.countDown();
      }
    });
    assertThat(rows.next()).isZero();
    rows.stop();
    assertThat(ended.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(made.get()).isLessThan(100);
  }
}
