package io.kvscope.bench.jmh;

import io.kvscope.index.doc.Schema;
import io.kvscope.model.fingerprint.FingerprintConfig;
import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.model.fingerprint.SharedSpan;
import io.kvscope.model.fingerprint.SpanVerifier;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.StoredFields;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Exact span verification of the join's candidates, as the analysis does it: each recipient's
 * response against the source's prompt, minus what the recipient's own prompt explains. Texts are
 * tokenized in setup, so this measures {@link SpanVerifier} alone. Scores: rounds/s over all
 * candidates, and as secondary results candidate pairs per second and tokens (response plus source
 * prompt) per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
public class VerifyBench {

  @Param("0.25x")
  public String scale;

  /** At most this many candidates (in join order) are verified per operation. */
  @Param("2000")
  public int maxPairs;

  private final SpanVerifier verifier = new SpanVerifier(FingerprintConfig.defaults());
  private final List<TokenizedText[]> pairs = new ArrayList<>();
  private long tokensPerRound;

  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Rates {
    public long pairs;
    public long tokens;
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    try (IndexFixture index = new IndexFixture(scale)) {
      int[] tenant = index.tenant;
      List<int[]> candidates = new ArrayList<>();
      new FingerprintJoin(index.reader, doc -> tenant[doc]).run(JoinOptions.defaults().withIncludeSameTenant(true),
          (recipient, source) -> index.start[recipient] > index.start[source], c -> {
            if (candidates.size() < maxPairs) {
              candidates.add(new int[] {c.recipientDoc(), c.sourceDoc()});
            }
          });
      StoredFields stored = index.reader.storedFields();
      Map<String, TokenizedText> tokenized = new HashMap<>();
      for (int[] c : candidates) {
        TokenizedText response = text(stored, tokenized, c[0], Schema.RESPONSE_TEXT);
        TokenizedText ownPrompt = text(stored, tokenized, c[0], Schema.PROMPT_TEXT);
        TokenizedText sourcePrompt = text(stored, tokenized, c[1], Schema.PROMPT_TEXT);
        pairs.add(new TokenizedText[] {response, sourcePrompt, ownPrompt});
        tokensPerRound += response.size() + sourcePrompt.size();
      }
    }
    if (pairs.isEmpty()) {
      throw new IllegalStateException("the join found no candidates at scale " + scale);
    }
  }

  private static TokenizedText text(StoredFields stored, Map<String, TokenizedText> cache, int doc, String field)
      throws IOException {
    String key = doc + "/" + field;
    TokenizedText cached = cache.get(key);
    if (cached == null) {
      cached = WordTokenizer.tokenize(stored.document(doc).get(field));
      cache.put(key, cached);
    }
    return cached;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pairs.clear();
  }

  @Benchmark
  public int verifyCandidates(Rates rates) {
    int spans = 0;
    for (TokenizedText[] p : pairs) {
      List<SharedSpan> found = verifier.unexplainedSpans(p[0], p[1], p[2]);
      spans += found.size();
    }
    rates.pairs += pairs.size();
    rates.tokens += tokensPerRound;
    return spans;
  }
}
