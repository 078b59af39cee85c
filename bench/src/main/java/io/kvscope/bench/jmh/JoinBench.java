package io.kvscope.bench.jmh;

import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.index.fingerprint.JoinStats;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
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
 * The fingerprint self-join over a real index of a generated incident, with settings close to the
 * analysis's general join: same-tenant pairs counted, boilerplate above 8 tenants skipped, sources
 * earlier than the recipient and at most 3 days before it. Every shared fingerprint counts here
 * (the analysis also leaves out fingerprints the recipient's own prompt carries and asks two of a
 * normally served pair), so the points walked are the same and the candidates more. Scores:
 * joins/s, and as secondary results the fingerprint points read per second and candidates per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
public class JoinBench {

  private static final long HORIZON_MS = 3L * 24 * 3600 * 1000;

  /** Generator scale of the incident indexed in setup (0.25x is about 70 MB of logs). */
  @Param("0.25x")
  public String scale;

  private IndexFixture index;

  /** Per-operation counts, reported by JMH as rates. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Rates {
    public long points;
    public long candidates;
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    index = new IndexFixture(scale);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    index.close();
  }

  @Benchmark
  public JoinStats selfJoin(Rates rates) throws IOException {
    int[] tenant = index.tenant;
    long[] start = index.start;
    long[] candidates = {0};
    JoinStats stats = new FingerprintJoin(index.reader, doc -> tenant[doc])
        .run(JoinOptions.defaults().withIncludeSameTenant(true), (recipient, source) -> {
          long gap = start[recipient] - start[source];
          return gap > 0 && gap <= HORIZON_MS;
        }, candidate -> candidates[0]++);
    rates.points += index.pointsRead;
    rates.candidates += candidates[0];
    return stats;
  }
}
