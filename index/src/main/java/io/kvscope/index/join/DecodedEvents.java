package io.kvscope.index.join;

import io.kvscope.ingest.record.EngineEvent;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SegmentReader;

/**
 * The engine events decoded from each segment of one index, kept for a later reader of the same
 * index: the join at write decodes every event once, and the {@link Linker}'s reader, opened after
 * the gateway files, holds the same engine-log segments (merges permitting), whose documents cannot
 * have changed, only which of them are deleted. A segment is known by its name and its unique id.
 * Not thread-safe: the decoding runs on one thread.
 */
public final class DecodedEvents {

  /** Per segment, its engine events by document number (null for other documents and deleted events). */
  private final Map<String, EngineEvent[]> bySegment = new HashMap<>();

  /** The events decoded from {@code leaf}'s segment before, or null when it was not decoded. */
  EngineEvent[] of(LeafReader leaf) {
    String key = keyOf(leaf);
    return key == null ? null : bySegment.get(key);
  }

  void put(LeafReader leaf, EngineEvent[] events) {
    String key = keyOf(leaf);
    if (key != null) {
      bySegment.put(key, events);
    }
  }

  /** Segments held. */
  int segments() {
    return bySegment.size();
  }

  private static String keyOf(LeafReader leaf) {
    if (FilterLeafReader.unwrap(leaf) instanceof SegmentReader segment) {
      return segment.getSegmentName() + ":" + HexFormat.of().formatHex(segment.getSegmentInfo().info.getId());
    }
    return null;
  }
}
