package io.kvscope.model.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StableSampleTest {

  @Test
  void theSampleIsTheSameWhateverOrderTheItemsArriveIn() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      ids.add("chatcmpl-" + i);
    }
    List<String> shuffled = new ArrayList<>(ids);
    Collections.shuffle(shuffled, new Random(7));

    assertThat(sample(shuffled, 100)).isEqualTo(sample(ids, 100)).hasSize(100);
  }

  @Test
  void aSampleOfAFewKeepsEveryItem() {
    assertThat(sample(List.of("b", "a", "c"), 10)).containsExactlyInAnyOrder("a", "b", "c");
  }

  @Test
  void theSampleIsSpreadOverTheWholeRangeNotItsBeginning() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      ids.add("req-" + i);
    }
    List<String> kept = sample(ids, 200);
    long fromLaterHalf = kept.stream().filter(id -> Integer.parseInt(id.substring(4)) >= 5_000).count();

    assertThat(fromLaterHalf).isBetween(60L, 140L);
  }

  @Test
  void requestsAreOrderedByStartThenIdWithUnknownStartsFirst() {
    List<RequestOrder> orders = new ArrayList<>(List.of(RequestOrder.of(20L, "a"), RequestOrder.of(10L, "z"),
        RequestOrder.of(null, "m"), RequestOrder.of(10L, "b")));
    Collections.sort(orders);

    assertThat(orders).extracting(RequestOrder::requestId).containsExactly("m", "b", "z", "a");
  }

  private static List<String> sample(List<String> ids, int size) {
    StableSample<String> sample = new StableSample<>(size);
    ids.forEach(id -> sample.offer(id, id));
    assertThat(sample.offered()).isEqualTo(ids.size());
    return sample.values();
  }
}
