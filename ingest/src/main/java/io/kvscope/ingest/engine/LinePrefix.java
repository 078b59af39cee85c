package io.kvscope.ingest.engine;

/**
 * What an engine reader made of the prefix its engine writes before each message. A line without a
 * prefix (a continuation, a traceback line) has none at all: {@link EngineLogReader#prefix} returns
 * {@code null} for it.
 */
public sealed interface LinePrefix {

  /** A prefix with a real time (UTC epoch ms); the message starts at {@code messageStart}. */
  record Timed(long time, int messageStart) implements LinePrefix {}

  /**
   * The prefix's shape with a date or time that cannot be real. The line is reported with
   * {@code reason} and not read: a message under an impossible time would get a wrong one.
   */
  record Impossible(String reason) implements LinePrefix {}
}
