package io.kvscope.index.join;

import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeRole;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * How each side of the engines joined the gateway's requests (counts of requests, a request counted
 * once per side it reached): decode events under the gateway's rid, prefill events under that same
 * rid (a deployment that passes one rid to both) or through the bootstrap room, unified events under
 * the rid; and, per role, the engine rids that no request claimed, with a sample of each.
 */
public record RoleJoin(long decodeByRid, long prefillByRid, long prefillByRoom, long unifiedByRid,
    Map<NodeRole, Long> unmatchedRids, Map<NodeRole, List<String>> unmatchedSample) {

  static final int SAMPLE = 10;

  public RoleJoin {
    Map<NodeRole, Long> counts = new EnumMap<>(NodeRole.class);
    counts.putAll(unmatchedRids);
    unmatchedRids = Collections.unmodifiableMap(counts);
    Map<NodeRole, List<String>> samples = new EnumMap<>(NodeRole.class);
    unmatchedSample.forEach((role, list) -> samples.put(role, List.copyOf(list)));
    unmatchedSample = Collections.unmodifiableMap(samples);
  }

  public static RoleJoin none() {
    return new RoleJoin(0, 0, 0, 0, Map.of(), Map.of());
  }

  /** Counts while the linker walks the rids. */
  static final class Counter {
    private long decodeByRid;
    private long prefillByRid;
    private long prefillByRoom;
    private long unifiedByRid;
    private final Map<NodeRole, Long> unmatched = new EnumMap<>(NodeRole.class);
    private final Map<NodeRole, List<String>> samples = new EnumMap<>(NodeRole.class);

    /** One request and the events joined to it. */
    void joined(RequestEvents.Joined events) {
      if (has(events.own(), NodeRole.DECODE)) {
        decodeByRid++;
      }
      if (has(events.own(), NodeRole.PREFILL)) {
        prefillByRid++;
      } else if (has(events.byRoom(), NodeRole.PREFILL)) {
        prefillByRoom++;
      }
      if (has(events.own(), NodeRole.UNIFIED)) {
        unifiedByRid++;
      }
    }

    /** An engine rid that no request claimed, by the role of its first event. */
    void unmatched(String rid, List<EngineEvent> events) {
      NodeRole role = events.isEmpty() ? NodeRole.UNKNOWN : events.get(0).role();
      unmatched.merge(role, 1L, Long::sum);
      List<String> sample = samples.computeIfAbsent(role, r -> new ArrayList<>());
      if (sample.size() < SAMPLE) {
        sample.add(rid);
      }
    }

    RoleJoin result() {
      return new RoleJoin(decodeByRid, prefillByRid, prefillByRoom, unifiedByRid, unmatched, samples);
    }

    private static boolean has(List<EngineEvent> events, NodeRole role) {
      for (EngineEvent e : events) {
        if (e.role() == role) {
          return true;
        }
      }
      return false;
    }
  }
}
