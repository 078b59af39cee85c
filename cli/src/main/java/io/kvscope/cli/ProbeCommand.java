package io.kvscope.cli;

import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.probe.Endpoint;
import io.kvscope.probe.Probe;
import io.kvscope.probe.ProbeListener;
import io.kvscope.probe.ProbeOptions;
import io.kvscope.probe.ProbeResult;
import io.kvscope.probe.canary.Api;
import io.kvscope.probe.report.ProbeReportWriter;
import io.kvscope.probe.report.ProbeSummary;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "probe",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Check a live deployment for the KV-cache leak, the way its post-mortem did it.",
        "1. Config: reads each server's SGLang server info, model list and Prometheus metrics (vLLM: model list, "
            + "/version, metrics) with GETs only, and judges pool vs context, engine vs --fixed-version and safeguards.",
        "2. Canary test: sends marked synthetic prompts concurrently to fill KV pages, then prompts just past the "
            + "smallest pool and just past the context, interleaved with normal ones, and fails on an over-length "
            + "prompt answered with 2xx, a marker coming back in another request's response, or an over-length "
            + "answer whose first token came sooner than its prefill takes. Markers are random per run; no user data "
            + "is ever sent. Evidence (probe.json, probe.md, probe.html) goes to --out, owner-only.",
        ""
    },
    footerHeading = "%nExamples:%n",
    footer = {
        "  # What would it send? (reads config, sends no prompt)",
        "  kvscope probe --target http://router:30000 --server prefill-0=http://p0:30000 \\",
        "      --server decode-0=http://d0:30000 --dry-run",
        "  # The real test, gently: 2 in flight, 1 request/s, at most 40 requests",
        "  kvscope probe --target http://router:30000 --server http://p0:30000 \\",
        "      --server http://d0:30000 --concurrency 2 --rate 1 --max-requests 40",
        "  # Behind a gateway that hides the engines: say the limits yourself",
        "  KVSCOPE_PROBE_API_KEY=sk-... kvscope probe --target https://gateway.example \\",
        "      --pool-tokens 681280 --context-length 1048576 --api chat",
        "",
        "Exit codes: 0 pass (a dry run: planned, nothing sent), 1 fail, 2 could not run or bad usage."
    })
final class ProbeCommand implements Callable<Integer> {

  @ArgGroup(validate = false, heading = "%nWhere:%n", order = 1)
  Where where = new Where();

  @ArgGroup(validate = false, heading = "%nWhat to check:%n", order = 2)
  Checks checks = new Checks();

  @ArgGroup(validate = false, heading = "%nCanary test:%n", order = 3)
  Canary canary = new Canary();

  @ArgGroup(validate = false, heading = "%nSafety (hard limits cannot be raised):%n", order = 4)
  Safety safety = new Safety();

  @ArgGroup(validate = false, heading = "%nOutput:%n", order = 5)
  Output output = new Output();

  static final class Where {
    @Option(names = {"-t", "--target"}, paramLabel = "URL", order = 1,
        description = "Where clients send requests: the router or gateway, or one server. Prompts go here.")
    URI target;

    @Option(names = {"-s", "--server"}, paramLabel = "[NAME=]URL", order = 2,
        description = "An engine server to read config from (GET only): each prefill and decode server. Repeat. Default: the target.")
    List<String> servers = new ArrayList<>();

    @Option(names = "--model", paramLabel = "NAME", order = 3,
        description = "Model name for chat requests (default: the first one the target lists).")
    String model;

    @Option(names = "--api", paramLabel = "auto|chat|generate|both", defaultValue = "auto", order = 4,
        converter = ApiConverter.class,
        description = "Request paths: chat = /v1/chat/completions, generate = SGLang's /generate; auto = both on SGLang, chat elsewhere (default: ${DEFAULT-VALUE}).")
    Api.Choice api;

    @Option(names = "--api-key-env", paramLabel = "VAR", defaultValue = "KVSCOPE_PROBE_API_KEY", order = 5,
        description = "Environment variable holding the API key, sent as a bearer token and never printed (default: ${DEFAULT-VALUE}; unset: no key).")
    String apiKeyEnv;
  }

  static final class Checks {
    @Option(names = "--fixed-version", paramLabel = "V", defaultValue = AnalysisOptions.DEFAULT_FIXED_VERSION, order = 1,
        description = "First engine release with the admission fix; a pool below the context on an older (or unknown) engine fails (default: ${DEFAULT-VALUE}).")
    String fixedVersion;

    @Option(names = "--pool-tokens", paramLabel = "N", order = 2,
        description = "KV pool size to test against when no endpoint shows it (overrides what endpoints show).")
    Long poolTokens;

    @Option(names = "--context-length", paramLabel = "N", order = 3,
        description = "Context length to test against when no endpoint shows it (overrides what endpoints show).")
    Long contextLength;

    @Option(names = "--config-only", order = 4, description = "Read config endpoints only; send no prompt.")
    boolean configOnly;
  }

  static final class Canary {
    @Option(names = "--fill", paramLabel = "N", defaultValue = "" + ProbeOptions.DEFAULT_FILL_REQUESTS, order = 1,
        description = "Marked prompts sent first, concurrently, to fill KV pages with markers (default: ${DEFAULT-VALUE}).")
    int fill;

    @Option(names = "--fill-tokens", paramLabel = "N", defaultValue = "0", order = 2,
        description = "Their length in tokens (default: sized from the smallest pool, at most 2048).")
    long fillTokens;

    @Option(names = "--normal", paramLabel = "N", defaultValue = "" + ProbeOptions.DEFAULT_NORMAL_REQUESTS, order = 3,
        description = "Short marked prompts interleaved with the over-length ones (default: ${DEFAULT-VALUE}).")
    int normal;

    @Option(names = "--over", paramLabel = "N", defaultValue = "" + ProbeOptions.DEFAULT_OVER_LENGTH_REQUESTS, order = 4,
        description = "Prompts just past each limit, the smallest pool and the context (default: ${DEFAULT-VALUE} each).")
    int over;

    @Option(names = "--over-margin", paramLabel = "F", defaultValue = "" + ProbeOptions.DEFAULT_OVER_MARGIN, order = 5,
        description = "How far past a limit, as a share of it; at least a page (default: ${DEFAULT-VALUE}).")
    double overMargin;

    @Option(names = "--max-new-tokens", paramLabel = "N", defaultValue = "" + ProbeOptions.DEFAULT_MAX_NEW_TOKENS, order = 6,
        description = "Output cap per request (default: ${DEFAULT-VALUE}).")
    int maxNewTokens;

    @Option(names = "--chars-per-token", paramLabel = "F", defaultValue = "" + ProbeOptions.DEFAULT_CHARS_PER_TOKEN, order = 7,
        description = "Prompt length estimate until the server's own counts calibrate it (default: ${DEFAULT-VALUE}).")
    double charsPerToken;
  }

  static final class Safety {
    @Option(names = "--dry-run", order = 1,
        description = "Read config (GET only) and print what would be sent: counts, lengths, estimated tokens. Sends no prompt.")
    boolean dryRun;

    @Option(names = {"-c", "--concurrency"}, paramLabel = "N", defaultValue = "" + ProbeOptions.DEFAULT_CONCURRENCY, order = 2,
        description = "Requests in flight at most (default: ${DEFAULT-VALUE}; hard limit " + ProbeOptions.HARD_CONCURRENCY + ").")
    int concurrency;

    @Option(names = "--max-requests", paramLabel = "N", defaultValue = "" + ProbeOptions.DEFAULT_MAX_REQUESTS, order = 3,
        description = "Requests in the whole run at most (default: ${DEFAULT-VALUE}; hard limit " + ProbeOptions.HARD_REQUESTS + ").")
    int maxRequests;

    @Option(names = "--max-total-tokens", paramLabel = "N", defaultValue = "" + ProbeOptions.DEFAULT_MAX_TOTAL_TOKENS, order = 4,
        description = "Estimated prompt + output tokens in the whole run at most; tests that do not fit are skipped and listed (default: ${DEFAULT-VALUE}; hard limit " + ProbeOptions.HARD_TOTAL_TOKENS + ").")
    long maxTotalTokens;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "" + ProbeOptions.DEFAULT_RATE_PER_SECOND, order = 5,
        description = "Requests started per second at most (default: ${DEFAULT-VALUE}; hard limit " + ProbeOptions.HARD_RATE + ").")
    double rate;

    @Option(names = "--connect-timeout", paramLabel = "DURATION", defaultValue = ProbeOptions.DEFAULT_CONNECT_TIMEOUT_SECONDS + "s", order = 6,
        converter = TimeArguments.DurationConverter.class,
        description = "Connection timeout, e.g. 5s (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = ProbeOptions.DEFAULT_REQUEST_TIMEOUT_SECONDS + "s", order = 7,
        converter = TimeArguments.DurationConverter.class,
        description = "Deadline for each whole request, streamed answer included, e.g. 90s or 10m (default: ${DEFAULT-VALUE}).")
    Duration timeout;
  }

  static final class Output {
    @Option(names = {"-o", "--out"}, paramLabel = "DIR", defaultValue = "kvscope-probe", order = 1,
        description = "Evidence goes to a new folder DIR/probe-<UTC time>-<run tag>/ (JSON, Markdown and HTML), owner-only (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--reveal", order = 2,
        description = "Keep response text in the reports (sensitive: a leaking deployment's answers may hold other customers' data).")
    boolean reveal;

    @Option(names = {"-q", "--quiet"}, order = 3, description = "No progress on stderr.")
    boolean quiet;
  }

  @Override
  public Integer call() throws Exception {
    ProbeOptions options = options(System.getenv(where.apiKeyEnv));
    // Drawn on stderr itself: the stderr commands print to escapes the carriage return.
    java.io.PrintStream terminal = ProgressBarReporter.interactive(output.quiet) ? ProgressBarReporter.terminal() : null;
    ProbeListener progress = terminal != null ? (step, done, total) -> {
      terminal.printf("\rprobe %-6s %d/%d", step, done, total);
      if (done == total) {
        terminal.println();
      }
    } : ProbeListener.NONE;
    ProbeResult result = Probe.run(options, progress);
    ProbeSummary.lines(result).forEach(System.out::println);
    Path dir = ProbeReportWriter.write(result, output.out);
    System.out.println();
    System.out.println("evidence: " + dir.resolve("probe.json") + " (also probe.md, probe.html)");
    return result.outcome().exitCode();
  }

  ProbeOptions options(String apiKey) {
    ProbeOptions.Builder b = ProbeOptions.builder(where.target);
    where.servers.forEach(s -> b.servers.add(Endpoint.parse(s)));
    b.model = where.model;
    b.api = where.api;
    b.apiKey = apiKey;
    b.fixedVersion = checks.fixedVersion;
    b.poolTokens = checks.poolTokens;
    b.contextLength = checks.contextLength;
    b.configOnly = checks.configOnly;
    b.fillRequests = canary.fill;
    b.fillTokens = canary.fillTokens;
    b.normalRequests = canary.normal;
    b.overLengthRequests = canary.over;
    b.overMargin = canary.overMargin;
    b.maxNewTokens = canary.maxNewTokens;
    b.charsPerToken = canary.charsPerToken;
    b.dryRun = safety.dryRun;
    b.concurrency = safety.concurrency;
    b.maxRequests = safety.maxRequests;
    b.maxTotalTokens = safety.maxTotalTokens;
    b.ratePerSecond = safety.rate;
    b.connectTimeout = safety.connectTimeout;
    b.requestTimeout = safety.timeout;
    b.reveal = output.reveal;
    return b.build();
  }

  /** {@code auto}, {@code chat}, {@code generate}, {@code both}, in any case. */
  static final class ApiConverter implements picocli.CommandLine.ITypeConverter<Api.Choice> {
    @Override
    public Api.Choice convert(String value) {
      return Api.Choice.valueOf(value.strip().toUpperCase(java.util.Locale.ROOT));
    }
  }
}
