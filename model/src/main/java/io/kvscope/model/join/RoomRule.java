package io.kvscope.model.join;

import io.kvscope.ingest.record.EngineEvent;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The bootstrap-room half of the prefill/decode join (SPEC "Joining"). In a prefill/decode
 * deployment each server makes its own rid: the gateway's response id names the decode rid, and the
 * only key the prefill server shares is the bootstrap room the router put into both requests. So a
 * request's events are those logged under its own rid, then, for each room those events name, the
 * events of the one other rid logged with that room (the prefill side) and the room's lines that
 * name no rid.
 *
 * <p>A room names one pair. When it names more rids (a room reused by warm-up or health-check
 * requests, two requests colliding, or a line forged with another request's room), the room is
 * ambiguous: it is counted, and every rid it names that no gateway record claims as its own request
 * is still joined, so that a forged line can add a conflict but never take a request's prefill side
 * away. A rid another request claims keeps its facts with that request. Nothing is joined by time.
 */
public final class RoomRule {

  /** Rooms one rid's events may name; a rid naming more is not joined through any (never seen). */
  public static final int MAX_ROOMS = 8;
  /** Rids one room may name besides the request's before it is no pair's at all (a reused constant room). */
  public static final int MAX_RIDS_PER_ROOM = 8;

  private RoomRule() {}

  /**
   * What one bootstrap room gives the request whose rid is {@code rid}.
   *
   * @param joins the rids whose events join the request: those the room names besides {@code rid}
   *     that no gateway record claims as its own request
   * @param ambiguous the room names more than one other rid, or a rid another request claims
   * @param rids the rids logged with the room, the request's own included (at most
   *     {@link #MAX_RIDS_PER_ROOM} + 2: a caller may stop there)
   * @param requests of the other rids, those another request claims (0 for a room of more than
   *     {@link #MAX_RIDS_PER_ROOM} others, which joins nothing whoever claims them)
   */
  public record Room(Set<String> joins, boolean ambiguous, int rids, int requests) {

    /**
     * Whether the room's lines that name no rid join the request: not when the room is ambiguous and
     * joins nothing, since they are then no more this request's than another's.
     */
    public boolean takesRidless() {
      return !ambiguous || !joins.isEmpty();
    }

    /** The room {@code room} as a finding names it, or null when it names one pair. */
    public Ambiguity ambiguity(long room) {
      return ambiguous ? new Ambiguity(room, rids, requests) : null;
    }
  }

  /**
   * A room that named no one pair, as a request's findings say it: the facts it gave are the ones
   * {@link #follow} joins, and the reader should know they were not one pair's word. A request with
   * several such rooms names the smallest ({@link #first}), so every join finds the same one.
   *
   * @param rids the rids logged with the room, the request's own included; {@code MAX_RIDS_PER_ROOM
   *     + 2} means that many or more
   * @param requests of the other rids, those another request claims as its own
   */
  public record Ambiguity(long room, int rids, int requests) {

    /** Of two rooms (either may be null), the one a request names: the smaller. */
    public static Ambiguity first(Ambiguity a, Ambiguity b) {
      return a == null || (b != null && b.room < a.room) ? b : a;
    }

    /** What a finding's evidence says of it: numbers only, never text of the logs. */
    public String describe() {
      if (rids >= MAX_RIDS_PER_ROOM + 2) {
        return "bootstrap_room " + room + " was logged with " + rids + " or more rids: no pair's, nothing joined through it";
      }
      return "bootstrap_room " + room + " was logged with " + rids + " rids (a pair has 2)"
          + (requests == 0 ? "" : ", " + requests + " of them another request's own (left with it)")
          + "; the rids no request claims were joined, so its engine facts may mix requests";
    }
  }

  /**
   * The rule over what the logs show about one room: {@code ridsAtRoom} every rid logged with it (a
   * caller may stop after {@link #MAX_RIDS_PER_ROOM} + 2 of them: more change nothing), and
   * {@code isRequest} whether a gateway record claims a rid as its own.
   */
  public static Room follow(String rid, Set<String> ridsAtRoom, Predicate<String> isRequest) {
    Set<String> others = new LinkedHashSet<>(ridsAtRoom);
    others.remove(rid);
    int rids = others.size() + 1;
    if (others.size() > MAX_RIDS_PER_ROOM) {
      return new Room(Set.of(), true, Math.min(rids, MAX_RIDS_PER_ROOM + 2), 0);
    }
    Set<String> joins = new LinkedHashSet<>();
    for (String other : others) {
      if (!isRequest.test(other)) {
        joins.add(other);
      }
    }
    return new Room(joins, others.size() > 1 || joins.size() < others.size(), rids, others.size() - joins.size());
  }

  /** The rooms a request's own events name, in first-seen order; none when they name more than {@link #MAX_ROOMS}. */
  public static Set<Long> roomsOf(List<EngineEvent> own) {
    Set<Long> rooms = new LinkedHashSet<>();
    for (EngineEvent e : own) {
      if (e.bootstrapRoom() != null) {
        rooms.add(e.bootstrapRoom());
      }
    }
    return rooms.size() > MAX_ROOMS ? Set.of() : rooms;
  }
}
