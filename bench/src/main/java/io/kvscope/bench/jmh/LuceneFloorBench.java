package io.kvscope.bench.jmh;

import io.kvscope.index.doc.Schema;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field.Store;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floor under ingest that kvscope does not control: Lucene adding the same 1,000,000 bytes
 * (UTF-8) of gateway text per operation (score = MB/s) on one thread, as kvscope's schema asks for
 * prompt text, into an in-memory directory flushed every 64 MB: full-text inversion with the
 * index's analyzer (the leak model's words, positions included, for phrase search), and stored with the codec's fast mode
 * (LZ4), as {@code IndexStore} writes it. {@code textOnly} inverts without storing,
 * {@code storedOnly} stores without inverting.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
public class LuceneFloorBench {

  private String text;
  private ByteBuffersDirectory directory;
  private IndexWriter writer;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    text = Corpora.gatewayText(1_000_000);
  }

  @Setup(Level.Iteration)
  public void openWriter() throws IOException {
    directory = new ByteBuffersDirectory();
    writer = new IndexWriter(directory, new IndexWriterConfig(Schema.analyzer())
        .setCodec(new Lucene104Codec(Lucene104Codec.Mode.BEST_SPEED)) // as IndexStore
        .setRAMBufferSizeMB(64));
  }

  @TearDown(Level.Iteration)
  public void closeWriter() throws IOException {
    writer.close();
    directory.close();
  }

  /** Inverted and stored, as prompt_text is. */
  @Benchmark
  public long textFieldStoredMBps() throws IOException {
    Document doc = new Document();
    doc.add(new TextField(Schema.PROMPT_TEXT, text, Store.YES));
    return writer.addDocument(doc);
  }

  @Benchmark
  public long textOnlyMBps() throws IOException {
    Document doc = new Document();
    doc.add(new TextField(Schema.PROMPT_TEXT, text, Store.NO));
    return writer.addDocument(doc);
  }

  @Benchmark
  public long storedOnlyMBps() throws IOException {
    Document doc = new Document();
    doc.add(new StoredField(Schema.PROMPT_TEXT, text));
    return writer.addDocument(doc);
  }
}
