package io.kvscope.probe;

import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.probe.canary.Api;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Every setting of a probe run, in one typed value the CLI builds. The caps cannot be turned off:
 * each has a hard ceiling ({@code HARD_*}) so no flag can make the probe a load test.
 *
 * @param target where clients send requests (router or gateway, or one server); null with
 *     {@code configOnly}
 * @param servers engine servers whose config endpoints are read (the target when empty)
 * @param model the model name for chat requests; null: the first one the target lists
 * @param fillRequests marked prompts sent first, concurrently
 * @param fillTokens their length in tokens; 0: sized from the smallest pool
 * @param normalRequests short marked prompts interleaved with the over-length ones
 * @param overLengthRequests prompts just past each limit (pool, context)
 * @param overMargin how far past a limit, as a share of it (at least a page and 16 tokens past)
 * @param maxTotalTokens cap on estimated prompt tokens plus output tokens over the whole run
 * @param ratePerSecond requests started per second at most
 * @param poolTokens the pool to test against when no endpoint shows it (null: from endpoints)
 * @param contextLength likewise for the context length
 * @param charsPerToken the length estimate until the server's own counts calibrate it
 * @param timingFactor a first token sooner than this share of the fitted prefill time is too fast
 * @param apiKey sent as a bearer token; never printed or written
 */
public record ProbeOptions(
    URI target,
    List<Endpoint> servers,
    String model,
    Api.Choice api,
    String fixedVersion,
    int fillRequests,
    long fillTokens,
    int normalRequests,
    int overLengthRequests,
    double overMargin,
    int maxNewTokens,
    int concurrency,
    int maxRequests,
    long maxTotalTokens,
    double ratePerSecond,
    Duration connectTimeout,
    Duration requestTimeout,
    Long poolTokens,
    Long contextLength,
    double charsPerToken,
    double timingFactor,
    String apiKey,
    boolean configOnly,
    boolean dryRun,
    boolean reveal) {

  public static final int HARD_CONCURRENCY = 64;
  public static final int HARD_REQUESTS = 2_000;
  public static final long HARD_TOTAL_TOKENS = 50_000_000L;
  public static final double HARD_RATE = 50;
  public static final int HARD_NEW_TOKENS = 4_096;

  public ProbeOptions {
    servers = servers == null ? List.of() : List.copyOf(servers);
    if (target == null && !configOnly) {
      throw new IllegalArgumentException("the canary test needs --target (the URL clients send requests to)");
    }
    if (target == null && servers.isEmpty()) {
      throw new IllegalArgumentException("nothing to probe: give --target or at least one --server");
    }
    if (target != null) {
      new Endpoint("target", target); // validates the URL
    }
    within("--concurrency", concurrency, 1, HARD_CONCURRENCY);
    within("--max-requests", maxRequests, 1, HARD_REQUESTS);
    within("--max-total-tokens", maxTotalTokens, 1, HARD_TOTAL_TOKENS);
    within("--max-new-tokens", maxNewTokens, 1, HARD_NEW_TOKENS);
    within("--fill", fillRequests, 1, HARD_REQUESTS);
    within("--normal", normalRequests, 0, HARD_REQUESTS);
    within("--over", overLengthRequests, 0, HARD_REQUESTS);
    within("--fill-tokens", fillTokens, 0, 1_000_000);
    if (!(ratePerSecond > 0 && ratePerSecond <= HARD_RATE)) {
      throw new IllegalArgumentException("--rate must be above 0 and at most " + HARD_RATE + " requests/s, was " + ratePerSecond);
    }
    if (!(overMargin > 0 && overMargin <= 0.5)) {
      throw new IllegalArgumentException("--over-margin must be above 0 and at most 0.5, was " + overMargin);
    }
    if (!(charsPerToken >= 1 && charsPerToken <= 16)) {
      throw new IllegalArgumentException("--chars-per-token must lie between 1 and 16, was " + charsPerToken);
    }
    if (!(timingFactor > 0 && timingFactor < 1)) {
      throw new IllegalArgumentException("the timing factor must lie strictly between 0 and 1");
    }
    if (connectTimeout == null || connectTimeout.isNegative() || connectTimeout.isZero()
        || requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()) {
      throw new IllegalArgumentException("timeouts must be positive");
    }
    if (poolTokens != null && poolTokens < 1 || contextLength != null && contextLength < 1) {
      throw new IllegalArgumentException("--pool-tokens and --context-length must be positive");
    }
    fixedVersion = fixedVersion == null ? AnalysisOptions.DEFAULT_FIXED_VERSION : fixedVersion;
    api = api == null ? Api.Choice.AUTO : api;
  }

  private static void within(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(name + " must lie between " + min + " and " + max + ", was " + value);
    }
  }

  /** The servers whose config is read: those given, else the target. */
  public List<Endpoint> configEndpoints() {
    return servers.isEmpty() ? List.of(new Endpoint(null, target)) : servers;
  }

  public static Builder builder(URI target) {
    return new Builder(target);
  }

  // The defaults, in one place: the builder starts from them and the CLI's help shows them.
  public static final int DEFAULT_FILL_REQUESTS = 16;
  public static final int DEFAULT_NORMAL_REQUESTS = 4;
  public static final int DEFAULT_OVER_LENGTH_REQUESTS = 2;
  public static final double DEFAULT_OVER_MARGIN = 0.02;
  public static final int DEFAULT_MAX_NEW_TOKENS = 64;
  public static final int DEFAULT_CONCURRENCY = 4;
  public static final int DEFAULT_MAX_REQUESTS = 100;
  public static final long DEFAULT_MAX_TOTAL_TOKENS = 4_000_000L;
  public static final double DEFAULT_RATE_PER_SECOND = 2;
  public static final int DEFAULT_CONNECT_TIMEOUT_SECONDS = 5;
  public static final int DEFAULT_REQUEST_TIMEOUT_SECONDS = 600;
  public static final double DEFAULT_CHARS_PER_TOKEN = 4.0;

  /** Defaults for everything; the CLI and tests change what they need. */
  public static final class Builder {
    public URI target;
    public List<Endpoint> servers = new ArrayList<>();
    public String model;
    public Api.Choice api = Api.Choice.AUTO;
    public String fixedVersion = AnalysisOptions.DEFAULT_FIXED_VERSION;
    public int fillRequests = DEFAULT_FILL_REQUESTS;
    public long fillTokens;
    public int normalRequests = DEFAULT_NORMAL_REQUESTS;
    public int overLengthRequests = DEFAULT_OVER_LENGTH_REQUESTS;
    public double overMargin = DEFAULT_OVER_MARGIN;
    public int maxNewTokens = DEFAULT_MAX_NEW_TOKENS;
    public int concurrency = DEFAULT_CONCURRENCY;
    public int maxRequests = DEFAULT_MAX_REQUESTS;
    public long maxTotalTokens = DEFAULT_MAX_TOTAL_TOKENS;
    public double ratePerSecond = DEFAULT_RATE_PER_SECOND;
    public Duration connectTimeout = Duration.ofSeconds(DEFAULT_CONNECT_TIMEOUT_SECONDS);
    public Duration requestTimeout = Duration.ofSeconds(DEFAULT_REQUEST_TIMEOUT_SECONDS);
    public Long poolTokens;
    public Long contextLength;
    public double charsPerToken = DEFAULT_CHARS_PER_TOKEN;
    public double timingFactor = AnalysisOptions.defaults().timingFactor();
    public String apiKey;
    public boolean configOnly;
    public boolean dryRun;
    public boolean reveal;

    Builder(URI target) {
      this.target = target;
    }

    public ProbeOptions build() {
      return new ProbeOptions(target, servers, model, api, fixedVersion, fillRequests, fillTokens, normalRequests,
          overLengthRequests, overMargin, maxNewTokens, concurrency, maxRequests, maxTotalTokens, ratePerSecond,
          connectTimeout, requestTimeout, poolTokens, contextLength, charsPerToken, timingFactor, apiKey, configOnly,
          dryRun, reveal);
    }
  }

  /** Leaves the API key out, so the options can be printed or logged by mistake without harm. */
  @Override
  public String toString() {
    return "ProbeOptions[target=" + target + ", servers=" + servers + ", apiKey=" + (apiKey == null ? "none" : "(set)") + "]";
  }
}
