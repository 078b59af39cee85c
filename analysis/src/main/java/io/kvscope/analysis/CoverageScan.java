package io.kvscope.analysis;

import io.kvscope.analysis.impact.Coverage;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.nodes.NodeIdentity;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.TypedDocs;
import io.kvscope.ingest.record.NodeActivity;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;

/**
 * What the logs cover: requests per hour, requests without bodies or engine logs, and hours
 * inside a node's active period in which it wrote no line at all (a gap an investigator must
 * mention: "none found" there means "not visible").
 */
final class CoverageScan {

  private final Map<Instant, Long> requestsPerHour = new TreeMap<>();
  private long requests;
  private long withoutBodies;
  private long withoutEngineLogs;

  void add(RequestRow row) {
    requests++;
    Long start = row.record().startTime();
    if (start != null) {
      requestsPerHour.merge(Instant.ofEpochMilli(start - Math.floorMod(start, NodeActivity.HOUR_MS)), 1L, Long::sum);
    }
    if (row.record().promptChars() == null) {
      withoutBodies++;
    }
    if (row.facts().events() == 0) {
      withoutEngineLogs++;
    }
  }

  Map<Instant, Long> requestsPerHour() {
    return requestsPerHour;
  }

  Coverage coverage(IndexReader reader, NodeIdentity identity) throws IOException {
    return new Coverage(nodeGaps(reader, identity), requests, withoutBodies, withoutEngineLogs);
  }

  /** A node's hours count once, whatever name a file gave it ({@code identity}). */
  private static List<Coverage.Gap> nodeGaps(IndexReader reader, NodeIdentity identity) throws IOException {
    Map<String, TreeSet<Long>> activeHours = new TreeMap<>();
    TypedDocs.forEachValues(reader, Schema.TYPE_NODE_HOUR, (values, doc) -> {
      NodeActivity activity = Documents.readActivity(values);
      if (activity.lines() > 0) {
        activeHours.computeIfAbsent(identity.canonical(activity.node()), n -> new TreeSet<>()).add(activity.hourStart());
      }
    });
    List<Coverage.Gap> gaps = new ArrayList<>();
    activeHours.forEach((node, hours) -> {
      Long previous = null;
      for (long hour : hours) {
        if (previous != null && hour - previous > NodeActivity.HOUR_MS) {
          long missing = (hour - previous) / NodeActivity.HOUR_MS - 1;
          gaps.add(new Coverage.Gap(node, Instant.ofEpochMilli(previous + NodeActivity.HOUR_MS), Instant.ofEpochMilli(hour),
              "no log lines from " + node + " for " + missing + " h"));
        }
        previous = hour;
      }
    });
    return gaps;
  }
}
