package io.kvscope.index.store;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.WordTokens;
import io.kvscope.index.fingerprint.FingerprintFields;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LiveIndexWriterConfig;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * An index directory opened for writing. Stored fields use the codec's fast mode (LZ4): prompt
 * text dominates the index, and DEFLATE (best compression) made compressing it at ingest and
 * decompressing it for verification a quarter of all ingest CPU, for an index about 1.4 times
 * smaller (0.40 instead of 0.58 of the input on the sample incident). Every file is created
 * owner-only ({@link OwnerOnlyDirectory}); the folder holds the case's {@link CaseKey}.
 */
public final class IndexStore implements Closeable {

  private final Path dir;
  private final OwnerOnlyDirectory directory;
  private final IndexWriter writer;
  /**
   * The ids written since an open that found no documents, so that a first write adds instead of
   * replacing; null once documents may exist that it does not know (an index appended to, or
   * shards added), and every write replaces.
   */
  private volatile WrittenIds written;

  private IndexStore(Path dir, OwnerOnlyDirectory directory, IndexWriter writer, boolean fresh) {
    this.dir = dir;
    this.directory = directory;
    this.writer = writer;
    this.written = fresh ? new WrittenIds() : null;
  }

  /**
   * Opens (creating if needed) the index at {@code dir} for writing. A folder that already holds
   * files but no kvscope index is refused and left exactly as it was: an index mixed into a
   * user's folder would make their files owner-only and could delete what Lucene takes for its own.
   */
  public static IndexStore open(Path dir) throws IOException {
    requireIndexOrEmpty(dir);
    requireAppendable(dir);
    OwnerOnly.directory(dir);
    CaseKey.createOrRead(dir); // first: it marks the folder as an index before anything else is written
    OwnerOnlyDirectory directory = OwnerOnlyDirectory.open(dir);
    try {
      boolean fresh = !DirectoryReader.indexExists(directory);
      return new IndexStore(dir, directory, new IndexWriter(directory, writerConfig()), fresh);
    } catch (IOException | RuntimeException e) {
      directory.close();
      throw e;
    }
  }

  /**
   * How kvscope writes an index: its analyzer and codec, appending, committing only when told. A
   * shard written elsewhere (the Spark job's) with this config joins an index by
   * {@link #addIndexes} as if written here.
   */
  public static IndexWriterConfig writerConfig() {
    return new IndexWriterConfig(Schema.analyzer())
        .setCodec(new Lucene104Codec(Lucene104Codec.Mode.BEST_SPEED))
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
        .setRAMBufferSizeMB(128)
        .setCommitOnClose(false);
  }

  /**
   * Fingerprints of different schemes never match, and nothing else would notice: adding to an
   * index built with another scheme would silently blind the overlap analysis.
   */
  private static void requireIndexOrEmpty(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    if (!Files.isDirectory(dir)) {
      throw new IOException(dir + " is a file, not a folder; give --index a new or empty folder (or an existing index)");
    }
    boolean empty;
    try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
      empty = entries.findAny().isEmpty();
    }
    if (!empty && !Files.exists(dir.resolve(CaseKey.FILE_NAME)) && !isKvscopeIndex(dir)) {
      throw new IOException("the folder " + dir + " is not empty and holds no kvscope index; kvscope leaves it untouched."
          + " Give --index a new or empty folder (or an existing index)");
    }
  }

  private static void requireSameFingerprintScheme(Path dir, Directory directory) throws IOException {
    if (!DirectoryReader.indexExists(directory)) {
      return;
    }
    String existing = org.apache.lucene.index.SegmentInfos.readLatestCommit(directory).getUserData().get(FINGERPRINT_SCHEME);
    String current = Documents.FINGERPRINTS.schemeId();
    if (existing != null && !existing.equals(current)) {
      throw new IncompatibleIndexException("the index at " + dir + " was built with fingerprint scheme '" + existing
          + "' but this kvscope uses '" + current + "'; ingest into a new index directory");
    }
  }

  /**
   * Refuses, with {@link IncompatibleIndexException} and before anything in {@code dir} is touched,
   * an index this kvscope cannot add to. No field kvscope writes keeps length norms (the text
   * fields dropped them: nothing scores by length), the ids keep no doc values (nothing reads
   * them there) and the fingerprints are points, not terms, and Lucene refuses a document whose field lacks what the index keeps for it, at
   * the first document written; fingerprints of another scheme would never match. Such an index stays as it was.
   * Its words are checked first: every index built before they were named in the commit is also
   * refused by search and analysis, and only that message says so; the field checks' "can still be
   * searched" holds for an index whose words are this kvscope's.
   */
  public static void requireAppendable(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (FSDirectory directory = FSDirectory.open(dir)) {
      if (DirectoryReader.indexExists(directory)) {
        requireTextWords(dir, org.apache.lucene.index.SegmentInfos.readLatestCommit(directory).getUserData());
        requireCurrentFields(dir, directory);
        requireSameFingerprintScheme(dir, directory);
      }
    }
  }

  /**
   * Lucene refuses a document whose field is indexed otherwise than the index already keeps it,
   * at the first such document: the text fields' length norms, the ids' doc values and the
   * fingerprints as terms (points now), all dropped since, are what an older kvscope's index keeps.
   */
  private static void requireCurrentFields(Path dir, Directory directory) throws IOException {
    try (DirectoryReader reader = DirectoryReader.open(directory)) {
      for (FieldInfo field : FieldInfos.getMergedFieldInfos(reader)) {
        if (field.hasNorms()) {
          throw olderIndex(dir, field.name, "length norms", STILL_ANALYZED);
        }
        if (field.name.equals(Schema.ID) && field.getDocValuesType() != DocValuesType.NONE) {
          throw olderIndex(dir, field.name, "doc values", STILL_ANALYZED);
        }
        if ((field.name.equals(FingerprintFields.PROMPT) || field.name.equals(FingerprintFields.RESPONSE))
            && FingerprintFields.heldAsTerms(field)) {
          throw olderIndex(dir, field.name, "the fingerprints as terms",
              "the old index can still be searched, but not analyzed for overlap, which reads the fingerprints as points");
        }
      }
    }
  }

  private static final String STILL_ANALYZED = "the old index can still be searched and analyzed";

  /**
   * Refuses, with {@link IncompatibleIndexException}, the last commit of an index whose text fields
   * hold other words than {@link WordTokens}' (an earlier kvscope's, Lucene's standard tokenizer's):
   * a phrase or word looked up in it as this kvscope cuts it would miss what it holds, so nothing is
   * added to it, and search and analysis refuse it too.
   */
  public static void requireTextWords(Path dir, java.util.Map<String, String> commitData) throws IncompatibleIndexException {
    String words = commitData.get(TEXT_WORDS);
    if (!WordTokens.SCHEME.equals(words)) {
      throw new IncompatibleIndexException("the index at " + dir + " was built by an older kvscope (its text fields hold "
          + (words == null ? "Lucene's standard words" : "words '" + words + "'") + ", not the words '" + WordTokens.SCHEME
          + "' this kvscope writes and looks up), so it can be neither added to, searched nor analyzed;"
          + " ingest again into a new index directory");
    }
  }

  private static IncompatibleIndexException olderIndex(Path dir, String field, String kept, String stillWorks) {
    return new IncompatibleIndexException("the index at " + dir + " was built by an older kvscope (its field '" + field
        + "' keeps " + kept + ", which this kvscope no longer writes), so nothing can be added to it;"
        + " ingest into a new index directory (" + stillWorks + ")");
  }

  /** True when {@code dir} holds a committed kvscope index. */
  public static boolean exists(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (FSDirectory directory = FSDirectory.open(dir)) {
      return DirectoryReader.indexExists(directory);
    }
  }

  /**
   * True when {@code dir} holds an index kvscope built (its case key, or a commit that names its
   * fingerprint scheme), for the ingest to skip an old case's index found among the inputs.
   */
  public static boolean isKvscopeIndex(Path dir) {
    if (Files.isRegularFile(dir.resolve(CaseKey.FILE_NAME))) {
      return true; // from before its first commit on
    }
    try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
      if (entries.noneMatch(p -> p.getFileName().toString().startsWith(IndexFileNames.SEGMENTS))) {
        return false;
      }
    } catch (IOException | java.io.UncheckedIOException unreadable) {
      return false;
    }
    try (FSDirectory directory = FSDirectory.open(dir)) {
      return org.apache.lucene.index.SegmentInfos.readLatestCommit(directory).getUserData().containsKey(FINGERPRINT_SCHEME);
    } catch (IOException | RuntimeException notAnIndex) {
      return false;
    }
  }

  public Path path() {
    return dir;
  }

  /** Adds or replaces the document with the same {@link Schema#ID}. */
  public void put(Document doc) throws IOException {
    String id = doc.get(Schema.ID);
    WrittenIds fresh = written;
    if (fresh != null && fresh.addIfNew(id)) {
      writer.addDocument(doc); // no document of this id exists: nothing to replace
    } else {
      writer.updateDocument(new Term(Schema.ID, id), doc);
    }
  }

  /**
   * Adds every document of {@code shards} (indexes written with {@link #writerConfig()}) as they
   * are: no document is replaced, so the shards must not hold two of one {@link Schema#ID}.
   */
  public void addIndexes(Directory... shards) throws IOException {
    written = null; // their ids are not known: from now on every write replaces
    writer.addIndexes(shards);
  }

  public void delete(String id) throws IOException {
    writer.deleteDocuments(new Term(Schema.ID, id));
  }

  /** Commit user data key naming the fingerprint scheme the index was built with. */
  public static final String FINGERPRINT_SCHEME = "kvscope.fingerprint_scheme";
  /** Commit user data key naming the words its text fields hold ({@link WordTokens#SCHEME}). */
  public static final String TEXT_WORDS = "kvscope.text_words";

  /** Makes everything written so far durable, atomically, and tightens file permissions. */
  public void commit() throws IOException {
    writer.setLiveCommitData(java.util.Map.of(FINGERPRINT_SCHEME, Documents.FINGERPRINTS.schemeId(),
        TEXT_WORDS, WordTokens.SCHEME).entrySet());
    writer.commit();
    OwnerOnly.contents(dir);
  }

  /**
   * Starts no merge until the returned handle is closed; merges already running go on. For the
   * writes and commits just before {@link #close()}: the close aborts running merges, so a merge
   * they started was CPU spent for nothing, a few seconds an ingest. Segments stay as flushed; the
   * index is as sound and searchable either way.
   */
  public Closeable mergesPaused() {
    LiveIndexWriterConfig config = writer.getConfig();
    MergePolicy merging = config.getMergePolicy();
    config.setMergePolicy(NoMergePolicy.INSTANCE);
    return () -> config.setMergePolicy(merging);
  }

  /** A near-real-time reader that sees uncommitted writes too. The caller closes it. */
  public DirectoryReader openReader() throws IOException {
    return DirectoryReader.open(writer);
  }

  IndexWriter writer() {
    return writer;
  }

  /** Closes without committing: what was not committed is discarded, as after a crash. */
  @Override
  public void close() throws IOException {
    try {
      writer.rollback();
    } finally {
      directory.close();
    }
  }
}
