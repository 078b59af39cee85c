package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.RequestRow;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.ingest.record.RequestRecord;
import java.time.Instant;
import java.util.List;

/** Builds findings about one request, whose evidence starts with the request's own facts. */
final class RequestFindings {

  private RequestFindings() {}

  /** The request's status code, as indexed (a long). */
  static Long statusCode(RequestRow row) {
    return row.record().statusCode() == null ? null : row.record().statusCode().longValue();
  }

  /** What the bootstrap room the request's engine facts came through showed, when it named no one pair; else null. */
  static String roomAmbiguous(RequestRow row) {
    return row.facts().ambiguousRoom() == null ? null : row.facts().ambiguousRoom().describe();
  }

  static Finding of(FindingKind kind, Confidence confidence, RequestRow row, Evidence.OfRequest evidence) {
    RequestRecord r = row.record();
    return new Finding(kind.id() + ":" + r.requestId(), kind, confidence, r.requestId(), r.engineRid(), r.tenant(),
        r.startTime() == null ? null : Instant.ofEpochMilli(r.startTime()), row.servingNode(), r.decodeNode(),
        List.of(), evidence);
  }
}
