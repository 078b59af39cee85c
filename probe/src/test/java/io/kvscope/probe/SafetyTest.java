package io.kvscope.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.kvscope.probe.canary.Exchange;
import io.kvscope.probe.canary.PlannedRequest;
import io.kvscope.probe.canary.RequestKind;
import io.kvscope.probe.canary.Skipped;
import io.kvscope.probe.enginedouble.DoubleConfig;
import io.kvscope.probe.enginedouble.EngineDouble;
import io.kvscope.probe.report.ProbeSummary;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What makes the probe safe to point at production: dry run, hard caps, rate limit, timeouts. */
class SafetyTest {

  @Test
  void aDryRunReadsConfigAndPrintsThePlanButSendsNoPrompt() throws Exception {
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.BUGGY))) {
      ProbeOptions.Builder b = DoubleProbes.against(d);
      b.dryRun = true;
      ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);

      assertThat(d.generationRequests()).isZero();
      assertThat(r.canary()).isNull();
      assertThat(r.plan().requests()).isEqualTo(16);
      PlannedRequest overPool = r.plan().probes().stream().filter(p -> p.kind() == RequestKind.OVER_POOL).findFirst().orElseThrow();
      assertThat(overPool.limit()).isEqualTo(8_192L);
      assertThat(overPool.targetTokens()).isGreaterThan(8_192L).isLessThan(8_192L + 8_192L / 10);
      // The config check still judged the nodes: an exploitable pool fails even a dry run.
      assertThat(r.outcome()).isEqualTo(Outcome.FAIL);
      String printed = String.join("\n", ProbeSummary.lines(r));
      assertThat(printed).contains("canary test (dry run, would send): 16 requests").contains("over-pool-1").contains("(limit 8192)");
      assertThat(r.warnings().get(0)).startsWith("dry run:");
    }
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.FIXED))) {
      ProbeOptions.Builder b = DoubleProbes.against(d);
      b.dryRun = true;
      ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);
      assertThat(r.outcome()).isEqualTo(Outcome.PLANNED); // exit 0, but never called a pass
      assertThat(d.generationRequests()).isZero();
    }
  }

  @Test
  void concurrencyRequestAndTokenCapsHold() throws Exception {
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.FIXED))) {
      ProbeOptions.Builder b = DoubleProbes.against(d);
      b.concurrency = 2;
      b.maxRequests = 6;
      ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);
      assertThat(d.maxConcurrent()).isLessThanOrEqualTo(2);
      assertThat(d.generationRequests()).isEqualTo(6);
      // The first fill prompts and the prompts past the pool come first; the rest is skipped and said so.
      assertThat(r.canary().exchanges()).extracting(Exchange::id)
          .containsExactlyInAnyOrder("fill-01", "fill-02", "fill-03", "fill-04", "over-pool-1", "over-pool-2");
      assertThat(r.plan().skipped()).extracting(Skipped::reason).allMatch(s -> s.contains("--max-requests 6"));
    }
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.FIXED))) {
      ProbeOptions.Builder b = DoubleProbes.against(d);
      b.maxTotalTokens = 30_000;
      ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);
      assertThat(r.plan().estimatedTokens()).isLessThanOrEqualTo(30_000);
      assertThat(d.promptTokensReceived()).isLessThanOrEqualTo(30_000);
      assertThat(r.plan().skipped()).anyMatch(s -> s.what().equals("over-context-1") && s.reason().contains("--max-total-tokens 30000"));
      assertThat(r.warnings()).anyMatch(w -> w.startsWith("not sent: over-context-1"));
    }
  }

  @Test
  void requestsStartNoFasterThanTheRate() throws Exception {
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.FIXED))) {
      ProbeOptions.Builder b = DoubleProbes.against(d);
      b.ratePerSecond = 10;
      b.maxRequests = 6;
      Probe.run(b.build(), ProbeListener.NONE);
      List<Long> arrivals = d.arrivals();
      assertThat(arrivals).hasSize(6);
      long spanNanos = arrivals.get(arrivals.size() - 1) - arrivals.get(0);
      assertThat(spanNanos).isGreaterThanOrEqualTo(Duration.ofMillis(450).toNanos()); // 5 gaps of 100 ms
    }
  }

  @Test
  void aStreamThatNeverEndsIsCutAtTheDeadlineAndTheRunCannotConclude() throws Exception {
    HttpServer stuck = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    stuck.createContext("/", ex -> {
      ex.getResponseHeaders().set("Content-Type", "text/event-stream");
      ex.sendResponseHeaders(200, 0);
      ex.getResponseBody().write(": still thinking\n\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      ex.getResponseBody().flush();
      try {
        Thread.sleep(30_000);
      } catch (InterruptedException stop) {
        Thread.currentThread().interrupt();
      }
      ex.close();
    });
    stuck.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r);
      t.setDaemon(true);
      return t;
    }));
    stuck.start();
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.FIXED))) {
      ProbeOptions.Builder b = DoubleProbes.against(d);
      b.target = URI.create("http://127.0.0.1:" + stuck.getAddress().getPort());
      b.requestTimeout = Duration.ofSeconds(1);
      b.maxRequests = 6;
      b.concurrency = 4;
      long start = System.nanoTime();
      ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
      assertThat(r.canary().exchanges()).isNotEmpty().allSatisfy(e -> {
        assertThat(e.status()).isEqualTo(200);
        assertThat(e.timedOut()).isTrue();
        assertThat(e.accepted()).isFalse();
      });
      assertThat(r.outcome()).isEqualTo(Outcome.COULD_NOT_RUN);
      assertThat(r.reasons()).anyMatch(s -> s.startsWith("none of the 4 fill prompts was served"));
    } finally {
      stuck.stop(0);
    }
  }

  @Test
  void anUnreachableTargetCouldNotBeProbed() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.FIXED))) {
      ProbeOptions.Builder b = DoubleProbes.against(d);
      b.target = URI.create("http://127.0.0.1:" + closed);
      ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);
      assertThat(r.outcome()).isEqualTo(Outcome.COULD_NOT_RUN);
      assertThat(r.reasons()).anyMatch(s -> s.startsWith("the target answered none of"));
    }
  }

  @Test
  void noFlagLiftsTheHardCeilings() {
    ProbeOptions.Builder b = ProbeOptions.builder(URI.create("http://127.0.0.1:1"));
    b.concurrency = ProbeOptions.HARD_CONCURRENCY + 1;
    assertThatThrownBy(b::build).hasMessageContaining("--concurrency");
    b.concurrency = 1;
    b.ratePerSecond = ProbeOptions.HARD_RATE * 2;
    assertThatThrownBy(b::build).hasMessageContaining("--rate");
    b.ratePerSecond = 1;
    b.maxRequests = ProbeOptions.HARD_REQUESTS + 1;
    assertThatThrownBy(b::build).hasMessageContaining("--max-requests");
    b.maxRequests = 1;
    b.target = URI.create("ftp://example.org/");
    assertThatThrownBy(b::build).hasMessageContaining("http");
  }
}
