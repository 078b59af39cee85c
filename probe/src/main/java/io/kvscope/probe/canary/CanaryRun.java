package io.kvscope.probe.canary;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.analysis.RobustStats;
import io.kvscope.probe.Endpoint;
import io.kvscope.probe.ProbeListener;
import io.kvscope.probe.ProbeOptions;
import io.kvscope.probe.http.Posted;
import io.kvscope.probe.http.ProbeHttp;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends a plan: the fill prompts all at once (up to the concurrency cap), then, with the
 * characters-per-token ratio recalibrated from the server's own counts of those, the interleaved
 * over-length and normal prompts. Every request passes the rate limiter and the budget first.
 */
public final class CanaryRun {

  static final int MAX_RESPONSE_CHARS = 256 * 1024;
  static final long MAX_STREAM_CHARS = 8L << 20;
  /** Markers this close in everyday prompts put one in every KV page of any common page size. */
  static final int DENSE_MARKER_EVERY = 160;
  /** Prompts of megabytes carry fewer, to keep the ledger small. */
  static final int SPARSE_MARKER_EVERY = 4_000;
  static final int MAX_ERROR_CHARS = 500;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The length estimate before and after calibration. */
  public record Calibration(double initial, double used, int samples) {}

  /** Every exchange in send order, the requests the budget refused, and the calibration. */
  public record Result(List<Exchange> exchanges, List<Skipped> refused, Calibration calibration) {}

  private final ProbeHttp http;
  private final Endpoint target;
  private final String model;
  private final ProbeOptions options;
  private final MarkerLedger ledger;
  private final ProbeListener listener;
  private final Budget budget;
  private final RateLimiter rate;
  private final SecureRandom seeds = new SecureRandom();
  private final List<Skipped> refused = new ArrayList<>();

  public CanaryRun(ProbeHttp http, Endpoint target, String model, ProbeOptions options, MarkerLedger ledger,
      ProbeListener listener) {
    this.http = http;
    this.target = target;
    this.model = model;
    this.options = options;
    this.ledger = ledger;
    this.listener = listener;
    this.budget = new Budget(options.maxRequests(), options.maxTotalTokens());
    this.rate = new RateLimiter(options.ratePerSecond());
  }

  public Result run(Plan plan) throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(options.concurrency(), r -> {
      Thread t = new Thread(r, "kvscope-probe-sender");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Exchange> all = new ArrayList<>(send(pool, plan.fill(), plan.charsPerToken(), "fill"));
      Calibration calibration = calibrate(all, plan.charsPerToken());
      all.addAll(send(pool, plan.probes(), calibration.used(), "probe"));
      return new Result(all, refused, calibration);
    } finally {
      pool.shutdownNow();
    }
  }

  /** The median characters per token of the fill prompts the server counted plausibly. */
  static Calibration calibrate(List<Exchange> fills, double initial) {
    List<Double> ratios = new ArrayList<>();
    for (Exchange e : fills) {
      Long counted = e.plausibleServerCount();
      if (e.accepted() && counted != null && counted >= 32) {
        ratios.add((double) e.promptChars() / counted);
      }
    }
    return ratios.isEmpty() ? new Calibration(initial, initial, 0) : new Calibration(initial, RobustStats.median(ratios), ratios.size());
  }

  private List<Exchange> send(ExecutorService pool, List<PlannedRequest> requests, double ratio, String step)
      throws InterruptedException {
    List<PlannedRequest> allowed = new ArrayList<>();
    for (PlannedRequest r : requests) {
      if (budget.reserve(r.targetTokens() + options.maxNewTokens())) {
        allowed.add(r);
      } else {
        refused.add(new Skipped(r.id(), "the run's caps were reached (--max-requests / --max-total-tokens)"));
      }
    }
    AtomicInteger done = new AtomicInteger();
    List<Future<Exchange>> futures = new ArrayList<>();
    for (PlannedRequest r : allowed) {
      futures.add(pool.submit(() -> {
        Exchange e = exchange(r, ratio);
        listener.progress(step, done.incrementAndGet(), allowed.size());
        return e;
      }));
    }
    List<Exchange> out = new ArrayList<>();
    for (Future<Exchange> f : futures) {
      try {
        out.add(f.get());
      } catch (ExecutionException bug) {
        throw new IllegalStateException("a probe request failed unexpectedly", bug.getCause());
      }
    }
    return out;
  }

  private Exchange exchange(PlannedRequest r, double ratio) throws InterruptedException {
    int chars = (int) Math.min(Integer.MAX_VALUE - 4096, Math.round(r.targetTokens() * ratio));
    int every = r.kind().overLength() ? SPARSE_MARKER_EVERY : DENSE_MARKER_EVERY;
    PromptText.Built prompt = PromptText.build(r.id(), ledger.markers().runTag(), chars, every, ledger, seeds.nextLong());
    String tag = "kvscope-probe-" + ledger.markers().runTag() + "-" + r.id();
    String body = r.api().body(model, prompt.text(), options.maxNewTokens(), tag);
    ResponseState state = new ResponseState(r.api(), MAX_RESPONSE_CHARS);
    rate.acquire();
    Instant sentAt = Instant.now();
    Posted posted = http.postJson(target.resolve(r.api().path()), body, MAX_STREAM_CHARS, state::accept);
    long estimated = Math.round(prompt.text().length() / ratio);
    Double ttft = state.firstTokenNanos < 0 ? null : state.firstTokenNanos / 1e6;
    return new Exchange(r, prompt.text().length(), estimated, prompt.markers(), prompt.firstMarker(), sentAt,
        posted.status(), state.inBandError == null ? null : cap(state.inBandError), errorMessage(posted.errorBody()),
        posted.error(), ttft, posted.endNanos() / 1e6, state.promptTokens, state.completionTokens, state.finishReason,
        state.text(), state.truncated || posted.truncated(), posted.timedOut());
  }

  /** The message of an error body ({@code {"message": ...}} or {@code {"error": {...}}}), capped. */
  static String errorMessage(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      JsonNode root = JSON.readTree(body);
      if (root != null && root.isObject()) {
        String m = ResponseState.errorOf(root);
        if (m == null && root.has("message")) {
          m = root.get("message").asText();
        }
        if (m == null && root.has("detail")) {
          m = root.get("detail").asText();
        }
        if (m != null) {
          return cap(m);
        }
      }
    } catch (java.io.IOException notJson) {
      // plain text: kept as it is, capped
    }
    return cap(body);
  }

  private static String cap(String s) {
    return s.length() <= MAX_ERROR_CHARS ? s : s.substring(0, MAX_ERROR_CHARS) + "...";
  }
}
