package io.kvscope.ingest.record;

import java.util.List;

/** Request records for tests in this and later modules (the ingest test-jar). */
public final class RequestRecords {

  private RequestRecords() {}

  /**
   * A record with every field set: each field of the table ({@link CanonicalField}) to a value no
   * other field has, and the kept-record extras (origin, aliases, quoted limits, provenance).
   */
  public static RequestRecord everyFieldSet() {
    RequestRecord.Builder b = new RequestRecord.Builder();
    long n = 0;
    for (CanonicalField field : CanonicalField.values()) {
      n++;
      field.set(b, switch (field.type()) {
        case STRING, TEXT -> field.column() + " of the request, ✓ " + n;
        case LONG, TIME -> 1_787_788_800_000L + n;
        case INT -> 400 + (int) n; // an HTTP status
      });
    }
    return b.origin(RecordOrigin.TRACE).aliases(List.of("trace_id:t-1", "litellm_call_id:c-1"))
        .quotedPromptTokens(9_001L).quotedLimitTokens(8_192L)
        .provenance(new Provenance(2, List.of("GATEWAY gw.jsonl:3", "TRACE spans.jsonl:9"),
            List.of("tenant: kept one value, not the other"), 1))
        .build();
  }
}
