package io.kvscope.bench.jmh;

import io.kvscope.model.fingerprint.FingerprintConfig;
import io.kvscope.model.fingerprint.Fingerprinter;
import io.kvscope.model.fingerprint.Fingerprints;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import io.kvscope.model.identifiers.Identifier;
import io.kvscope.model.identifiers.IdentifierExtractor;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What ingest does to every prompt and response besides Lucene's own analysis, on 1,000,000 bytes
 * (UTF-8) of generated gateway text per operation, so the score in ops/s reads as MB/s:
 * tokenization, the whole fingerprint pipeline (tokenize, k-gram hashing, winnowing, the distinct
 * terms the index gets) and identifier extraction.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class FingerprintingBench {

  private static final int MEGABYTE = 1_000_000;

  private String text;
  private final Fingerprinter fingerprinter = new Fingerprinter(FingerprintConfig.defaults());
  private final IdentifierExtractor identifiers = new IdentifierExtractor();

  @Setup
  public void setUp() throws IOException {
    text = Corpora.gatewayText(MEGABYTE);
  }

  /** Word tokens with offsets and hashes. */
  @Benchmark
  public TokenizedText tokenizeMBps() {
    return WordTokenizer.tokenize(text);
  }

  /** Tokenize, k-gram hash and winnow: the fingerprints of the text. */
  @Benchmark
  public Fingerprints fingerprintMBps() {
    return fingerprinter.fingerprint(text);
  }

  /** The fingerprints as the index stores them (distinct, in term order). */
  @Benchmark
  public long[] fingerprintTermsMBps() {
    return fingerprinter.distinctHashes(text);
  }

  /** Emails, phones, keys, IBANs, account numbers, UUIDs and canaries. */
  @Benchmark
  public List<Identifier> identifiersMBps() {
    return identifiers.extract(text);
  }
}
