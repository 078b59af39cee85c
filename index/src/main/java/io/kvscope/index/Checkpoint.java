package io.kvscope.index;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.TypedDocs;
import static io.kvscope.index.doc.Schema.*;

import org.apache.lucene.document.Document;

/**
 * How far a file has been ingested, committed in the same Lucene commit as the file's records: a
 * killed ingest can never have a checkpoint ahead of its data.
 *
 * @param headHash digest of the file's first bytes: tells a rotated or replaced file from a grown one
 * @param linesDone every record from lines up to here is in the index
 * @param records records read from the file, over every run that read it
 * @param bad bad records (lines) of the file, over every run that read it
 * @param sha256 the SHA-256 of the file's bytes, taken as they were read (null when the reading
 *     did not see them all): what a report names the file by as evidence
 */
public record Checkpoint(String path, long size, long modified, String headHash, String format,
    long linesDone, long records, boolean complete, long bad, String sha256) {

  /** All the index holds of its files: what reports list as the evidence they rest on. */
  public static java.util.List<Checkpoint> all(org.apache.lucene.index.IndexReader reader) throws java.io.IOException {
    java.util.List<Checkpoint> all = new java.util.ArrayList<>();
    TypedDocs.forEach(reader, TYPE_CHECKPOINT, doc -> all.add(fromDocument(doc)));
    all.sort(java.util.Comparator.comparing(Checkpoint::path));
    return all;
  }

  public static String idFor(String path) {
    return "k:" + path;
  }

  /** True when the file is exactly as it was when completely ingested: nothing to do. */
  public boolean unchanged(long size, long modified, String headHash) {
    return complete && this.size == size && this.modified == modified && this.headHash.equals(headHash);
  }

  /** True when the file still starts the same, so lines up to {@link #linesDone} can be skipped. */
  public boolean sameFile(String headHash, String format, long size) {
    return this.headHash.equals(headHash) && this.format.equals(format) && size >= this.size;
  }

  public Document toDocument() {
    Document doc = Documents.base(TYPE_CHECKPOINT, idFor(path));
    Documents.keyword(doc, PATH, path);
    Documents.number(doc, SIZE, size);
    Documents.number(doc, MODIFIED, modified);
    Documents.keyword(doc, HEAD_HASH, headHash);
    Documents.keyword(doc, FORMAT, format);
    Documents.number(doc, LINES_DONE, linesDone);
    Documents.number(doc, RECORDS, records);
    Documents.keyword(doc, COMPLETE, Boolean.toString(complete));
    Documents.number(doc, BAD_RECORDS, bad);
    if (sha256 != null) {
      Documents.keyword(doc, SHA256, sha256);
    }
    return doc;
  }

  static Checkpoint fromDocument(Document doc) {
    return new Checkpoint(doc.get(PATH), Documents.longValue(doc, SIZE), Documents.longValue(doc, MODIFIED),
        doc.get(HEAD_HASH), doc.get(FORMAT), Documents.longValue(doc, LINES_DONE),
        Documents.longValue(doc, RECORDS), Boolean.parseBoolean(doc.get(COMPLETE)),
        doc.getField(BAD_RECORDS) == null ? 0 : Documents.longValue(doc, BAD_RECORDS), doc.get(SHA256));
  }
}
