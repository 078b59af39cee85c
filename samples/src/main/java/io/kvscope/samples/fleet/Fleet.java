package io.kvscope.samples.fleet;

import io.kvscope.ingest.record.NodeRole;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulated fleet and its timeline: two prefill/decode deployments behind one gateway.
 *
 * <p>Incident timeline (true UTC): {@code pd-a} runs SGLang 0.5.19 and {@code pd-b} 0.5.21, both
 * with a 262,144-token context over a 681,280-token prefill pool (safe). On 2026-08-27 (pd-a) and
 * 2026-08-28 (pd-b) a rolling restart raises the context to 1,048,576: the pool is now smaller
 * than the context on every prefill node and the engine's disaggregated admission path is buggy, so
 * the vulnerable window opens. pd-b closes it on 2026-09-05 by raising the prefill pool to
 * 1,114,112 tokens; pd-a on 2026-09-09 by upgrading to the fixed release 0.5.22. Decode nodes have
 * a 1,572,864-token pool throughout. decode-a1 also crash-restarts once (same config, fresh pool).
 */
public final class Fleet {

  /** One prefill/decode deployment behind its router. */
  public record Deployment(String name, String apiBase, String routerHost, List<NodeSpec> prefill,
      List<NodeSpec> decode) {}

  /**
   * A span of true time in which a prefill node admitted prompts its pool could not hold through
   * the buggy path. {@code end} is the true time the fixing epoch began (or the period end).
   */
  public record Window(String node, String deployment, long start, long end, String reason, String closedBy) {}

  /** An hour of a node's log lost in shipping, in node-local time. */
  public record Gap(String node, long start, long end) {}

  /**
   * The release the world's nodes are patched with. The generator's own value, never read by the
   * analysis (which has its own default fixed release): the two agreeing is checked, not assumed.
   */
  public static final String FIXED_VERSION = "0.5.22";
  public static final long PERIOD_START = t("2026-08-20T00:00:00Z");
  public static final long PERIOD_END = t("2026-09-15T00:00:00Z");
  public static final long CONTEXT_INITIAL = 262_144L;
  public static final long CONTEXT_RAISED = 1_048_576L;
  public static final long PREFILL_POOL = 681_280L;
  public static final long PREFILL_POOL_RAISED = 1_114_112L;
  public static final long DECODE_POOL = 1_572_864L;
  public static final int PAGE_SIZE = 64;

  /** Restarts within a rolling restart are this far apart, so one node of each role stays up. */
  private static final long STAGGER_MS = 9 * 60_000L;
  private static final long STARTUP_MS = 150_000L;

  private final boolean buggy;
  private final List<Deployment> deployments;
  private final Map<String, NodeTimeline> timelines = new LinkedHashMap<>();
  private final List<Gap> gaps;

  private Fleet(boolean buggy) {
    this.buggy = buggy;
    deployments = List.of(deployment("a", 1), deployment("b", 2));
    for (Deployment d : deployments) {
      for (NodeSpec n : d.prefill()) {
        timelines.put(n.name(), new NodeTimeline(n));
      }
      for (NodeSpec n : d.decode()) {
        timelines.put(n.name(), new NodeTimeline(n));
      }
    }
    planEpochs();
    gaps = List.of(new Gap("sglang-prefill-a0", t("2026-09-02T13:00:00Z"), t("2026-09-02T14:00:00Z")));
  }

  /** The incident fleet: the context raise opens the window, the fixes close it. */
  public static Fleet incident() {
    return new Fleet(true);
  }

  /** A clean fleet: fixed engine, pool >= context, checksum and canary on, same traffic shape. */
  public static Fleet clean() {
    return new Fleet(false);
  }

  private static Deployment deployment(String letter, int subnet) {
    List<NodeSpec> prefill = new ArrayList<>();
    List<NodeSpec> decode = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      String p = "sglang-prefill-" + letter + i;
      String d = "sglang-decode-" + letter + i;
      prefill.add(new NodeSpec(p, "pd-" + letter, NodeRole.PREFILL, "10.20." + subnet + "." + (10 + i), skew(p)));
      decode.add(new NodeSpec(d, "pd-" + letter, NodeRole.DECODE, "10.20." + subnet + "." + (20 + i), skew(d)));
    }
    String router = "pd-router-" + letter + ".inference.svc.cluster.local";
    return new Deployment("pd-" + letter, "http://" + router + ":8000/v1", router, List.copyOf(prefill),
        List.copyOf(decode));
  }

  /** One node's clock runs tens of seconds ahead, another a little behind. */
  private static long skew(String node) {
    return switch (node) {
      case "sglang-decode-b1" -> 41_730L;
      case "sglang-prefill-a1" -> -2_350L;
      default -> 0L;
    };
  }

  private void planEpochs() {
    EngineConfig prefillA = buggy ? prefillConfig("0.5.19") : cleanPrefill();
    EngineConfig decodeA = buggy ? decodeConfig("0.5.19") : cleanDecode();
    EngineConfig prefillB = buggy ? prefillConfig("0.5.21") : cleanPrefill();
    EngineConfig decodeB = buggy ? decodeConfig("0.5.21") : cleanDecode();

    long start = PERIOD_START;
    int i = 0;
    for (Deployment d : deployments) {
      boolean a = d.name().equals("pd-a");
      for (NodeSpec n : d.prefill()) {
        restart(n, start + (i++) * 40_000L, a ? prefillA : prefillB, "initial");
      }
      for (NodeSpec n : d.decode()) {
        restart(n, start + (i++) * 40_000L, a ? decodeA : decodeB, "initial");
      }
    }
    // The context raise (both modes: it is only dangerous where pool < context and unfixed).
    rolling("pd-a", t("2026-08-27T09:40:00Z"), true, true, c -> c.withContextLength(CONTEXT_RAISED), "config-change");
    rolling("pd-b", t("2026-08-28T14:05:00Z"), true, true, c -> c.withContextLength(CONTEXT_RAISED), "config-change");
    // A crash: same config, fresh (unzeroed but unrelated) KV memory.
    NodeSpec crashed = node("sglang-decode-a1");
    restart(crashed, t("2026-09-03T02:14:37Z"), timelines.get(crashed.name()).epochs().getLast().config(), "crash");
    if (buggy) {
      rolling("pd-b", t("2026-09-05T11:30:00Z"), true, false, c -> c.withPool(PREFILL_POOL_RAISED, 0.78),
          "memory-change");
      rolling("pd-a", t("2026-09-09T15:10:00Z"), true, true, c -> c.withVersion(FIXED_VERSION, true, true),
          "upgrade");
    }
  }

  private interface Change {
    EngineConfig apply(EngineConfig c);
  }

  private void rolling(String deployment, long at, boolean prefill, boolean decode, Change change, String cause) {
    Deployment d = deployment(deployment);
    long t = at;
    if (prefill) {
      for (NodeSpec n : d.prefill()) {
        restart(n, t, change.apply(timelines.get(n.name()).epochs().getLast().config()), cause);
        t += STAGGER_MS;
      }
    }
    if (decode) {
      for (NodeSpec n : d.decode()) {
        restart(n, t, change.apply(timelines.get(n.name()).epochs().getLast().config()), cause);
        t += STAGGER_MS;
      }
    }
  }

  private void restart(NodeSpec n, long at, EngineConfig config, String cause) {
    timelines.get(n.name()).add(new Epoch(at, at + STARTUP_MS, config, cause));
  }

  private static EngineConfig prefillConfig(String version) {
    return new EngineConfig(version, CONTEXT_INITIAL, PREFILL_POOL, PAGE_SIZE, 4, 0.55, false, false, 8192,
        16384, 128, false);
  }

  private static EngineConfig decodeConfig(String version) {
    return new EngineConfig(version, CONTEXT_INITIAL, DECODE_POOL, PAGE_SIZE, 8, 0.85, false, false, 8192,
        16384, 256, false);
  }

  private static EngineConfig cleanPrefill() {
    return new EngineConfig(FIXED_VERSION, CONTEXT_INITIAL, PREFILL_POOL_RAISED, PAGE_SIZE, 4, 0.78, true, true,
        8192, 16384, 128, true);
  }

  private static EngineConfig cleanDecode() {
    return new EngineConfig(FIXED_VERSION, CONTEXT_INITIAL, DECODE_POOL, PAGE_SIZE, 8, 0.85, true, true, 8192,
        16384, 256, true);
  }

  public List<Deployment> deployments() {
    return deployments;
  }

  public Deployment deployment(String name) {
    for (Deployment d : deployments) {
      if (d.name().equals(name)) {
        return d;
      }
    }
    throw new IllegalArgumentException("no deployment " + name);
  }

  public NodeSpec node(String name) {
    return timelines.get(name).node();
  }

  public NodeTimeline timeline(String node) {
    return timelines.get(node);
  }

  /** All nodes' timelines in a stable order (deployment, prefill nodes, decode nodes). */
  public List<NodeTimeline> timelines() {
    return List.copyOf(timelines.values());
  }

  public List<Gap> gaps() {
    return Collections.unmodifiableList(gaps);
  }

  /** True when a prefill epoch lets over-length prompts through the buggy path. */
  public static boolean vulnerable(EngineConfig c) {
    return c.poolTokens() < c.contextLength() && !c.bugFixed();
  }

  /** Vulnerable windows per prefill node, derived from the epochs (consecutive vulnerable epochs merge). */
  public List<Window> vulnerableWindows() {
    List<Window> out = new ArrayList<>();
    for (NodeTimeline tl : timelines.values()) {
      if (tl.node().role() != NodeRole.PREFILL) {
        continue;
      }
      Epoch open = null;
      for (Epoch e : tl.epochs()) {
        boolean v = vulnerable(e.config());
        if (v && open == null) {
          open = e;
        } else if (!v && open != null) {
          out.add(window(tl.node(), open, e.start(), closedBy(e)));
          open = null;
        }
      }
      if (open != null) {
        out.add(window(tl.node(), open, PERIOD_END, "still open at end of logs"));
      }
    }
    return out;
  }

  private static String closedBy(Epoch e) {
    EngineConfig c = e.config();
    if (c.bugFixed()) {
      return "upgrade to sglang " + c.version();
    }
    return "pool raised to " + c.poolTokens() + " tokens (>= context_length " + c.contextLength() + ")";
  }

  private static Window window(NodeSpec n, Epoch e, long end, String closedBy) {
    EngineConfig c = e.config();
    String reason = "max_total_num_tokens " + c.poolTokens() + " < context_length " + c.contextLength()
        + " on sglang " + c.version() + " (< " + FIXED_VERSION + ")";
    return new Window(n.name(), n.deployment(), e.start(), end, reason, closedBy);
  }

  static long t(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }
}
