package io.kvscope.gui.data;

import io.kvscope.index.EngineFacts;
import io.kvscope.ingest.record.RequestRecord;

/** A request document read back from the index: the canonical record and the engine facts joined onto it. */
public record StoredRequest(RequestRecord record, EngineFacts facts) {

  /** The stored text of {@code field} ({@code prompt_text} or {@code response_text}), or null. */
  public String text(String field) {
    return switch (field) {
      case io.kvscope.index.Schema.PROMPT_TEXT -> record.promptText();
      case io.kvscope.index.Schema.RESPONSE_TEXT -> record.responseText();
      default -> null;
    };
  }
}
