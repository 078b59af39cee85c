package io.kvscope.analysis;

import io.kvscope.index.IndexSearch;
import io.kvscope.index.doc.Schema;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.LongField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.TermQuery;

/**
 * What an index lacks for its analysis to mean anything. Broken log shipping must never read as
 * "no leak": an analysis over no requests, over a time range holding none, or without any engine
 * log cannot say that nothing leaked, so commands report these as errors instead of "clean".
 */
public final class MissingEvidence {

  /** One thing missing, and what to do about it. */
  public record Gap(Kind kind, String message) {
    /** {@code true} when nothing can be analysed at all (no request in scope). */
    public boolean blocksAnalysis() {
      return kind != Kind.NO_ENGINE_LOGS;
    }
  }

  /** The kinds of missing evidence. */
  public enum Kind { NO_REQUESTS, NO_REQUESTS_IN_RANGE, NO_ENGINE_LOGS }

  private MissingEvidence() {}

  /** The gaps of {@code index} for an analysis with {@code options}; empty when nothing is missing. */
  public static List<Gap> of(IndexSearch index, AnalysisOptions options) throws IOException {
    List<Gap> gaps = new ArrayList<>();
    long requests = index.count(Schema.TYPE_REQUEST);
    if (requests == 0) {
      gaps.add(new Gap(Kind.NO_REQUESTS, "the index " + index.path() + " holds no requests: ingest the gateway logs "
          + "or traces (LiteLLM payloads, OTLP JSON, custom JSONL with --mapping) before analysing"));
    } else if (options.since() != null || options.until() != null) {
      long inRange = index.searcher().count(new BooleanQuery.Builder()
          .add(new TermQuery(new Term(Schema.DOC_TYPE, Schema.TYPE_REQUEST)), Occur.FILTER)
          .add(LongField.newRangeQuery(Schema.START_TIME,
              options.since() == null ? Long.MIN_VALUE : options.since().toEpochMilli(),
              options.until() == null ? Long.MAX_VALUE : options.until().toEpochMilli() - 1), Occur.FILTER)
          .build());
      if (inRange == 0) {
        gaps.add(new Gap(Kind.NO_REQUESTS_IN_RANGE, "no request starts between "
            + (options.since() == null ? "the start" : options.since()) + " and "
            + (options.until() == null ? "the end" : options.until()) + "; the index's " + String.format("%,d", requests)
            + " requests start " + startRange(index)));
      }
    }
    if (index.count(Schema.TYPE_ENGINE_EVENT) == 0 && index.count(Schema.TYPE_EPOCH) == 0) {
      gaps.add(new Gap(Kind.NO_ENGINE_LOGS, "the index holds no engine logs (no SGLang or vLLM server log line, "
          + "no engine config): over-length admission, prefill underruns and the config audit could not be "
          + "checked; ingest one server log per prefill and decode node"));
    }
    return gaps;
  }

  /** "from A to B" over the requests' start times. */
  private static String startRange(IndexSearch index) throws IOException {
    Instant first = RequestStarts.first(index);
    return first == null ? "at no recorded time" : "from " + first + " to " + RequestStarts.last(index);
  }
}
