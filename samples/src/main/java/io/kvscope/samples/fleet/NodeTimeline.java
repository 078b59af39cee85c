package io.kvscope.samples.fleet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A node and its epochs in time order. */
public final class NodeTimeline {

  /** A node stops taking new requests this long before a planned restart (drain). */
  public static final long DRAIN_MS = 5 * 60_000L;

  private final NodeSpec node;
  private final List<Epoch> epochs = new ArrayList<>();

  NodeTimeline(NodeSpec node) {
    this.node = node;
  }

  void add(Epoch e) {
    if (!epochs.isEmpty() && epochs.getLast().start() >= e.start()) {
      throw new IllegalStateException("epochs of " + node.name() + " out of order");
    }
    epochs.add(e);
  }

  public NodeSpec node() {
    return node;
  }

  public List<Epoch> epochs() {
    return Collections.unmodifiableList(epochs);
  }

  /** The epoch in force at true time {@code t} (the first one before the node ever started). */
  public Epoch at(long t) {
    Epoch current = epochs.getFirst();
    for (Epoch e : epochs) {
      if (e.start() <= t) {
        current = e;
      } else {
        break;
      }
    }
    return current;
  }

  /** True when the node is up and not draining at {@code t}. */
  public boolean accepting(long t) {
    for (int i = 0; i < epochs.size(); i++) {
      Epoch e = epochs.get(i);
      long drainFrom = i + 1 < epochs.size() ? epochs.get(i + 1).start() - DRAIN_MS : Long.MAX_VALUE;
      if (t >= e.readyAt() && t < drainFrom) {
        return true;
      }
    }
    return false;
  }

  /** True when the process is up (serving or draining) at {@code t}. */
  public boolean running(long t) {
    for (int i = 0; i < epochs.size(); i++) {
      Epoch e = epochs.get(i);
      long end = i + 1 < epochs.size() ? epochs.get(i + 1).start() : Long.MAX_VALUE;
      if (t >= e.start() && t < end) {
        return true;
      }
    }
    return false;
  }
}
