package io.kvscope.analysis;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.store.IndexStore;
import io.kvscope.index.join.Linker;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes hand-made records into a real on-disk index, links them, and opens it for analysis. Public
 * for the tests of the analyzers' package-private helpers.
 */
public final class TestIndex {

  private final Path dir;
  private final List<Ingested> items = new ArrayList<>();
  private final List<org.apache.lucene.document.Document> copies = new ArrayList<>();

  public TestIndex(Path dir) {
    this.dir = dir;
  }

  public static long at(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  public TestIndex add(Ingested item) {
    items.add(item);
    return this;
  }

  public TestIndex epoch(String node, NodeRole role, String start, long pool, long context, String version) {
    return add(new ConfigEpoch(node, role, at(start), pool, context, 64, version, "m", "m", "mooncake",
        false, false, null, "sglang-log", node + ".log", items.size() + 1));
  }

  /** A request served by prefill-0/decode-0, with the engine's prefill length and an optional rejection. */
  public TestIndex served(RequestRecord request, long engineInputLen, boolean rejected) {
    return served(request, engineInputLen, rejected, "decode-0");
  }

  /** A request served by prefill-0 and {@code decodeNode}, whose engine prefilled its whole prompt. */
  public TestIndex servedOn(RequestRecord request, String decodeNode) {
    return served(request, request.promptTokens(), false, decodeNode);
  }

  private TestIndex served(RequestRecord request, long engineInputLen, boolean rejected, String decodeNode) {
    add(request);
    String rid = request.engineRid();
    long time = request.startTime();
    add(new EngineEvent(EngineEvent.Kind.TIME_STATS, "prefill-0", NodeRole.PREFILL, rid, 7L, time, engineInputLen,
        null, null, request.cachedTokens(), null, 1.0, null, null, null, null, "prefill-0.log", items.size()));
    add(new EngineEvent(EngineEvent.Kind.TIME_STATS, decodeNode, NodeRole.DECODE, rid, 7L, time + 5,
        request.promptTokens(), null, null, null, request.completionTokens(), null, 3.0, null, null, null,
        decodeNode + ".log", items.size()));
    if (rejected) {
      add(new EngineEvent(EngineEvent.Kind.REJECTED, "prefill-0", NodeRole.PREFILL, rid, null, time, null,
          request.promptTokens(), 681_280L, null, null, null, null, null, null, "over-length", "prefill-0.log", items.size()));
    }
    return this;
  }

  /** A request whose prefill node left no log line about it (a gap in that node's log), decoded on {@code decodeNode}. */
  public TestIndex decodedOnly(RequestRecord request, String decodeNode) {
    add(request);
    add(new EngineEvent(EngineEvent.Kind.TIME_STATS, decodeNode, NodeRole.DECODE, request.engineRid(), 7L,
        request.startTime() + 5, request.promptTokens(), null, null, null, request.completionTokens(), null, 3.0, null,
        null, null, decodeNode + ".log", items.size()));
    return this;
  }

  /**
   * Another prompt logged for the request with engine rid {@code rid}, beside its kept one, as the
   * merge keeps it: from the record {@code where}, a trace's when {@code outranked}.
   */
  public TestIndex promptCopy(String rid, String text, String where, boolean outranked) {
    copies.add(Documents.textCopy(rid, new io.kvscope.ingest.merge.TextCopy("prompt_text", text, where,
        "gateway gw.jsonl:1", outranked)));
    return this;
  }

  public static RequestRecord.Builder request(String id, String tenant, String start, long promptTokens, int status) {
    return RequestRecord.builder("gw-" + id).engineRid(id).tenant(tenant).model("m").deployment("dep")
        .startTime(at(start)).firstTokenTime(at(start) + 100).endTime(at(start) + 2_000)
        .statusCode(status).promptTokens(promptTokens).completionTokens(50L).sourceFile("gw.jsonl").sourceLine(1);
  }

  public IndexSearch open() throws IOException {
    try (IndexStore store = IndexStore.open(dir)) {
      for (Ingested item : items) {
        store.put(Documents.of(item));
      }
      for (org.apache.lucene.document.Document copy : copies) {
        store.put(copy);
      }
      store.commit();
      new Linker(store).run();
      store.commit();
    }
    return IndexSearch.open(dir);
  }
}
