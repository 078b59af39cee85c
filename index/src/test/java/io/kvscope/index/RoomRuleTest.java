package io.kvscope.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The bootstrap-room rule ({@link RequestEvents#follow}) on what an index can show about one room. */
class RoomRuleTest {

  private static final Set<String> REQUESTS = Set.of("decode-1", "decode-2");

  @Test
  void aPairJoinsItsPrefillRid() {
    assertThat(RequestEvents.follow("decode-1", Set.of("decode-1", "prefill-1"), REQUESTS::contains))
        .isEqualTo(new RequestEvents.Room(Set.of("prefill-1"), false));
  }

  @Test
  void aForgedRidOnTheRoomMakesItAmbiguousButTakesNothingAway() {
    assertThat(RequestEvents.follow("decode-1", Set.of("decode-1", "prefill-1", "forged"), REQUESTS::contains))
        .isEqualTo(new RequestEvents.Room(Set.of("prefill-1", "forged"), true));
  }

  @Test
  void anotherRequestsRidOnTheRoomStaysWithThatRequest() {
    RequestEvents.Room room = RequestEvents.follow("decode-1", Set.of("decode-1", "prefill-1", "decode-2"),
        REQUESTS::contains);
    assertThat(room).isEqualTo(new RequestEvents.Room(Set.of("prefill-1"), true));
    assertThat(RequestEvents.follow("decode-2", Set.of("decode-1", "decode-2"), REQUESTS::contains))
        .as("two requests colliding on one room: neither takes the other's facts")
        .isEqualTo(new RequestEvents.Room(Set.of(), true));
  }

  @Test
  void aRoomOfManyRidsIsNoPairsAtAll() {
    Set<String> many = new java.util.HashSet<>(Set.of("decode-1"));
    for (int i = 0; i <= RequestEvents.MAX_RIDS_PER_ROOM; i++) {
      many.add("warmup-" + i);
    }
    assertThat(RequestEvents.follow("decode-1", many, REQUESTS::contains)).isEqualTo(new RequestEvents.Room(Set.of(), true));
  }
}
