package io.kvscope.index;

import io.kvscope.ingest.record.EngineEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which engine events belong to a request (SPEC "Joining"). In a prefill/decode deployment each
 * server makes its own rid: the gateway's response id names the decode rid, and the only key the
 * prefill server shares is the bootstrap room the router put into both requests. So a request's
 * events are those logged under its own rid (the decode side, and both sides where the deployment
 * passes one rid to both), then, for each room those events name, the events of the one other rid
 * logged with that room (the prefill side, including its lines that name only the rid, such as the
 * over-length rejection) and the room's lines that name no rid.
 *
 * <p>A room joins only when it is unambiguous: it names exactly one rid besides the request's own,
 * and no gateway record claims that rid as its own request. Anything else (a room reused by warm-up
 * or health-check requests, two requests colliding) is counted and left unjoined, never guessed.
 * Nothing is joined by time. Memory holds one request's events.
 */
final class RequestEvents {

  /** Rooms one rid's events may name; a rid naming more is not joined through any (never seen). */
  static final int MAX_ROOMS = 8;

  /**
   * A request's events.
   *
   * @param own logged under the request's own rid
   * @param byRoom logged under the other rid its bootstrap room names, or with the room and no rid
   * @param ambiguousRooms rooms that could not be followed (several rids, or a rid another record claims)
   */
  record Joined(List<EngineEvent> own, List<EngineEvent> byRoom, int ambiguousRooms) {

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
    for (long room : rooms(own)) {
      List<EngineEvent> ridless = new ArrayList<>();
      Set<String> others = lookup.ridsAt(room, 2, ridless);
      others.remove(rid);
      if (others.size() > 1) {
        ambiguous++;
        continue;
      }
      if (others.size() == 1) {
        String other = others.iterator().next();
        if (lookup.hasRequest(other)) {
          ambiguous++;
          continue;
        }
        if (joined.add(other)) {
          byRoom.addAll(lookup.eventsOf(other));
        }
      }
      byRoom.addAll(ridless);
    }
    return new Joined(own, byRoom, ambiguous);
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
    for (long room : rooms.size() > MAX_ROOMS ? Set.<Long>of() : rooms) {
      Set<String> others = lookup.ridsAt(room, 2, new ArrayList<>());
      others.remove(rid);
      if (others.size() == 1 && lookup.hasRequest(others.iterator().next())) {
        return true;
      }
    }
    return false;
  }

  private static Set<Long> rooms(List<EngineEvent> events) {
    Set<Long> rooms = new LinkedHashSet<>();
    for (EngineEvent e : events) {
      if (e.bootstrapRoom() != null) {
        rooms.add(e.bootstrapRoom());
      }
    }
    return rooms.size() > MAX_ROOMS ? Set.of() : rooms;
  }
}
