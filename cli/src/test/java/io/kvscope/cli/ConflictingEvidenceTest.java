package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.samples.truth.GroundTruth;
import io.kvscope.samples.truth.WindowTruth;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attacker who controls one tenant's telemetry (or can drop files beside the logs) and the
 * operator whose records are wrong: each case adds hostile or mistaken files to a generated
 * incident, ingests both folders through the real command line and analyzes them. The generator's
 * ground truth (its leaked responses, over-length prompts accepted, prefill underruns and
 * vulnerable windows) must still stand, no input may stop analyze or audit, and where evidence
 * disagrees the disagreement must be named.
 */
class ConflictingEvidenceTest {

  /** Node clocks are corrected by an estimate that includes gateway-to-engine latency. */
  static final Duration WINDOW_TOLERANCE = Duration.ofSeconds(2);

  @TempDir static Path shared;
  static Path incident;
  static GroundTruth truth;

  @TempDir Path tmp;

  @BeforeAll
  static void generateTheIncident() throws IOException {
    incident = shared.resolve("incident");
    CliTestSupport.Run generate = CliTestSupport.run("generate", "--out", incident.toString(), "--seed", "1",
        "--scale", "0.05x");
    assertThat(generate.exitCode()).as(generate.err()).isZero();
    truth = GroundTruth.load(incident.resolve("truth.json"));
    assertThat(truth.leakedRequestIds()).as("the incident has leaks to lose").isNotEmpty();
  }

  /** Version texts of every size and syntax, and the format corners around them: nothing stops a command. */
  @Test
  void versionsOfAnySizeAndSyntaxStopNoCommand() throws Exception {
    Path hostile = tmp.resolve("hostile");
    write(hostile.resolve("deployment/more-versions.csv"), """
        node,from,to,version,engine,image
        sglang-decode-a0,2026-08-20T00:01:00Z,,99999999999999999999.1,sglang,
        sglang-decode-b0,2026-08-20T00:05:00Z,,0.5.\u001b[2Jx,sglang,
        sglang-decode-a1,2026-08-20T00:02:00Z,,0.5.19,sglang,"lmsysorg/sglang:v0.5.19
        -cu126"
        """);
    write(hostile.resolve("deployment/pods-overflow.json"), """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"sglang-decode-b1","creationTimestamp":"2026-08-20T00:04:00Z"},
         "spec":{"containers":[{"name":"sglang","image":"lmsysorg/sglang:v99999999999999999999.0-cu126"}]},
         "status":{"containerStatuses":[{"name":"sglang","image":"lmsysorg/sglang:v99999999999999999999.0-cu126",
           "state":{"running":{"startedAt":"2026-08-20T00:04:00Z"}}}]}}
        """);
    write(hostile.resolve("engine/vllm-side.log"), """
        INFO 08-25 10:00:00 [api_server.py:1] vLLM API server version 99999999999999999999.0
        INFO 08-25 10:00:01 [api_server.py:1] Starting vLLM API server on http://0.0.0.0:8000
        """);
    write(hostile.resolve("engine/vllm-odd.log"), """
        INFO 08-25 10:00:00 [api_server.py:1] vLLM API server version 0.10.x]52;c;SGVsbG8=
        INFO 08-25 10:00:01 [api_server.py:1] Starting vLLM API server on http://0.0.0.0:8000
        """);
    // A first YAML document past the detection head (the attack used 120 MB), then a Pod.
    write(hostile.resolve("deployment/cluster-dump.yaml"), "--- \"" + "x".repeat(io.kvscope.ingest.Sniff.HEAD_BYTES + 4096)
        + "\"\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: sglang-decode-a1\n  creationTimestamp: \"2026-08-20T00:02:00Z\"\n"
        + "spec:\n  containers:\n  - name: sglang\n    image: lmsysorg/sglang:v0.5.19-cu126\n");
    write(hostile.resolve("metrics/sglang-decode-a0-20260901T000000Z.prom"), """
        sglang:max_total_num_tokens{engine_type="decode",pod="sglang-decode-a0",tp_rank="0"} NaN
        sglang:context_len{engine_type="decode",pod="sglang-decode-a0",tp_rank="0"} -Inf
        """);

    Outcome run = attack(hostile);

    run.assertTruthStands();
    assertThat(run.ingest.out()).doesNotContain("unrecognized files")
        .contains("a quoted cell runs over a line break").doesNotContain("not valid JSON")
        .contains("prom: 0 records, 2 bad (first at line 1: sglang:max_total_num_tokens is NaN, which is no size");
    assertThat(run.ingest.out() + run.analyze.out() + run.audit.out()).doesNotContain("Exception").doesNotContain("For input string");
    assertThat(HostileIncident.rawControls(run.ingest.out() + run.analyze.out() + run.audit.out() + run.analyze.err()))
        .isEmpty();
    String json = Files.readString(run.reports.resolve("report.json"));
    assertThat(json).as("the unreadable version, escaped, where the report cites the manifest").contains("0.5.\\\\x1b[2Jx")
        .contains("version \\\"0.10.x\\\\x1b]52;c;SGVsbG8=\\\\x07\\\" is not a release number: unknown");
  }

  /** Aliases from forged labels, a manifest and the user that would join nodes the engine logs keep apart. */
  @Test
  void nodeIdentityFollowsNoAliasTheLogsContradict() throws Exception {
    Path hostile = tmp.resolve("hostile");
    write(hostile.resolve("metrics/federate-20260901T000000Z.prom"), """
        sglang:max_total_num_tokens{engine_type="prefill",pod="sglang-decode-a0",instance="sglang-prefill-a0"} 681280
        sglang:max_total_num_tokens{engine_type="prefill",pod="sglang-decode-a0",instance="sglang-prefill-a1"} 681280
        """);
    write(hostile.resolve("deployment/aliases.csv"), """
        node,aliases
        sglang-prefill-b0,sglang-prefill-b1
        """);

    Outcome run = attack(hostile, "--node-alias", "10.20.2.21:30000=sglang-prefill-a1");

    run.assertTruthStands();
    // Both the command line and the manifest are the operator's word; the first one weighed is followed, the other named.
    assertThat(run.ingest.out()).contains("Node names kept apart (the engine logs disagree with the alias): 5")
        .contains("alias sglang-prefill-a0 = sglang-decode-a0 (prometheus, ")
        .contains("not followed: its logs show sglang-prefill-a0 as prefill and sglang-decode-a0 as decode")
        .contains("alias sglang-prefill-b1 = sglang-prefill-b0 (user, ")
        .contains("alias 10.20.2.21:30000 = sglang-decode-b1 (user, ")
        .contains("not followed: its logs show sglang-prefill-a1 as prefill and sglang-decode-b1 as decode");

    CliTestSupport.Run colliding = CliTestSupport.run("ingest", hostile.toString(), "--index", tmp.resolve("other").toString(),
        "--node-alias", "10.20.1.10:30000=sglang-prefill-a0", "--node-alias", "10.20.1.10:30000=sglang-decode-b1");
    assertThat(colliding.exitCode()).isEqualTo(2);
    assertThat(colliding.err()).contains("--node-alias names 10.20.1.10:30000 as two nodes, sglang-prefill-a0 and "
        + "sglang-decode-b1: give each alias one node");
    assertThat(tmp.resolve("other")).doesNotExist();
  }

  /**
   * Lines forged with the bootstrap rooms of the over-length requests: a made-up prefill rid with a
   * short prompt on each. The room is ambiguous; the real prefill side still joins. (A room claimed
   * by another request's own rid is RoomRuleTest's and PrefillJoinTest's.)
   */
  @Test
  void aRoomClaimedByMoreThanOnePairTakesNoRequestsPrefillSideAway() throws Exception {
    java.util.Map<String, String[]> decode = decodeStats();
    List<String> victims = truth.overLengthAcceptedIds().stream().sorted().map(id -> id.replace("chatcmpl-", "")).toList();
    assertThat(victims).hasSizeGreaterThanOrEqualTo(2).allMatch(decode::containsKey);
    StringBuilder forged = new StringBuilder();
    for (int i = 0; i < victims.size(); i++) {
      String[] at = decode.get(victims.get(i));
      // a rid no record names, with a short prompt on the request's room
      forged.append(statsLine(at[0], "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f" + i, at[1], "prefill", 12));
    }
    Path hostile = tmp.resolve("hostile");
    write(hostile.resolve("engine/sglang-prefill-z9.log"), forged.toString());

    Outcome run = attack(hostile);

    run.assertTruthStands();
    assertThat(run.ingest.out()).contains("ambiguous bootstrap rooms (more rids than one pair, or a rid another request "
        + "claims; every unclaimed rid joined): " + victims.size());
    // Every finding on a victim names its room; a leak finding in its confidence reasons.
    Map<String, String> named = new java.util.HashMap<>();
    for (String victim : victims) {
      named.put("chatcmpl-" + victim, "bootstrap_room " + decode.get(victim)[1] + " was logged with 3 rids (a pair has 2)");
    }
    List<Finding> onVictims = run.report.findings().stream().filter(f -> named.containsKey(f.requestId())).toList();
    assertThat(onVictims).extracting(Finding::kind).contains(FindingKind.OVER_LENGTH_ACCEPTED);
    assertThat(onVictims).filteredOn(f -> f.kind().isCrossTenantLeak()).as("the victims leaked").isNotEmpty();
    assertThat(onVictims).allSatisfy(f -> {
      String expected = named.get(f.requestId());
      switch (f.evidence()) {
        case io.kvscope.model.finding.Evidence.OverLength e -> assertThat(e.roomAmbiguous()).startsWith(expected);
        case io.kvscope.model.finding.Evidence.Underrun e -> assertThat(e.roomAmbiguous()).startsWith(expected);
        case io.kvscope.model.finding.Evidence.OfLeak e -> assertThat(e.confidenceReason())
            .anyMatch(r -> r.startsWith("room-ambiguous: " + expected));
        default -> { }
      }
    });
    assertThat(clean().report.findings()).as("no room is ambiguous in the clean incident").allSatisfy(f -> {
      switch (f.evidence()) {
        case io.kvscope.model.finding.Evidence.OverLength e -> assertThat(e.roomAmbiguous()).isNull();
        case io.kvscope.model.finding.Evidence.Underrun e -> assertThat(e.roomAmbiguous()).isNull();
        case io.kvscope.model.finding.Evidence.OfLeak e -> assertThat(e.confidenceReason())
            .noneMatch(r -> r.startsWith("room-ambiguous"));
        default -> { }
      }
    });
  }

  /**
   * Each over-length request's own rid logged by a prefill node nobody runs, with the next such
   * request's room and time: the rid now names two rooms. Its own decode lines and the room they
   * name decide its join; the forged room neither moves its nodes nor takes the leak away (before,
   * a write-time join through the forged room stuck to the request when it was linked again).
   */
  @Test
  void aRequestsOwnRidLoggedWithAnotherRequestsRoomMovesNoFactsAndErasesNoLeak() throws Exception {
    java.util.Map<String, String[]> decode = decodeStats();
    List<String> victims = truth.overLengthAcceptedIds().stream().sorted().map(id -> id.replace("chatcmpl-", "")).toList();
    assertThat(victims).hasSizeGreaterThanOrEqualTo(2).allMatch(decode::containsKey);
    StringBuilder forged = new StringBuilder();
    for (int i = 0; i < victims.size(); i++) {
      String[] next = decode.get(victims.get((i + 1) % victims.size()));
      forged.append(statsLine(next[0], victims.get(i), next[1], "prefill", 12));
    }
    Path hostile = tmp.resolve("hostile");
    write(hostile.resolve("engine/sglang-prefill-z8.log"), forged.toString());

    Outcome run = attack(hostile);

    run.assertTruthStands();
    assertThat(run.requestsWith(FindingKind::isCrossTenantLeak)).isEqualTo(clean().requestsWith(FindingKind::isCrossTenantLeak));
  }

  /**
   * In the middle of each vulnerable window, on its node, a 3-line vLLM log (for the a nodes) or a
   * 2-line SGLang restart with a pool above the context length (for the b nodes), while the node's
   * own log goes on around it: no window ends there, and each names what was assumed, on stdout
   * after ingest and analyze and in report.json's window.
   */
  @Test
  void aShortLogInsideTheNodesOwnLogEndsNoWindow() throws Exception {
    List<WindowTruth> windows = truth.windows().stream().filter(w -> w.kind().equals("vulnerable")).toList();
    assertThat(windows).hasSizeGreaterThanOrEqualTo(2);
    Path hostile = tmp.resolve("hostile");
    java.time.format.DateTimeFormatter vllm = java.time.format.DateTimeFormatter.ofPattern("MM-dd HH:mm:ss")
        .withZone(java.time.ZoneOffset.UTC);
    java.time.format.DateTimeFormatter sglang = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
        .withZone(java.time.ZoneOffset.UTC);
    Map<String, String> fragments = new java.util.TreeMap<>();
    for (int i = 0; i < windows.size(); i++) {
      WindowTruth w = windows.get(i);
      java.time.Instant mid = w.start().plus(Duration.between(w.start(), w.end()).dividedBy(2))
          .truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
      String file = "engine/" + w.node() + ".fragment-" + i + ".log";
      fragments.put(w.node(), file);
      write(hostile.resolve(file), i % 2 == 0 ? """
          INFO %1$s [api_server.py:1] vLLM API server version 0.10.1
          INFO %1$s [api_server.py:1] Starting vLLM API server on http://0.0.0.0:8000
          INFO %1$s [gpu_worker.py:1] GPU KV cache size: 2,000,000 tokens
          """.formatted(vllm.format(mid)) : """
          [%1$s] server_args=ServerArgs(model_path='/models/m', context_length=262144, page_size=64, disaggregation_mode='prefill')
          [%1$s TP0] max_total_num_tokens=2000000, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=128, context_len=262144, available_gpu_mem=39.64 GB
          """.formatted(sglang.format(mid)));
    }

    Outcome run = attack(hostile);

    run.assertTruthStands();
    assertThat(run.ingest.out()).contains("Starts read as no restart (a short log inside a longer log of the same node): "
        + windows.size());
    for (Map.Entry<String, String> fragment : fragments.entrySet()) {
      assertThat(run.vulnerable()).filteredOn(w -> w.node().equals(fragment.getKey())).singleElement()
          .satisfies(w -> assertThat(w.reason()).contains("; ASSUMED: ").contains(fragment.getValue() + " (")
              .contains("assumed no restart, its config not used"));
    }
    assertThat(run.analyze.out()).contains("ASSUMED: ");
    assertThat(clean().vulnerable()).allSatisfy(w -> assertThat(w.reason()).doesNotContain("ASSUMED"));
  }

  /** Each decode rid's time and bootstrap room, from the incident's SGLang decode logs. */
  private static java.util.Map<String, String[]> decodeStats() throws IOException {
    java.util.Map<String, String[]> stats = new java.util.HashMap<>();
    java.util.regex.Pattern line = java.util.regex.Pattern.compile(
        "^\\[([^\\]]+?)(?: TP\\d+)?] Req Time Stats\\(rid=(\\w+), bootstrap_room=(\\d+),.*type=decode");
    try (var files = Files.list(incident.resolve("engine"))) {
      for (Path log : files.filter(f -> f.getFileName().toString().startsWith("sglang-decode")).toList()) {
        java.io.InputStream in = Files.newInputStream(log);
        if (log.toString().endsWith(".gz")) {
          in = new java.util.zip.GZIPInputStream(in);
        }
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8))) {
          lines.lines().map(line::matcher).filter(java.util.regex.Matcher::find)
              .forEach(m -> stats.put(m.group(2), new String[] {m.group(1), m.group(3)}));
        }
      }
    }
    return stats;
  }

  private static String statsLine(String time, String rid, String room, String type, int inputLen) {
    return "[" + time + " TP0] Req Time Stats(rid=" + rid + ", bootstrap_room=" + room + ", input len=" + inputLen
        + ", output len=1, type=" + type + "): bootstrap_queue_duration(2.31ms) = bootstrap(2.00ms) + alloc_wait(0.31ms);"
        + " queue_duration=31.00ms, forward_duration=77.00ms, start=132569.197, transfer_speed=14.32GB/s,"
        + " transfer_total=1.00MB, #retries=0\n";
  }

  /**
   * A pod list claiming the patched release for each prefill pod, started just before its window:
   * the manifest says otherwise, and some of these nodes' own logs show the mechanism. Every window
   * stays open, and stdout, the report and the audit name the conflict.
   */
  @Test
  void aDeploymentRecordClaimingAPatchedReleaseClosesNoWindowItContradicts() throws Exception {
    StringBuilder pods = new StringBuilder("{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[");
    List<WindowTruth> windows = truth.windows().stream().filter(w -> w.kind().equals("vulnerable")).toList();
    for (int i = 0; i < windows.size(); i++) {
      String started = windows.get(i).start().minusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
      pods.append(i == 0 ? "" : ",").append("""
          {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","creationTimestamp":"%s"},
           "spec":{"containers":[{"name":"sglang","image":"lmsysorg/sglang:v0.5.22-cu126"}]},
           "status":{"containerStatuses":[{"name":"sglang","image":"lmsysorg/sglang:v0.5.22-cu126",
             "state":{"running":{"startedAt":"%s"}}}]}}""".formatted(windows.get(i).node(), started, started));
    }
    Path hostile = tmp.resolve("hostile");
    write(hostile.resolve("deployment/pods-claimed.json"), pods.append("]}\n").toString());

    Outcome run = attack(hostile);

    run.assertTruthStands();
    assertThat(run.analyze.out()).contains("records disagree: Kubernetes pod status");
    assertThat(run.vulnerable()).allSatisfy(w -> assertThat(w.reason()).contains("records disagree"));
    assertThat(run.audit.out()).contains("config_unpatched_engine:" + windows.get(0).node());
  }

  /**
   * One more LiteLLM line per leaked request, same {@code id}, a longer harmless reply (a shipper's
   * duplicate, a retry logged under the same id, or a forged line): the merge keeps the longer reply,
   * the leaked one stays beside it as a copy, and the leak is still found, with the copies named.
   */
  @Test
  void aSecondCopyOfAGatewayLineWithALongerHarmlessReplyErasesNoLeak() throws Exception {
    Map<String, ObjectNode> lines = gatewayLines(truth.leakedRequestIds()::contains);
    assertThat(lines.keySet()).isEqualTo(truth.leakedRequestIds());
    Map<String, String> leakedReplies = new java.util.HashMap<>();
    lines.forEach((id, line) -> leakedReplies.put(id, line.at("/response/choices/0/message/content").asText()));
    Outcome run = attackWithSecondLines(lines, "litellm-retry.jsonl", line -> {
      ObjectNode message = (ObjectNode) line.at("/response/choices/0/message");
      message.put("content", longerThan(message.get("content").asText(),
          "Thank you for your question; here is a short overview of the topic you raised. "));
    });

    run.assertTruthStands();
    assertThat(run.requestsWith(k -> k == FindingKind.RARE_IDENTIFIER_LEAK || k == FindingKind.CANARY_LEAK))
        .as("identifier leaks as in the clean incident").isEqualTo(clean().requestsWith(
            k -> k == FindingKind.RARE_IDENTIFIER_LEAK || k == FindingKind.CANARY_LEAK));
    assertThat(run.report.summary().requestsWithDisagreeingCopies()).isEqualTo(lines.size());
    assertThat(run.analyze.out()).contains("copies disagree: " + lines.size() + " requests logged more than once");
    assertThat(Files.readString(run.reports.resolve("report.md"))).contains("Copies disagree: " + lines.size());
    assertThat(run.report.findings()).filteredOn(f -> f.kind() == FindingKind.CROSS_TENANT_OVERLAP
        && truth.leakedRequestIds().contains(f.requestId())).isNotEmpty().allSatisfy(f ->
        assertThat(((io.kvscope.model.finding.Evidence.OfLeak) f.evidence()).confidenceReason())
            .anyMatch(r -> r.startsWith("copies-disagree: 2 texts of this reply were logged (kept: gateway ")
                && r.contains("litellm-retry.jsonl:") && r.contains("found in the copy from gateway ")));

    // Each span names the copy its reply offsets are in (the incident's own line), in report.json and
    // the findings table, and the report shows that copy's text at them: its keyed hash, redacted.
    List<Finding> leaks = run.report.findings().stream().filter(f -> f.kind() == FindingKind.CROSS_TENANT_OVERLAP
        && truth.leakedRequestIds().contains(f.requestId())).toList();
    String markdown = Files.readString(run.reports.resolve("report.md"));
    try (io.kvscope.index.IndexSearch index = io.kvscope.index.IndexSearch.open(run.index())) {
      for (Finding f : leaks) {
        String reply = leakedReplies.get(f.requestId());
        List<io.kvscope.model.finding.Span> spans = f.sources().stream().flatMap(s -> s.spans().stream()).toList();
        assertThat(spans).as(f.id()).isNotEmpty().allSatisfy(span -> {
          assertThat(span.responseCopy()).startsWith("gateway ").doesNotContain("litellm-retry.jsonl");
          assertThat(markdown).contains(span.responseStart() + "\u2013" + span.responseEnd() + " in the reply copy from "
              + span.responseCopy()).contains(index.redaction().hash(reply.substring(span.responseStart(), span.responseEnd())));
        });
      }
    }
    assertThat(markdown).doesNotContain("found in another logged copy");
    assertThat(Files.readString(run.reports.resolve("findings.ndjson"))).contains("\"recipient_copy\":\"gateway ");
  }

  /**
   * One more LiteLLM line for each request whose prompt leaked (and each other request that held the
   * leaked passage), same {@code id}, its messages a longer harmless text: the merge keeps the longer
   * prompt, and the one that held the passage stays beside it as a copy. The request is still the
   * source: the leak is found and attributed to it, and the finding names the copy it was found in.
   */
  @Test
  void aSecondCopyOfAGatewayLineWithAnotherPromptTakesNoLeakSourceAway() throws Exception {
    Set<String> holders = new java.util.TreeSet<>();
    truth.leakedResponses().forEach(leak -> leak.sources().stream()
        .filter(s -> s.expected() && s.part().equals("prompt"))
        .forEach(s -> s.holders().forEach(h -> holders.add(h.requestId()))));
    assertThat(holders).as("the incident has a leak out of a prompt").isNotEmpty();
    Map<String, ObjectNode> lines = gatewayLines(holders::contains);
    assertThat(lines.keySet()).isEqualTo(holders);
    Outcome run = attackWithSecondLines(lines, "litellm-prompts.jsonl", line -> {
      for (var message : line.withArray("messages")) {
        ((ObjectNode) message).put("content", longerThan(message.path("content").asText(),
            "Please summarise the attached notes in plain words for our team. "));
      }
    });

    run.assertTruthStands();
    assertThat(run.report.summary().requestsWithDisagreeingCopies()).isEqualTo(lines.size());
    for (var leak : truth.leakedResponses()) {
      Set<String> fromPrompts = leak.sources().stream().filter(s -> s.expected() && s.part().equals("prompt"))
          .map(io.kvscope.samples.truth.SourceTruth::requestId).collect(Collectors.toSet());
      if (fromPrompts.isEmpty()) {
        continue;
      }
      assertThat(run.report.findings()).filteredOn(f -> f.kind() == FindingKind.CROSS_TENANT_OVERLAP
          && f.requestId().equals(leak.requestId())).singleElement().satisfies(f -> {
            assertThat(f.sources()).extracting(io.kvscope.model.finding.Source::requestId).containsAll(fromPrompts);
            assertThat(((io.kvscope.model.finding.Evidence.OfLeak) f.evidence()).confidenceReason())
                .anyMatch(r -> r.startsWith("copies-disagree: the prompt of source ") && r.contains(" was found in its copy "
                    + "from gateway ") && r.contains("(kept: gateway ") && r.contains("litellm-prompts.jsonl:"));
            // Its spans name the copy of the prompt their source offsets are in: the incident's own line.
            assertThat(f.sources()).filteredOn(s -> fromPrompts.contains(s.requestId()))
                .flatExtracting(io.kvscope.model.finding.Source::spans).isNotEmpty()
                .filteredOn(span -> span.sourceField().equals("prompt_text")).isNotEmpty()
                .allSatisfy(span -> assertThat(span.sourceCopy()).startsWith("gateway ")
                    .doesNotContain("litellm-prompts.jsonl"));
          });
    }
  }

  /**
   * The recipient's own telemetry: an OTLP span for each of the recipient tenant's requests just
   * before the leak, its reply going on with the leaked reply. A trace never extends the gateway's
   * text, and a copy is never a source: the leaks stay cross-tenant, and the planted copies, which
   * only a trace claims, count nothing.
   */
  @Test
  void theRecipientsOwnTracePlantingTheLeakedReplyIntoItsEarlierRequestsTurnsNoLeakIntoReuse() throws Exception {
    Map<String, ObjectNode> leaked = gatewayLines(truth.leakedRequestIds()::contains);
    Map<String, List<ObjectNode>> earlier = earlierOfTheSameTenant(leaked);
    StringBuilder spans = new StringBuilder();
    int planted = 0;
    for (ObjectNode leak : leaked.values()) {
      String reply = leak.at("/response/choices/0/message/content").asText();
      for (ObjectNode before : earlier.get(leak.get("id").asText())) {
        spans.append(span(before, null, before.at("/response/choices/0/message/content").asText() + " " + reply))
            .append('\n');
        planted++;
      }
    }
    assertThat(planted).as("the recipients have earlier requests to plant into").isPositive();
    Path hostile = tmp.resolve("hostile");
    write(hostile.resolve("traces/recipient-spans.jsonl"), spans.toString());

    Outcome run = attack(hostile);

    run.assertTruthStands();
    assertThat(run.requestsWith(k -> k == FindingKind.SAME_TENANT_REUSE)).as("same-tenant reuse as in the clean incident")
        .isEqualTo(clean().requestsWith(k -> k == FindingKind.SAME_TENANT_REUSE));
    assertThat(run.report.summary().leakedResponsesOwnTenantAlsoHeld())
        .isEqualTo(clean().report.summary().leakedResponsesOwnTenantAlsoHeld());
    assertThat(run.report.summary().requestsWithDisagreeingCopies()).isEqualTo(planted);
    assertThat(run.report.findings()).filteredOn(f -> f.kind().isCrossTenantLeak()
        && !truth.leakedRequestIds().contains(f.requestId())).allSatisfy(f -> {
          assertThat(f.confidence().counts()).isFalse();
          assertThat(((io.kvscope.model.finding.Evidence.OfLeak) f.evidence()).confidenceReason())
              .anyMatch(r -> r.startsWith("copies-disagree: ") && r.endsWith("suspect"));
        });
  }

  /**
   * The same plant into prompts: an OTLP span for each of the recipient tenant's requests just
   * before the leak, its prompt the leaked reply. A prompt copy only a trace gives is a source for
   * other tenants at most, never a holder of the recipient's own tenant: the leaks stay cross-tenant,
   * with no own-tenant holder added, and no reuse is made of them.
   */
  @Test
  void theRecipientsOwnTracePlantingTheLeakedReplyIntoItsEarlierPromptsTurnsNoLeakIntoReuse() throws Exception {
    Map<String, ObjectNode> leaked = gatewayLines(truth.leakedRequestIds()::contains);
    Map<String, List<ObjectNode>> earlier = earlierOfTheSameTenant(leaked);
    StringBuilder spans = new StringBuilder();
    Set<String> planted = new java.util.TreeSet<>();
    for (ObjectNode leak : leaked.values()) {
      String reply = leak.at("/response/choices/0/message/content").asText();
      for (ObjectNode before : earlier.get(leak.get("id").asText())) {
        spans.append(span(before, reply, before.at("/response/choices/0/message/content").asText())).append('\n');
        planted.add(before.get("id").asText());
      }
    }
    assertThat(planted).as("the recipients have earlier requests to plant into").isNotEmpty();
    Path hostile = tmp.resolve("hostile");
    write(hostile.resolve("traces/recipient-prompts.jsonl"), spans.toString());

    Outcome run = attack(hostile);

    run.assertTruthStands();
    assertThat(run.report.summary().requestsWithDisagreeingCopies()).isEqualTo(planted.size());
    assertThat(run.requestsWith(k -> k == FindingKind.SAME_TENANT_REUSE)).as("same-tenant reuse as in the clean incident")
        .isEqualTo(clean().requestsWith(k -> k == FindingKind.SAME_TENANT_REUSE));
    assertThat(run.report.summary().leakedResponsesOwnTenantAlsoHeld())
        .isEqualTo(clean().report.summary().leakedResponsesOwnTenantAlsoHeld());
    assertThat(run.report.findings()).filteredOn(f -> f.kind().isCrossTenantLeak())
        .allSatisfy(f -> assertThat(f.sources()).extracting(io.kvscope.model.finding.Source::requestId)
            .doesNotContainAnyElementsOf(planted));
  }

  /**
   * The recipient's own telemetry extending prompts: an OTLP span for each of the recipient tenant's
   * prefilled requests before the leak whose prompt goes on, past the gateway's, with the leaked
   * reply. Had the trace's longer prompt been kept (a text that extends the kept one agrees with it),
   * the recipient's own tenant would hold the leaked text in prompts it prefilled within reach, and
   * the leak would look like its own data come back. The gateway's prompt stays the kept one, the
   * trace's is a conflict and a copy, and the counts stand.
   */
  @Test
  void theRecipientsOwnTraceExtendingItsEarlierPromptsWithTheLeakedReplyReplacesNoGatewayPrompt() throws Exception {
    Map<String, ObjectNode> leaked = gatewayLines(truth.leakedRequestIds()::contains);
    Set<String> neverPrefilled = new java.util.HashSet<>(truth.overLengthAcceptedIds());
    neverPrefilled.addAll(truth.prefillUnderrunIds());
    Map<String, String> kept = new java.util.TreeMap<>();
    StringBuilder spans = new StringBuilder();
    try (io.kvscope.index.IndexSearch index = io.kvscope.index.IndexSearch.open(clean().index())) {
      io.kvscope.analysis.report.TextSource texts = new io.kvscope.analysis.report.IndexTextSource(index);
      for (ObjectNode leak : leaked.values()) {
        String reply = leak.at("/response/choices/0/message/content").asText();
        for (ObjectNode before : earlierOfTheSameTenant(leaked, EXTENDED_PER_LEAK).get(leak.get("id").asText())) {
          String id = before.get("id").asText();
          String prompt = texts.text(id, io.kvscope.analysis.report.TextSource.PROMPT);
          if (neverPrefilled.contains(id) || prompt == null || kept.containsKey(id)) {
            continue;
          }
          kept.put(id, prompt);
          spans.append(span(before, prompt + "\n\n" + reply, before.at("/response/choices/0/message/content").asText()))
              .append('\n');
        }
      }
    }
    assertThat(kept).as("the recipients have earlier prefilled requests to extend").isNotEmpty();
    Path hostile = tmp.resolve("hostile");
    write(hostile.resolve("traces/recipient-extended-prompts.jsonl"), spans.toString());

    Outcome run = attack(hostile);

    run.assertTruthStands();
    assertThat(run.report.summary().leakedResponsesOwnTenantAlsoHeld())
        .isEqualTo(clean().report.summary().leakedResponsesOwnTenantAlsoHeld());
    assertThat(run.requestsWith(k -> k == FindingKind.SAME_TENANT_REUSE)).as("same-tenant reuse as in the clean incident")
        .isEqualTo(clean().requestsWith(k -> k == FindingKind.SAME_TENANT_REUSE));
    assertThat(run.report.summary().requestsWithDisagreeingCopies()).isEqualTo(kept.size());
    try (io.kvscope.index.IndexSearch index = io.kvscope.index.IndexSearch.open(run.index())) {
      io.kvscope.analysis.report.TextSource texts = new io.kvscope.analysis.report.IndexTextSource(index);
      for (Map.Entry<String, String> gateway : kept.entrySet()) {
        assertThat(texts.text(gateway.getKey(), io.kvscope.analysis.report.TextSource.PROMPT)).as(gateway.getKey())
            .isEqualTo(gateway.getValue());
        var hit = index.searcher().search(new org.apache.lucene.search.TermQuery(new org.apache.lucene.index.Term(
            io.kvscope.index.doc.Schema.REQUEST_ID, gateway.getKey())), 1).scoreDocs[0];
        assertThat(index.reader().storedFields().document(hit.doc).getValues(io.kvscope.index.doc.Schema.MERGE_CONFLICT))
            .anyMatch(c -> c.startsWith("prompt_text: kept " + String.format(java.util.Locale.ROOT, "%,d chars (gateway ",
                gateway.getValue().length())) && c.contains(" that goes on past it (")
                && c.contains("recipient-extended-prompts.jsonl:"));
      }
    }
  }

  /** How many of each recipient's tenant's latest earlier requests the extending test reads. */
  private static final int EXTENDED_PER_LEAK = 10;

  /**
   * Each of {@code lines} once more, rewritten by {@code rewrite}, in a gateway file of its own
   * beside the incident: the attacked run.
   */
  private Outcome attackWithSecondLines(Map<String, ObjectNode> lines, String file,
      java.util.function.Consumer<ObjectNode> rewrite) throws IOException {
    StringBuilder copies = new StringBuilder();
    for (ObjectNode line : lines.values()) {
      rewrite.accept(line);
      copies.append(JSON.writeValueAsString(line)).append('\n');
    }
    Path hostile = tmp.resolve("hostile");
    write(hostile.resolve("gateway/" + file), copies.toString());
    return attack(hostile);
  }

  /** A harmless text longer than {@code replaced}: {@code sentence} over and over. */
  private static String longerThan(String replaced, String sentence) {
    return sentence.repeat(replaced.length() / sentence.length() + 2);
  }

  /** For each leaked line, by id, the recipient tenant's three latest earlier lines with a reply. */
  private static Map<String, List<ObjectNode>> earlierOfTheSameTenant(Map<String, ObjectNode> leaked) throws IOException {
    return earlierOfTheSameTenant(leaked, 3);
  }

  /** For each leaked line, by id, the recipient tenant's {@code n} latest earlier lines with a reply. */
  private static Map<String, List<ObjectNode>> earlierOfTheSameTenant(Map<String, ObjectNode> leaked, int n)
      throws IOException {
    Map<String, List<ObjectNode>> earlier = new java.util.HashMap<>();
    for (ObjectNode leak : leaked.values()) {
      String tenant = leak.at("/metadata/user_api_key_org_id").asText();
      double start = leak.get("startTime").asDouble();
      earlier.put(leak.get("id").asText(), gatewayLines(id -> true).values().stream()
          .filter(l -> tenant.equals(l.at("/metadata/user_api_key_org_id").asText())
              && l.get("startTime").asDouble() < start && !l.at("/response/choices/0/message/content").isMissingNode())
          .sorted(java.util.Comparator.comparingDouble((ObjectNode l) -> -l.get("startTime").asDouble())).limit(n)
          .toList());
    }
    return earlier;
  }

  /**
   * An OTLP span (the GenAI conventions, as the generated traces write them) claiming {@code line}'s
   * call, with {@code prompt} as its one input message where not null.
   */
  private static String span(ObjectNode line, String prompt, String reply) throws IOException {
    long start = (long) (line.get("startTime").asDouble() * 1000) * 1_000_000L;
    ObjectNode root = JSON.createObjectNode();
    ObjectNode s = root.putArray("resourceSpans").addObject().putArray("scopeSpans").addObject().putArray("spans")
        .addObject();
    s.put("traceId", "7".repeat(32)).put("spanId", Long.toHexString(start | 1L << 62)).put("name", "chat chat-1m")
        .put("kind", 3).put("startTimeUnixNano", Long.toString(start))
        .put("endTimeUnixNano", Long.toString(start + 2_000_000_000L));
    var attributes = s.putArray("attributes");
    attributes.addObject().put("key", "gen_ai.operation.name").putObject("value").put("stringValue", "chat");
    attributes.addObject().put("key", "gen_ai.response.id").putObject("value").put("stringValue", line.get("id").asText());
    if (prompt != null) {
      attributes.addObject().put("key", "gen_ai.input.messages").putObject("value").put("stringValue",
          JSON.writeValueAsString(List.of(Map.of("role", "user", "parts", List.of(Map.of("type", "text", "content",
              prompt))))));
    }
    attributes.addObject().put("key", "gen_ai.output.messages").putObject("value").put("stringValue",
        JSON.writeValueAsString(List.of(Map.of("role", "assistant", "parts", List.of(Map.of("type", "text", "content",
            reply))))));
    attributes.addObject().put("key", "tenant.id").putObject("value").put("stringValue",
        line.at("/metadata/user_api_key_org_id").asText());
    return JSON.writeValueAsString(root);
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
  private static final java.util.regex.Pattern LINE_ID = java.util.regex.Pattern.compile("^\\{\"id\":\"([^\"]+)\"");

  /** The incident's LiteLLM lines whose {@code id} {@code wanted} accepts, by id. */
  private static Map<String, ObjectNode> gatewayLines(Predicate<String> wanted) throws IOException {
    Map<String, ObjectNode> lines = new java.util.TreeMap<>();
    try (var files = Files.list(incident.resolve("gateway"))) {
      for (Path file : files.sorted().toList()) {
        java.io.InputStream in = Files.newInputStream(file);
        if (file.toString().endsWith(".gz")) {
          in = new java.util.zip.GZIPInputStream(in);
        }
        try (var reader = new java.io.BufferedReader(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8))) {
          for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            java.util.regex.Matcher id = LINE_ID.matcher(line);
            if (id.find() && wanted.test(id.group(1))) {
              lines.put(id.group(1), (ObjectNode) JSON.readTree(line));
            }
          }
        }
      }
    }
    return lines;
  }

  private static Outcome clean;

  /** The incident alone, ingested and analyzed once for the cases that compare with it. */
  private static synchronized Outcome clean() throws IOException {
    if (clean == null) {
      Path empty = shared.resolve("nothing-added");
      Files.createDirectories(empty);
      clean = run(empty, shared.resolve("clean-index"), shared.resolve("clean-reports"));
    }
    return clean;
  }

  /** The outcome of one attacked run. */
  record Outcome(CliTestSupport.Run ingest, CliTestSupport.Run analyze, CliTestSupport.Run audit, Path index, Path reports,
      Report report) {

    Set<String> requestsWith(Predicate<FindingKind> kind) {
      return report.findings().stream().filter(f -> kind.test(f.kind()) && f.confidence().counts())
          .map(Finding::requestId).collect(Collectors.toSet());
    }

    List<Window> vulnerable() {
      return report.windows().stream().filter(w -> w.kind() == Window.Kind.VULNERABLE).toList();
    }

    /** The generator's leaks, over-length prompts, underruns and vulnerable windows are all still reported. */
    void assertTruthStands() {
      assertThat(requestsWith(FindingKind::isCrossTenantLeak)).as("leaked responses").isEqualTo(truth.leakedRequestIds());
      assertThat(requestsWith(k -> k == FindingKind.OVER_LENGTH_ACCEPTED)).as("over-length accepted")
          .isEqualTo(truth.overLengthAcceptedIds());
      assertThat(requestsWith(k -> k == FindingKind.PREFILL_UNDERRUN)).as("prefill underruns")
          .isEqualTo(truth.prefillUnderrunIds());
      List<WindowTruth> expected = truth.windows().stream().filter(w -> w.kind().equals("vulnerable")).toList();
      List<String> missing = new ArrayList<>();
      for (WindowTruth w : expected) {
        boolean held = vulnerable().stream().anyMatch(v -> v.node().equals(w.node())
            && Duration.between(w.start(), v.start()).abs().compareTo(WINDOW_TOLERANCE) < 0
            && (w.end() == null ? v.open() : v.end() != null
                && Duration.between(w.end(), v.end()).abs().compareTo(WINDOW_TOLERANCE) < 0));
        if (!held) {
          missing.add(w.node() + " " + w.start() + ".." + w.end());
        }
      }
      assertThat(missing).as("vulnerable windows lost or cut; reported: %s", vulnerable()).isEmpty();
      assertThat(analyze.exitCode()).as(analyze.err()).isZero();
      assertThat(audit.exitCode()).as(audit.err()).isEqualTo(ExitCodes.FINDINGS);
    }
  }

  /** Ingests the incident and {@code hostile} together, analyzes and audits the index. */
  Outcome attack(Path hostile, String... ingestOptions) throws IOException {
    return run(hostile, tmp.resolve("index"), tmp.resolve("reports"), ingestOptions);
  }

  private static Outcome run(Path hostile, Path index, Path reports, String... ingestOptions) throws IOException {
    List<String> args = new ArrayList<>(List.of("ingest", incident.toString(), hostile.toString(), "--index",
        index.toString(), "--quiet"));
    args.addAll(List.of(ingestOptions));
    CliTestSupport.Run ingest = CliTestSupport.run(args.toArray(String[]::new));
    assertThat(ingest.exitCode()).as(ingest.err()).isZero();
    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", index.toString(), "--out", reports.toString());
    CliTestSupport.Run audit = CliTestSupport.run("audit", "--index", index.toString());
    BadInputSuiteTest.assertNoEscapedException(analyze);
    BadInputSuiteTest.assertNoEscapedException(audit);
    return new Outcome(ingest, analyze, audit, index, reports, ReportJson.read(reports.resolve("report.json")));
  }

  static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
