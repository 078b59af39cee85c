package io.kvscope.index.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WrittenIdsTest {

  @Test
  void anIdIsNewOnlyTheFirstTimeThroughEveryGrowth() {
    WrittenIds ids = new WrittenIds();
    int count = 200_000; // the table starts at 4,096 slots: many growths
    int firstTimesNew = 0;
    for (int i = 0; i < count; i++) {
      if (ids.addIfNew("e:node-" + (i % 7) + ":" + Integer.toHexString(i * 31))) {
        firstTimesNew++;
      }
    }
    assertThat(firstTimesNew).as("no two of these ids share a 64-bit hash").isEqualTo(count);
    for (int i = 0; i < count; i++) {
      assertThat(ids.addIfNew("e:node-" + (i % 7) + ":" + Integer.toHexString(i * 31))).as("id %d again", i).isFalse();
    }
  }
}
