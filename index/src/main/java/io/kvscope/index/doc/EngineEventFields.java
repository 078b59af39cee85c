package io.kvscope.index.doc;

import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeRole;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.StoredFieldVisitor;

/**
 * An engine event read back from its stored fields in one pass, each value put in its slot by the
 * field's name (the first value of a field wins, as {@link Document#get} and
 * {@link Document#getField} give it). Looking each of the event's fields up in a {@link Document}
 * scanned the document's field list once a field, and C2 compiled those scans inlined into one of
 * the ingest's largest compilations; a job decodes every engine event at least once. An event's
 * numbers are stored as longs and doubles ({@link Documents#engineEvent}), the only kinds read here.
 */
final class EngineEventFields extends StoredFieldVisitor {

  /** What a field's stored value is read as. */
  private enum Value { TEXT, WHOLE, DECIMAL }

  /** Where each field the event is built from goes. */
  private enum Slot {
    KIND(Schema.KIND, Value.TEXT),
    NODE(Schema.NODE, Value.TEXT),
    ROLE(Schema.ROLE, Value.TEXT),
    RID(Schema.ENGINE_RID, Value.TEXT),
    ROOM(Schema.BOOTSTRAP_ROOM, Value.WHOLE),
    TIME(Schema.TIME, Value.WHOLE),
    INPUT_LEN(Schema.INPUT_LEN, Value.WHOLE),
    REQUESTED_LEN(Schema.REQUESTED_LEN, Value.WHOLE),
    LIMIT(Schema.LIMIT, Value.WHOLE),
    CACHED_LEN(Schema.CACHED_LEN, Value.WHOLE),
    OUTPUT_LEN(Schema.OUTPUT_LEN, Value.WHOLE),
    TRANSFER_MB(Schema.TRANSFER_MB, Value.DECIMAL),
    TRANSFER_MS(Schema.TRANSFER_MS, Value.DECIMAL),
    E2E_LATENCY_MS(Schema.E2E_LATENCY_MS, Value.DECIMAL),
    FINISH_REASON(Schema.FINISH_REASON, Value.TEXT),
    DETAIL(Schema.DETAIL, Value.TEXT),
    SOURCE_FILE(Schema.SOURCE_FILE, Value.TEXT),
    SOURCE_LINE(Schema.SOURCE_LINE, Value.WHOLE),
    BOOTSTRAP_HOST(Schema.BOOTSTRAP_HOST, Value.TEXT);

    final String field;
    final Value value;

    Slot(String field, Value value) {
      this.field = field;
      this.value = value;
    }
  }

  private static final Map<String, Slot> BY_FIELD = new HashMap<>();

  static {
    for (Slot slot : Slot.values()) {
      BY_FIELD.put(slot.field, slot);
    }
  }

  private final Object[] values = new Object[Slot.values().length];
  private final boolean[] seen = new boolean[values.length];

  /** The event a document built or read whole holds. */
  static EngineEvent of(Document doc) {
    EngineEventFields fields = new EngineEventFields();
    for (IndexableField field : doc) {
      Number number = field.numericValue();
      fields.take(field.name(), number != null ? number : field.stringValue());
    }
    return fields.event();
  }

  @Override
  public Status needsField(FieldInfo field) {
    return BY_FIELD.containsKey(field.name) ? Status.YES : Status.NO;
  }

  @Override
  public void stringField(FieldInfo field, String value) {
    take(field.name, value);
  }

  @Override
  public void longField(FieldInfo field, long value) {
    take(field.name, value);
  }

  @Override
  public void doubleField(FieldInfo field, double value) {
    take(field.name, value);
  }

  /** A field's value: text for a text slot, a number for a numeric one, else the slot stays empty. */
  private void take(String field, Object value) {
    Slot slot = BY_FIELD.get(field);
    if (slot == null || seen[slot.ordinal()]) {
      return;
    }
    seen[slot.ordinal()] = true;
    values[slot.ordinal()] = switch (slot.value) {
      case TEXT -> value instanceof String text ? text : null;
      case WHOLE -> value instanceof Number number ? (Object) number.longValue() : null;
      case DECIMAL -> value instanceof Number number ? (Object) number.doubleValue() : null;
    };
  }

  /** The event read; its kind and role must be there, as every engine event document has them. */
  EngineEvent event() {
    return new EngineEvent(EngineEvent.Kind.valueOf(text(Slot.KIND)), text(Slot.NODE), NodeRole.valueOf(text(Slot.ROLE)),
        text(Slot.RID), whole(Slot.ROOM), orZero(whole(Slot.TIME)), whole(Slot.INPUT_LEN), whole(Slot.REQUESTED_LEN),
        whole(Slot.LIMIT), whole(Slot.CACHED_LEN), whole(Slot.OUTPUT_LEN), decimal(Slot.TRANSFER_MB),
        decimal(Slot.TRANSFER_MS), decimal(Slot.E2E_LATENCY_MS), text(Slot.FINISH_REASON), text(Slot.DETAIL),
        text(Slot.SOURCE_FILE), orZero(whole(Slot.SOURCE_LINE)), text(Slot.BOOTSTRAP_HOST));
  }

  private String text(Slot slot) {
    return (String) values[slot.ordinal()];
  }

  private Long whole(Slot slot) {
    return (Long) values[slot.ordinal()];
  }

  private Double decimal(Slot slot) {
    return (Double) values[slot.ordinal()];
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }
}
