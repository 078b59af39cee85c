package io.kvscope.gui.data;

import io.kvscope.model.join.EngineFacts;
import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.RequestRecord;

/** A request document read back from the index: the canonical record and the engine facts joined onto it. */
public record StoredRequest(RequestRecord record, EngineFacts facts) {

  /** The stored text of {@code field} ({@code prompt_text} or {@code response_text}), or null. */
  public String text(String field) {
    return CanonicalField.byColumn(field).filter(f -> f.type() == CanonicalField.Type.TEXT)
        .map(f -> (String) f.get(record)).orElse(null);
  }
}
