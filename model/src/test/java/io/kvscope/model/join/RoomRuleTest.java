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
        .isEqualTo(new RoomRule.Room(Set.of("prefill-1"), false, 2, 0));
  }

  @Test
  void aForgedRidOnTheRoomMakesItAmbiguousButTakesNothingAway() {
    assertThat(RoomRule.follow("decode-1", Set.of("decode-1", "prefill-1", "forged"), REQUESTS::contains))
        .isEqualTo(new RoomRule.Room(Set.of("prefill-1", "forged"), true, 3, 0));
  }

  @Test
  void anotherRequestsRidOnTheRoomStaysWithThatRequest() {
    RoomRule.Room room = RoomRule.follow("decode-1", Set.of("decode-1", "prefill-1", "decode-2"),
        REQUESTS::contains);
    assertThat(room).isEqualTo(new RoomRule.Room(Set.of("prefill-1"), true, 3, 1));
    assertThat(RoomRule.follow("decode-2", Set.of("decode-1", "decode-2"), REQUESTS::contains))
        .as("two requests colliding on one room: neither takes the other's facts")
        .isEqualTo(new RoomRule.Room(Set.of(), true, 2, 1));
  }

  @Test
  void aRoomOfManyRidsIsNoPairsAtAll() {
    Set<String> many = new HashSet<>(Set.of("decode-1"));
    for (int i = 0; i <= RoomRule.MAX_RIDS_PER_ROOM; i++) {
      many.add("warmup-" + i);
    }
    assertThat(RoomRule.follow("decode-1", many, REQUESTS::contains))
        .isEqualTo(new RoomRule.Room(Set.of(), true, RoomRule.MAX_RIDS_PER_ROOM + 2, 0));
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

  @Test
  void anAmbiguousRoomIsNamedWithItsCountsAndAPairIsNot() {
    assertThat(RoomRule.follow("decode-1", Set.of("decode-1", "prefill-1"), REQUESTS::contains).ambiguity(7)).isNull();
    RoomRule.Ambiguity forged = RoomRule.follow("decode-1", Set.of("decode-1", "prefill-1", "decode-2", "forged"),
        REQUESTS::contains).ambiguity(7);
    assertThat(forged).isEqualTo(new RoomRule.Ambiguity(7, 4, 1));
    assertThat(forged.describe()).isEqualTo("bootstrap_room 7 was logged with 4 rids (a pair has 2), 1 of them another"
        + " request's own (left with it); the rids no request claims were joined, so its engine facts may mix requests");
    Set<String> many = new HashSet<>(Set.of("decode-1"));
    for (int i = 0; i < 30; i++) {
      many.add("warmup-" + i);
    }
    assertThat(RoomRule.follow("decode-1", many, REQUESTS::contains).ambiguity(9).describe())
        .isEqualTo("bootstrap_room 9 was logged with 10 or more rids: no pair's, nothing joined through it");
  }

  @Test
  void ofSeveralAmbiguousRoomsTheSmallestIsNamedWhateverTheOrder() {
    RoomRule.Ambiguity small = new RoomRule.Ambiguity(3, 3, 0);
    RoomRule.Ambiguity large = new RoomRule.Ambiguity(40, 5, 1);
    assertThat(RoomRule.Ambiguity.first(small, large)).isSameAs(small);
    assertThat(RoomRule.Ambiguity.first(large, small)).isSameAs(small);
    assertThat(RoomRule.Ambiguity.first(null, large)).isSameAs(large);
    assertThat(RoomRule.Ambiguity.first(large, null)).isSameAs(large);
    assertThat(RoomRule.Ambiguity.first(null, null)).isNull();
  }
}
