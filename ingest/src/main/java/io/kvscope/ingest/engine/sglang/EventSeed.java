package io.kvscope.ingest.engine.sglang;

import io.kvscope.ingest.engine.EventBuilder;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeRole;

/** Where and when a line was written: what every event from it shares. */
record EventSeed(String node, NodeRole role, long time, String sourceFile, long sourceLine) {

  EventBuilder event(EngineEvent.Kind kind) {
    return EventBuilder.of(kind, node, role, time, sourceFile, sourceLine);
  }

  EventSeed at(long otherTime) {
    return new EventSeed(node, role, otherTime, sourceFile, sourceLine);
  }

  EventSeed as(NodeRole otherRole) {
    return new EventSeed(node, otherRole, time, sourceFile, sourceLine);
  }
}
