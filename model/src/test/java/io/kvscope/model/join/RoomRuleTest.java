package io.kvscope.model.join;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The bootstrap-room rule ({@link RoomRule#follow}) on what the logs can show about one room. */
class RoomRuleTest {

  private static final Set<String> REQUESTS = Set.of("decode-1", "decode-2");

  @Test
  void aPairJoinsItsPrefillRid() {
    assertThat(RoomRule.follow("decode-1", Set.of("decode-1", "prefill-1"), REQUESTS::contains))
        .isEqualTo(new RoomRule.Room(Set.of("prefill-1"), false));
  }

  @Test
  void aForgedRidOnTheRoomMakesItAmbiguousButTakesNothingAway() {
    assertThat(RoomRule.follow("decode-1", Set.of("decode-1", "prefill-1", "forged"), REQUESTS::contains))
        .isEqualTo(new RoomRule.Room(Set.of("prefill-1", "forged"), true));
  }

  @Test
  void anotherRequestsRidOnTheRoomStaysWithThatRequest() {
    RoomRule.Room room = RoomRule.follow("decode-1", Set.of("decode-1", "prefill-1", "decode-2"),
        REQUESTS::contains);
    assertThat(room).isEqualTo(new RoomRule.Room(Set.of("prefill-1"), true));
    assertThat(RoomRule.follow("decode-2", Set.of("decode-1", "decode-2"), REQUESTS::contains))
        .as("two requests colliding on one room: neither takes the other's facts")
        .isEqualTo(new RoomRule.Room(Set.of(), true));
  }

  @Test
  void aRoomOfManyRidsIsNoPairsAtAll() {
    Set<String> many = new HashSet<>(Set.of("decode-1"));
    for (int i = 0; i <= RoomRule.MAX_RIDS_PER_ROOM; i++) {
      many.add("warmup-" + i);
    }
    assertThat(RoomRule.follow("decode-1", many, REQUESTS::contains)).isEqualTo(new RoomRule.Room(Set.of(), true));
  }

  @Test
  void aRoomsLinesWithoutRidGoWithItUnlessItIsAmbiguousAndJoinsNothing() {
    assertThat(RoomRule.follow("decode-1", Set.of("decode-1", "prefill-1"), REQUESTS::contains).takesRidless()).isTrue();
    assertThat(RoomRule.follow("decode-1", Set.of("decode-1", "prefill-1", "forged"), REQUESTS::contains).takesRidless())
        .isTrue();
    assertThat(RoomRule.follow("decode-2", Set.of("decode-1", "decode-2"), REQUESTS::contains).takesRidless()).isFalse();
  }

  @Test
  void anyTenOfACrowdedRoomsRidsDecideAsAllOfThemDo() {
    List<String> rids = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      rids.add("warmup-" + i);
    }
    rids.add(5, "decode-1");
    Predicate<String> isRequest = REQUESTS::contains;
    RoomRule.Room all = RoomRule.follow("decode-1", new LinkedHashSet<>(rids), isRequest);
    for (int from = 0; from + RoomRule.MAX_RIDS_PER_ROOM + 2 <= rids.size(); from++) {
      Set<String> first = new LinkedHashSet<>(rids.subList(from, from + RoomRule.MAX_RIDS_PER_ROOM + 2));
      assertThat(RoomRule.follow("decode-1", first, isRequest)).as("from %d", from).isEqualTo(all);
    }
  }
}
