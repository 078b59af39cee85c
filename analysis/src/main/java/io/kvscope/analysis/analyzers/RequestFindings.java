package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.RequestRow;
import io.kvscope.analysis.finding.Confidence;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.ingest.record.RequestRecord;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds findings about one request, with the request's own facts at the head of the evidence. */
final class RequestFindings {

  private RequestFindings() {}

  static Map<String, Object> evidence(RequestRow row) {
    RequestRecord r = row.record();
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("status_code", r.statusCode() == null ? null : r.statusCode().longValue()); // a long, as indexed
    evidence.put("prefill_node", r.prefillNode());
    evidence.put("deployment", r.deployment());
    return evidence;
  }

  static Finding of(FindingKind kind, Confidence confidence, RequestRow row, Map<String, Object> evidence) {
    RequestRecord r = row.record();
    return new Finding(kind.id() + ":" + r.requestId(), kind, confidence, r.requestId(), r.engineRid(), r.tenant(),
        r.startTime() == null ? null : Instant.ofEpochMilli(r.startTime()), row.servingNode(), r.decodeNode(),
        List.of(), evidence);
  }
}
