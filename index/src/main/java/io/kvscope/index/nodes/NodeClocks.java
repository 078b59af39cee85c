package io.kvscope.index.nodes;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.TypedDocs;
import static io.kvscope.index.doc.Schema.*;

import io.kvscope.model.order.StableSample;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;

/**
 * How far each node's clock is off the gateway's, learned from requests both saw: the median of
 * (the node's first line about a rid) - (the gateway's start of that request). The estimate
 * includes the gateway-to-engine latency, milliseconds against skews of seconds. Reports use it to
 * put node-local times (epoch starts) on the gateway's timeline; joins never need it, they go by id.
 */
public final class NodeClocks {

  /** Offsets kept per node while learning; the median of a sample this size is plenty. */
  public static final int MAX_SAMPLES = 20_000;

  private final Map<String, Long> skewMillis;

  public NodeClocks(Map<String, Long> skewMillis) {
    this.skewMillis = Collections.unmodifiableMap(new TreeMap<>(skewMillis));
  }

  public static NodeClocks none() {
    return new NodeClocks(Map.of());
  }

  /** Node clock minus gateway clock, in ms (0 when unknown). */
  public long skew(String node) {
    return skewMillis.getOrDefault(node, 0L);
  }

  public Map<String, Long> skews() {
    return skewMillis;
  }

  /** A node-local time on the gateway's clock. */
  public long toGatewayTime(String node, long nodeTime) {
    return nodeTime - skew(node);
  }

  public static NodeClocks load(IndexReader reader) throws IOException {
    return load(reader, NodeIdentity.load(reader));
  }

  /**
   * The learned skews under the names reports use; when two names of one node were learned apart,
   * the one learned from more requests stands.
   */
  public static NodeClocks load(IndexReader reader, NodeIdentity identity) throws IOException {
    Map<String, Long> skews = new TreeMap<>();
    Map<String, Long> samples = new TreeMap<>();
    TypedDocs.forEachValues(reader, TYPE_NODE_CLOCK, (values, doc) -> {
      String node = identity.canonical((String) values.get(NODE));
      Long lines = (Long) values.get(LINES);
      long n = lines == null ? 0 : lines;
      if (n >= samples.getOrDefault(node, -1L)) {
        samples.put(node, n);
        skews.put(node, (Long) values.get(SKEW_MS));
      }
    });
    return new NodeClocks(skews);
  }

  /**
   * Collects offsets while the join walks the requests: a sample per node, the same whatever the
   * read order, so a join that offers each node only its own sample's candidates learns the same.
   */
  public static final class Learner {
    private final Map<String, StableSample<Long>> offsets = new TreeMap<>();

    /** The node's first line about request {@code requestId} at {@code nodeTime}; the gateway's start at {@code gatewayTime}. */
    public void observe(String node, String requestId, long nodeTime, long gatewayTime) {
      offsets.computeIfAbsent(node, n -> new StableSample<>(MAX_SAMPLES)).offer(requestId, nodeTime - gatewayTime);
    }

    /** Each node's median offset. */
    public NodeClocks clocks() {
      Map<String, Long> skews = new TreeMap<>();
      offsets.forEach((node, sample) -> skews.put(node, median(sample)));
      return new NodeClocks(skews);
    }

    /** One document per node with its median offset. */
    public List<Document> documents() {
      List<Document> docs = new ArrayList<>();
      offsets.forEach((node, sample) -> {
        Document doc = Documents.base(TYPE_NODE_CLOCK, "clock:" + node);
        Documents.keyword(doc, NODE, node);
        Documents.number(doc, SKEW_MS, median(sample));
        Documents.number(doc, LINES, (long) sample.values().size());
        docs.add(doc);
      });
      return docs;
    }

    private static long median(StableSample<Long> sample) {
      List<Long> sorted = new ArrayList<>(sample.values());
      Collections.sort(sorted);
      return sorted.get(sorted.size() / 2);
    }
  }
}
