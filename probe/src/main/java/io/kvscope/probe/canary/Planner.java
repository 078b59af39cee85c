package io.kvscope.probe.canary;

import io.kvscope.probe.ProbeOptions;
import io.kvscope.probe.config.Limits;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Sizes and orders a run's requests and fits them under the caps. When the caps cannot hold
 * everything, a few fill prompts come first, then the prompts past the pool (the incident's path),
 * then those past the context, the normal ones and the remaining fill prompts.
 */
public final class Planner {

  /** Fill prompts always planned before any over-length one competes for the caps. */
  static final int MIN_FILL = 4;
  static final long NORMAL_TOKENS = 256;
  static final long MAX_AUTO_FILL_TOKENS = 2_048;
  static final long MIN_AUTO_FILL_TOKENS = 256;

  private Planner() {}

  public static Plan plan(ProbeOptions o, Limits limits, List<Api> apis) {
    long fillTokens = o.fillTokens() > 0 ? o.fillTokens() : autoFill(limits, o.concurrency());
    List<Skipped> skipped = new ArrayList<>();
    Long smallest = smallestLimit(limits);
    if (smallest != null && fillTokens * 5 / 4 >= smallest) {
      // Fill prompts must be served normally: the longest (5/4 of the base) stays under every limit.
      long shorter = Math.max(1, smallest * 2 / 5);
      skipped.add(new Skipped("fill prompts of " + fillTokens + " tokens",
          "shortened to " + shorter + " tokens to stay within the smallest limit (" + smallest + ")"));
      fillTokens = shorter;
    }
    List<PlannedRequest> fills = new ArrayList<>();
    for (int i = 0; i < o.fillRequests(); i++) {
      // Lengths spread from 3/4 to 5/4 of the base, so the first-token times give a slope.
      long tokens = o.fillRequests() == 1 ? fillTokens : fillTokens * 3 / 4 + fillTokens * i / (2L * (o.fillRequests() - 1));
      fills.add(new PlannedRequest(String.format("fill-%02d", i + 1), RequestKind.FILL, apis.get(i % apis.size()), tokens, null));
    }
    List<PlannedRequest> overPool = new ArrayList<>();
    if (limits.smallestPool() == null) {
      skipped.add(new Skipped("prompts just past the smallest KV pool",
          "no endpoint showed a pool size; give --pool-tokens to test it"));
    } else if (limits.context() != null && !limits.poolBelowContext()) {
      skipped.add(new Skipped("prompts just past the smallest KV pool", "the smallest pool (" + limits.smallestPool()
          + " tokens) holds the whole context (" + limits.context() + "): a prompt past it is past the context too"));
    } else {
      overPool = overLength(RequestKind.OVER_POOL, limits.smallestPool(), limits, o, apis);
    }
    List<PlannedRequest> overContext = new ArrayList<>();
    if (limits.context() == null) {
      skipped.add(new Skipped("prompts just past the context length",
          "no endpoint showed a context length; give --context-length to test it"));
    } else {
      overContext = overLength(RequestKind.OVER_CONTEXT, limits.context(), limits, o, apis);
    }
    List<PlannedRequest> normals = new ArrayList<>();
    for (int i = 0; i < o.normalRequests(); i++) {
      normals.add(new PlannedRequest("normal-" + (i + 1), RequestKind.NORMAL, apis.get(i % apis.size()), NORMAL_TOKENS, null));
    }

    List<PlannedRequest> priority = new ArrayList<>();
    int firstFills = Math.min(MIN_FILL, fills.size());
    priority.addAll(fills.subList(0, firstFills));
    priority.addAll(overPool);
    priority.addAll(overContext);
    priority.addAll(normals);
    priority.addAll(fills.subList(firstFills, fills.size()));
    List<PlannedRequest> kept = new ArrayList<>();
    long tokens = 0;
    for (PlannedRequest r : priority) {
      long cost = r.targetTokens() + o.maxNewTokens();
      if (kept.size() + 1 > o.maxRequests()) {
        skipped.add(new Skipped(r.id(), "over --max-requests " + o.maxRequests()));
      } else if (tokens + cost > o.maxTotalTokens()) {
        skipped.add(new Skipped(r.id(), "needs about " + cost + " tokens; over --max-total-tokens " + o.maxTotalTokens()));
      } else {
        kept.add(r);
        tokens += cost;
      }
    }
    List<PlannedRequest> fillKept = fills.stream().filter(kept::contains).toList();
    List<PlannedRequest> probes = interleave(kept, overPool, overContext, normals);
    return new Plan(fillKept, probes, skipped, limits, fillTokens, o.charsPerToken(), o.maxNewTokens());
  }

  private static Long smallestLimit(Limits limits) {
    if (limits.smallestPool() == null) {
      return limits.context();
    }
    return limits.context() == null ? limits.smallestPool() : Math.min(limits.smallestPool(), limits.context());
  }

  /** Fill prompts sized so a round of them at full concurrency takes about half the smallest pool. */
  static long autoFill(Limits limits, int concurrency) {
    if (limits.smallestPool() == null) {
      return MAX_AUTO_FILL_TOKENS;
    }
    long half = limits.smallestPool() / (2L * concurrency);
    return Math.max(MIN_AUTO_FILL_TOKENS, Math.min(MAX_AUTO_FILL_TOKENS, half));
  }

  private static List<PlannedRequest> overLength(RequestKind kind, long limit, Limits limits, ProbeOptions o, List<Api> apis) {
    long page = limits.pageSize() == null ? 1 : limits.pageSize();
    long past = Math.max(Math.max(page, 16), (long) Math.ceil(limit * o.overMargin()));
    List<PlannedRequest> out = new ArrayList<>();
    for (int i = 0; i < o.overLengthRequests(); i++) {
      out.add(new PlannedRequest(kind.id() + "-" + (i + 1), kind, apis.get(i % apis.size()), limit + past, limit));
    }
    return out;
  }

  /** Over-pool, normal, over-context, normal, ...: each over-length prompt has everyday traffic around it. */
  private static List<PlannedRequest> interleave(List<PlannedRequest> kept, List<PlannedRequest> overPool,
      List<PlannedRequest> overContext, List<PlannedRequest> normals) {
    Deque<PlannedRequest> op = new ArrayDeque<>(overPool.stream().filter(kept::contains).toList());
    Deque<PlannedRequest> oc = new ArrayDeque<>(overContext.stream().filter(kept::contains).toList());
    Deque<PlannedRequest> n = new ArrayDeque<>(normals.stream().filter(kept::contains).toList());
    List<PlannedRequest> out = new ArrayList<>();
    List<Deque<PlannedRequest>> cycle = List.of(op, n, oc, n);
    while (!op.isEmpty() || !oc.isEmpty() || !n.isEmpty()) {
      for (Deque<PlannedRequest> q : cycle) {
        if (!q.isEmpty()) {
          out.add(q.poll());
        }
      }
    }
    return out;
  }
}
