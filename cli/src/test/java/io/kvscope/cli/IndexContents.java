package io.kvscope.cli;

import io.kvscope.index.IndexSearch;
import io.kvscope.index.store.IndexStore;
import io.kvscope.index.doc.Schema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.MultiBits;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;

/** What an index on disk holds, read independently of the analyzers: for comparing two indexes. */
final class IndexContents {

  private IndexContents() {}

  /**
   * Every live document except checkpoints (whose record counts depend on where a run resumed),
   * as id -> digest of its stored fields in a canonical order.
   */
  static Map<String, String> documents(Path index) throws Exception {
    Map<String, String> result = new TreeMap<>();
    try (IndexSearch search = IndexSearch.open(index)) {
      var reader = search.reader();
      Bits live = MultiBits.getLiveDocs(reader);
      StoredFields stored = reader.storedFields();
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        Document document = stored.document(doc);
        if (Schema.TYPE_CHECKPOINT.equals(document.get(Schema.DOC_TYPE))) {
          continue;
        }
        String id = document.get(Schema.ID);
        if (result.put(id, digest(document)) != null) {
          throw new AssertionError("two live documents share the id " + id);
        }
      }
    }
    return result;
  }

  /** The request ids (gateway id, else engine rid) of every request document. */
  static Set<String> requestIds(Path index) throws Exception {
    Set<String> ids = new TreeSet<>();
    try (IndexSearch search = IndexSearch.open(index)) {
      io.kvscope.index.doc.TypedDocs.forEach(search.reader(), Schema.TYPE_REQUEST, d -> ids.add(d.get(Schema.REQUEST_ID)));
    }
    return ids;
  }

  /** The engine rids of every request and engine event document. */
  static Set<String> engineRids(Path index) throws Exception {
    Set<String> rids = new TreeSet<>();
    try (IndexSearch search = IndexSearch.open(index)) {
      for (String type : java.util.List.of(Schema.TYPE_REQUEST, Schema.TYPE_ENGINE_EVENT)) {
        io.kvscope.index.doc.TypedDocs.forEach(search.reader(), type, d -> {
          if (d.get(Schema.ENGINE_RID) != null) {
            rids.add(d.get(Schema.ENGINE_RID));
          }
        });
      }
    }
    return rids;
  }

  static long count(Path index, String docType) throws Exception {
    try (IndexSearch search = IndexSearch.open(index)) {
      return search.count(docType);
    }
  }

  /** Lucene's own CheckIndex over every segment: true when nothing is corrupt or missing. */
  static boolean checkIndexClean(Path index) throws Exception {
    if (!IndexStore.exists(index)) {
      return false;
    }
    try (FSDirectory dir = FSDirectory.open(index); CheckIndex check = new CheckIndex(dir)) {
      check.setLevel(CheckIndex.Level.MIN_LEVEL_FOR_INTEGRITY_CHECKS);
      return check.checkIndex().clean;
    }
  }

  private static String digest(Document document) throws Exception {
    Map<String, StringBuilder> fields = new TreeMap<>();
    for (IndexableField field : document.getFields()) {
      String value = field.numericValue() != null ? field.numericValue().toString() : field.stringValue();
      if (value != null) {
        fields.computeIfAbsent(field.name(), n -> new StringBuilder()).append(value).append('\u0001');
      }
    }
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    fields.forEach((name, value) -> {
      sha.update(name.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      sha.update(value.toString().getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
    });
    return HexFormat.of().formatHex(sha.digest(), 0, 12);
  }
}
