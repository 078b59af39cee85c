package io.kvscope.index.join;

import java.util.List;

/**
 * How gateway records and engine logs joined: by rid, and on the prefill side through the
 * bootstrap room (see {@link RequestEvents}).
 *
 * @param requests request documents in the index
 * @param joined requests with at least one engine event
 * @param gatewayOnly requests with no engine event (no rid, or no engine log for it)
 * @param byRole how each side of the engines joined, and the engine rids no request claimed per role
 * @param engineOnlyRids engine rids that no request claimed, neither by rid nor through a room
 * @param ambiguousRooms requests with a bootstrap room that could not be followed (the room names
 *     several other rids, or a rid another gateway record claims)
 */
public record LinkSummary(long requests, long joined, long gatewayOnly, List<String> gatewayOnlySample,
    RoleJoin byRole, long engineOnlyRids, List<String> engineOnlySample, long ambiguousRooms, long rewritten) {

  public LinkSummary {
    gatewayOnlySample = List.copyOf(gatewayOnlySample);
    engineOnlySample = List.copyOf(engineOnlySample);
  }

  /** Share of requests joined to engine logs, 0..1 (1 when there are no requests). */
  public double joinRate() {
    return requests == 0 ? 1.0 : (double) joined / requests;
  }
}
