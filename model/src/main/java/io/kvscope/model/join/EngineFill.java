package io.kvscope.model.join;

import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Who wins when a request's record and its engine's lines both speak: the engine fills the nodes,
 * room and cached tokens only where the gateway said nothing, and its prefilled length wins (it
 * is what the engine really did). A linked record remembers which fields the engine filled, so a
 * later link can start again from the gateway's own values.
 */
public final class EngineFill {

  private EngineFill() {}

  /** The record fields a link may fill from the engine logs, by canonical column: what a re-link must undo. */
  private enum Fillable {
    PREFILL_NODE(CanonicalField.PREFILL_NODE, RequestRecord::prefillNode, b -> b.prefillNode(null)),
    DECODE_NODE(CanonicalField.DECODE_NODE, RequestRecord::decodeNode, b -> b.decodeNode(null)),
    BOOTSTRAP_ROOM(CanonicalField.BOOTSTRAP_ROOM, RequestRecord::bootstrapRoom, b -> b.bootstrapRoom(null)),
    ENGINE_INPUT_LEN(CanonicalField.ENGINE_INPUT_LEN, RequestRecord::engineInputLen, b -> b.engineInputLen(null)),
    CACHED_TOKENS(CanonicalField.CACHED_TOKENS, RequestRecord::cachedTokens, b -> b.cachedTokens(null));

    final String column;
    final Function<RequestRecord, Object> value;
    final Consumer<RequestRecord.Builder> clear;

    Fillable(CanonicalField field, Function<RequestRecord, Object> value, Consumer<RequestRecord.Builder> clear) {
      this.column = field.column();
      this.value = value;
      this.clear = clear;
    }
  }

  /** The record with the engine's word on nodes and lengths, where the gateway had none. */
  public static RequestRecord onto(RequestRecord r, EngineFacts f) {
    return r.toBuilder()
        .prefillNode(r.prefillNode() != null ? r.prefillNode() : f.prefillNode())
        .decodeNode(r.decodeNode() != null ? r.decodeNode() : f.decodeNode())
        .bootstrapRoom(r.bootstrapRoom() != null ? r.bootstrapRoom() : f.bootstrapRoom())
        .engineInputLen(f.engineInputLen() != null ? f.engineInputLen() : r.engineInputLen())
        .cachedTokens(r.cachedTokens() != null ? r.cachedTokens() : f.cachedTokens())
        .build();
  }

  /** The columns {@code linked} ({@link #onto} of {@code original}) has where the gateway had none. */
  public static List<String> filled(RequestRecord original, RequestRecord linked) {
    List<String> filled = new ArrayList<>(Fillable.values().length);
    for (Fillable field : Fillable.values()) {
      if (field.value.apply(original) == null && field.value.apply(linked) != null) {
        filled.add(field.column);
      }
    }
    return filled;
  }

  /** {@code r} without the fields an earlier link filled ({@link #filled}). */
  public static RequestRecord undo(RequestRecord r, Set<String> filled) {
    if (filled.isEmpty()) {
      return r;
    }
    RequestRecord.Builder b = r.toBuilder();
    for (Fillable field : Fillable.values()) {
      if (filled.contains(field.column)) {
        field.clear.accept(b);
      }
    }
    return b.build();
  }
}
