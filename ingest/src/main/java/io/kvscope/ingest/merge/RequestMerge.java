package io.kvscope.ingest.merge;

import io.kvscope.ingest.record.RequestRecord;
import java.util.List;

/** Which records are one request, and the one record they make together. */
public final class RequestMerge {

  private RequestMerge() {}

  /**
   * The key records of one request share: the engine rid (a gateway line and a trace of the same
   * call both name the response id {@code chatcmpl-<rid>}), else the record's own id (a failed
   * call: LiteLLM's call id, a span id that the span's log event repeats).
   */
  public static String keyOf(RequestRecord record) {
    String rid = record.engineRid();
    return rid != null && !rid.isBlank() ? rid : record.requestId();
  }

  /**
   * The records of one request as one, by {@link MergeRules}; the result does not depend on the
   * order of {@code records}. A single record comes back unchanged.
   *
   * @throws IllegalArgumentException when {@code records} is empty
   */
  public static RequestRecord merge(List<RequestRecord> records) {
    if (records.isEmpty()) {
      throw new IllegalArgumentException("nothing to merge");
    }
    if (records.size() == 1) {
      return records.getFirst();
    }
    return MergeRules.merge(records);
  }

  /**
   * The texts of {@code records} the merged request does not hold: each other reply and prompt they
   * disagree on, and each that goes on past the kept one, with where it was read. The analysis reads
   * every reply copy as received; none of them is ever a source. Empty for a single record.
   */
  public static List<TextCopy> disagreeing(List<RequestRecord> records) {
    return records.size() < 2 ? List.of() : MergeRules.copies(records);
  }

  /** How many of {@code records} are exact copies of another (same content, read elsewhere). */
  public static int copies(List<RequestRecord> records) {
    long distinct = records.stream().map(RequestMerge::content).distinct().count();
    return (int) (records.size() - distinct);
  }

  /** A record without where it was read: two copies of one line have equal content. */
  private static RequestRecord content(RequestRecord r) {
    return r.toBuilder().sourceFile(null).sourceLine(0).provenance(null).build();
  }
}
