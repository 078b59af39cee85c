package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.RequestRow;
import io.kvscope.analysis.finding.Confidence;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds findings about one request, with the request's own facts at the head of the evidence. */
final class RequestFindings {

  private RequestFindings() {}

  static Map<String, Object> evidence(RequestRow row) {
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("status_code", row.statusCode());
    evidence.put("prefill_node", row.prefillNode());
    evidence.put("deployment", row.deployment());
    return evidence;
  }

  static Finding of(FindingKind kind, Confidence confidence, RequestRow row, Map<String, Object> evidence) {
    return new Finding(kind.id() + ":" + row.requestId(), kind, confidence, row.requestId(), row.engineRid(),
        row.tenant(), row.startTime() == null ? null : Instant.ofEpochMilli(row.startTime()), row.servingNode(),
        row.decodeNode(), List.of(), evidence);
  }
}
