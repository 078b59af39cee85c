package io.kvscope.index.join;

import io.kvscope.model.join.EngineFacts;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.model.join.RoomRule;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which engine events belong to a request: those logged under its own rid, then those the
 * bootstrap-room rule ({@link RoomRule}) joins through the rooms they name, gathered from the index.
 * Memory holds one request's events.
 */
final class RequestEvents {

  /**
   * A request's events.
   *
   * @param own logged under the request's own rid
   * @param byRoom logged under the other rid its bootstrap room names, or with the room and no rid
   * @param ambiguousRooms rooms that could not be followed (several rids, or a rid another record claims)
   * @param ambiguity the one of them the request's findings name, or null
   */
  record Joined(List<EngineEvent> own, List<EngineEvent> byRoom, int ambiguousRooms, RoomRule.Ambiguity ambiguity) {

    /** The request's facts, folded against {@code epochs}. */
    EngineFacts facts(EngineFacts.EpochLookup epochs) {
      return EngineFacts.fold(all(), ambiguity, epochs);
    }

    List<EngineEvent> all() {
      if (byRoom.isEmpty()) {
        return own;
      }
      List<EngineEvent> all = new ArrayList<>(own.size() + byRoom.size());
      all.addAll(own);
      all.addAll(byRoom);
      return all;
    }
  }

  private final EngineEventLookup lookup;

  RequestEvents(EngineEventLookup lookup) {
    this.lookup = lookup;
  }

  /** The events of the request whose rid is {@code rid}; {@code own} are those logged under it. */
  Joined of(String rid, List<EngineEvent> own) {
    List<EngineEvent> byRoom = new ArrayList<>();
    Set<String> joined = new HashSet<>();
    int ambiguous = 0;
    RoomRule.Ambiguity named = null;
    for (long room : RoomRule.roomsOf(own)) {
      List<EngineEvent> ridless = new ArrayList<>();
      RoomRule.Room followed =
          RoomRule.follow(rid, lookup.ridsAt(room, RoomRule.MAX_RIDS_PER_ROOM + 1, ridless), lookup::hasRequest);
      if (followed.ambiguous()) {
        ambiguous++;
        named = RoomRule.Ambiguity.first(named, followed.ambiguity(room));
      }
      for (String other : followed.joins()) {
        if (joined.add(other)) {
          byRoom.addAll(lookup.eventsOf(other));
        }
      }
      if (followed.takesRidless()) {
        byRoom.addAll(ridless);
      }
    }
    return new Joined(own, byRoom, ambiguous, named);
  }

  /** The events of the request whose rid is {@code rid}, looked up. */
  Joined of(String rid) {
    return of(rid, lookup.eventsOf(rid));
  }

  /**
   * Whether the events of {@code rid}, a rid no gateway record names, belong to a request through a
   * room: the mirror of {@link #of}, so that what one request joins is never also reported
   * unmatched. Reads doc values only.
   */
  boolean claimedThroughRoom(String rid) {
    Set<Long> rooms = lookup.roomsOf(rid);
    for (long room : rooms.size() > RoomRule.MAX_ROOMS ? Set.<Long>of() : rooms) {
      Set<String> rids = lookup.ridsAt(room, RoomRule.MAX_RIDS_PER_ROOM + 1, new ArrayList<>());
      for (String other : rids) {
        // the mirror: a request logged with this room joins this rid when follow() says so
        if (!other.equals(rid) && lookup.hasRequest(other) && RoomRule.follow(other, rids, lookup::hasRequest).joins().contains(rid)) {
          return true;
        }
      }
    }
    return false;
  }
}
