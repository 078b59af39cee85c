package io.kvscope.ingest.engine;

import java.util.List;

/** What a line reader made of one line. */
public sealed interface LineResult {

  /** Not a kind this reader knows: counted as skipped. */
  LineResult UNKNOWN = new Unknown();

  /** A known kind that yields no record of its own (it still counts toward activity). */
  LineResult KNOWN = new Known();

  record Unknown() implements LineResult {}

  record Known() implements LineResult {}

  /** Events to emit, in order. */
  record Events(List<EventBuilder> events) implements LineResult {
    public Events {
      events = List.copyOf(events);
    }
  }

  /** A known kind that could not be read; {@code reason} describes the problem, never the text. */
  record Malformed(String reason) implements LineResult {}

  static LineResult of(EventBuilder event) {
    return new Events(List.of(event));
  }

  static LineResult of(List<EventBuilder> events) {
    return new Events(events);
  }

  static LineResult malformed(String reason) {
    return new Malformed(reason);
  }
}
