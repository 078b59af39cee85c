package io.kvscope.ingest;

/**
 * The join key between a gateway record and engine log lines (SPEC "Joining"): the engine's
 * {@code rid} is the gateway's response id without the OpenAI-style {@code chatcmpl-} prefix.
 */
public final class EngineRids {

  private static final String CHAT_COMPLETION_PREFIX = "chatcmpl-";

  private EngineRids() {}

  /** The engine rid for a response id, or {@code null} for a missing or blank id. */
  public static String fromResponseId(String responseId) {
    if (responseId == null) {
      return null;
    }
    String id = responseId.strip();
    if (id.startsWith(CHAT_COMPLETION_PREFIX)) {
      id = id.substring(CHAT_COMPLETION_PREFIX.length());
    }
    return id.isEmpty() ? null : id;
  }
}
