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
 * <p>A room names one pair. When it names more rids (a room reused by warm-up or health-check
 * requests, two requests colliding, or a line forged with another request's room), the room is
 * ambiguous: it is counted, and every rid it names that no gateway record claims as its own request
 * is still joined, so that a forged line can add a conflict but never take a request's prefill side
 * away ({@link #follow}). A rid another request claims keeps its facts with that request. Nothing
 * is joined by time. Memory holds one request's events.
 */
final class RequestEvents {

  /** Rooms one rid's events may name; a rid naming more is not joined through any (never seen). */
  static final int MAX_ROOMS = 8;
  /** Rids one room may name before it is no pair's at all (a reused constant room): beyond, nothing is joined. */
  static final int MAX_RIDS_PER_ROOM = 8;

  /**
   * What one bootstrap room gives the request whose rid is {@code rid}.
   *
   * @param joins the rids whose events join the request: those the room names besides {@code rid}
   *     that no gateway record claims as its own request
   * @param ambiguous the room names more than one other rid, or a rid another request claims
   */
  record Room(Set<String> joins, boolean ambiguous) {}

  /**
   * The room rule, over what the index shows about one room: {@code ridsAtRoom} every rid logged
   * with it (at most {@link #MAX_RIDS_PER_ROOM} + 1), {@code isRequest} whether a gateway record
   * claims a rid as its own. Pure, so it can be applied wherever a request's events are gathered.
   */
  static Room follow(String rid, Set<String> ridsAtRoom, java.util.function.Predicate<String> isRequest) {
    Set<String> others = new LinkedHashSet<>(ridsAtRoom);
    others.remove(rid);
    if (others.size() > MAX_RIDS_PER_ROOM) {
      return new Room(Set.of(), true);
    }
    Set<String> joins = new LinkedHashSet<>();
    for (String other : others) {
      if (!isRequest.test(other)) {
        joins.add(other);
      }
    }
    return new Room(joins, others.size() > 1 || joins.size() < others.size());
  }

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
      Room followed = follow(rid, lookup.ridsAt(room, MAX_RIDS_PER_ROOM + 1, ridless), lookup::hasRequest);
      if (followed.ambiguous()) {
        ambiguous++;
      }
      for (String other : followed.joins()) {
        if (joined.add(other)) {
          byRoom.addAll(lookup.eventsOf(other));
        }
      }
      if (followed.ambiguous() && followed.joins().isEmpty()) {
        continue; // the room's rid-less lines are no more this request's than the other's
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
      Set<String> rids = lookup.ridsAt(room, MAX_RIDS_PER_ROOM + 1, new ArrayList<>());
      for (String other : rids) {
        // the mirror: a request logged with this room joins this rid when follow() says so
        if (!other.equals(rid) && lookup.hasRequest(other) && follow(other, rids, lookup::hasRequest).joins().contains(rid)) {
          return true;
        }
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
