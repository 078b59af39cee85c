package io.kvscope.samples.sim;

import io.kvscope.ingest.record.NodeRole;
import io.kvscope.samples.fleet.Epoch;
import io.kvscope.samples.fleet.Fleet;
import io.kvscope.samples.fleet.NodeSpec;
import io.kvscope.samples.fleet.NodeTimeline;
import io.kvscope.samples.kv.PagePool;
import io.kvscope.samples.random.Rng;
import io.kvscope.samples.text.SharedTexts;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Runs the fleet over the period, one event at a time in (time, sequence) order: arrivals, decode
 * page allocations (first-come first-served, waiting when the pool is short), and releases.
 */
public final class Simulator {

  /**
   * @param normalPerDay new (non-follow-up) requests per day on average
   * @param overLengthScale multiplier of the over-length prompt rate
   * @param traps also make the situations that fool an analysis reading text alone ({@link Traps})
   */
  public record Settings(long seed, int tenants, double normalPerDay, double overLengthScale, int corpusDocuments,
      boolean traps) {

    /** Without the traps. */
    public Settings(long seed, int tenants, double normalPerDay, double overLengthScale, int corpusDocuments) {
      this(seed, tenants, normalPerDay, overLengthScale, corpusDocuments, false);
    }
  }

  /** What happened, for the ground truth. */
  public record Result(List<Tenant> tenants, List<StubLeak> stubs, List<RequestPlan> rejected,
      long requests, long served, double charsPerToken, List<Decoy> decoys) {}

  private static final long K_REQUEST = Rng.key("request");
  private static final long K_PLAN = Rng.key("plan");
  private static final long K_TIMING = Rng.key("timing");
  private static final long K_DECODE_TIMING = Rng.key("decode-timing");
  private static final long K_PREFILL_RID = Rng.key("prefill-rid");
  private static final long TTL_SYSTEM = 3 * 3_600_000L;
  private static final long TTL_CONVERSATION = 30 * 60_000L;
  /** New requests by kind: private chats, questions over pasted documents, popular questions, retrieval, long contexts. */
  private static final double[] KIND_WEIGHTS = {0.42, 0.12, 0.30, 0.10, 0.01};
  private static final RequestKind[] KINDS =
      {RequestKind.CHAT, RequestKind.DOC_QA, RequestKind.POPULAR, RequestKind.RAG, RequestKind.LONG};
  private static final double[] SYSTEM_WEIGHTS = {4, 3, 1, 1, 1};
  private static final double[] TEMPLATE_WEIGHTS = {3, 2, 1};
  private static final long K_POPULAR_PREFIX = Rng.key("popular-prefix");

  private enum Type { NORMAL_ARRIVAL, OVER_ARRIVAL, FOLLOWUP_ARRIVAL, DECODE_ALLOC, RELEASE }

  private record Event(long time, long seq, Type type, RequestPlan plan, Conversation conversation) {}

  private final class DecodeState {
    final NodeTimeline timeline;
    Epoch epoch;
    PagePool pool;
    /** What this engine run's pool had written into it, for the truth's passage holders. */
    ReachLog reach = new ReachLog();
    int running;
    final ArrayDeque<RequestPlan> waiting = new ArrayDeque<>();

    DecodeState(NodeTimeline timeline) {
      this.timeline = timeline;
    }

    PagePool poolAt(long t) {
      Epoch e = timeline.at(t);
      if (e != epoch) {
        if (pool != null) {
          pool.forgetAll();
        }
        pool = new PagePool(e.config().poolTokens(), e.config().pageSize(), owners);
        reach = new ReachLog();
        epoch = e;
        running = 0;
      }
      return pool;
    }
  }

  private static final class PrefillState {
    final NodeTimeline timeline;
    final PrefixCache cache = new PrefixCache();
    Epoch epoch;

    PrefillState(NodeTimeline timeline) {
      this.timeline = timeline;
    }

    PrefixCache cacheAt(long t) {
      Epoch e = timeline.at(t);
      if (e != epoch) {
        cache.clear();
        epoch = e;
      }
      return cache;
    }
  }

  private final Settings settings;
  private final Fleet fleet;
  private final SharedTexts shared;
  private final Recorder recorder;
  private final MessageFactory messages;
  private final OwnerRegistry owners = new OwnerRegistry();
  private final LeakComposer composer;
  private final Traps traps;
  private final Traffic traffic;
  private final Popularity popularity;
  private final Rng normalRng;
  private final Rng overRng;
  private final List<Tenant> tenants;
  private final double[] tenantWeights;
  private final double[] bulkWeights;
  private final PriorityQueue<Event> events =
      new PriorityQueue<>(Comparator.comparingLong(Event::time).thenComparingLong(Event::seq));
  private final Map<String, DecodeState> decodeStates = new HashMap<>();
  private final Map<String, PrefillState> prefillStates = new HashMap<>();
  private final List<StubLeak> stubs = new ArrayList<>();
  private final List<RequestPlan> rejected = new ArrayList<>();
  private long seq;
  private int nextOrdinal;
  private long served;
  private long servedChars;
  private long servedTokens;

  public Simulator(Settings settings, Fleet fleet, SharedTexts shared, Recorder recorder) {
    this.settings = settings;
    this.fleet = fleet;
    this.shared = shared;
    this.recorder = recorder;
    this.messages = new MessageFactory(shared);
    this.traffic = new Traffic(settings.normalPerDay(), settings.overLengthScale());
    this.popularity = new Popularity(shared.questions().size());
    this.normalRng = Rng.derive(settings.seed(), Rng.key("normal-arrivals"));
    this.overRng = Rng.derive(settings.seed(), Rng.key("over-length-arrivals"));
    this.tenants = Tenants.create(settings.seed(), settings.tenants());
    this.traps = new Traps(settings.traps(), settings.seed(), shared, tenants);
    this.composer = new LeakComposer(messages, owners, traps);
    for (Tenant t : tenants) {
      t.systemPromptKey = shared.addRepeated(t.systemPrompt);
    }
    tenantWeights = new double[tenants.size()];
    bulkWeights = new double[tenants.size()];
    for (int i = 0; i < tenants.size(); i++) {
      tenantWeights[i] = tenants.get(i).weight;
      bulkWeights[i] = tenants.get(i).bulk ? 1 + (i % 3) : 0;
    }
    for (NodeTimeline tl : fleet.timelines()) {
      if (tl.node().role() == NodeRole.DECODE) {
        decodeStates.put(tl.node().name(), new DecodeState(tl));
      } else {
        prefillStates.put(tl.node().name(), new PrefillState(tl));
      }
    }
  }

  public Result run() throws IOException {
    long first = Fleet.PERIOD_START + 20 * 60_000L;
    scheduleNext(Type.NORMAL_ARRIVAL, first);
    scheduleNext(Type.OVER_ARRIVAL, first);
    while (!events.isEmpty()) {
      Event e = events.poll();
      recorder.advanceTo(e.time());
      switch (e.type()) {
        case NORMAL_ARRIVAL -> {
          Tenant t = tenants.get(normalRng.weighted(tenantWeights));
          RequestKind kind = KINDS[normalRng.weighted(KIND_WEIGHTS)];
          Traps.Retyped trap = traps.retype(t, kind);
          RequestPlan p = newPlan(t, trap == null ? kind : trap.kind(), e.time(), null);
          if (trap != null) {
            p.answeredAlike = trap.bare();
            p.questionIndex = trap.bare().questionIndex;
          }
          arrive(p);
          scheduleNext(Type.NORMAL_ARRIVAL, e.time());
        }
        case OVER_ARRIVAL -> {
          Tenant t = tenants.get(overRng.weighted(bulkWeights));
          arrive(newPlan(t, RequestKind.OVER_LENGTH, e.time(), null));
          scheduleNext(Type.OVER_ARRIVAL, e.time());
        }
        case FOLLOWUP_ARRIVAL -> arrive(newPlan(e.conversation().tenant, RequestKind.FOLLOWUP, e.time(), e.conversation()));
        case DECODE_ALLOC -> requestDecode(e.plan(), e.time());
        case RELEASE -> release(e.plan(), e.time());
      }
    }
    recorder.finish();
    double cpt = servedTokens == 0 ? 0 : (double) servedChars / servedTokens;
    return new Result(tenants, List.copyOf(stubs), List.copyOf(rejected), nextOrdinal, served, cpt, traps.decoys());
  }

  private void push(long time, Type type, RequestPlan plan, Conversation conversation) {
    events.add(new Event(time, seq++, type, plan, conversation));
  }

  /** Next arrival of a Poisson process with the diurnal rate, by thinning. */
  private void scheduleNext(Type type, long from) {
    boolean normal = type == Type.NORMAL_ARRIVAL;
    Rng rng = normal ? normalRng : overRng;
    double maxRate = normal ? traffic.normalMaxRate() : traffic.overMaxRate();
    if (maxRate <= 0) {
      return;
    }
    long end = Fleet.PERIOD_END - 15 * 60_000L;
    double t = from;
    while (true) {
      t += rng.exponential(1 / maxRate);
      if (t >= end) {
        return;
      }
      long ts = (long) t;
      double rate = normal ? traffic.normalRate(ts) : traffic.overRate(ts);
      if (rng.nextDouble() * maxRate < rate) {
        push(ts, type, null, null);
        return;
      }
    }
  }

  private RequestPlan newPlan(Tenant tenant, RequestKind kind, long time, Conversation conversation) {
    int ordinal = nextOrdinal++;
    long seed = Rng.deriveSeed(settings.seed(), K_REQUEST, ordinal);
    RequestPlan p = new RequestPlan(ordinal, seed, tenant, kind, time, tenant.reserveIds());
    Rng r = Rng.derive(seed, K_PLAN);
    p.rid = r.hex(32);
    p.prefillRid = Rng.derive(seed, K_PREFILL_RID).hex(32); // own stream: the plan's draws stay as they were
    p.bootstrapRoom = r.nextLong() & Long.MAX_VALUE;
    p.callId = r.uuid();
    p.traceId = r.hex(32);
    p.spanId = r.hex(16);
    p.maxTokens = kind == RequestKind.OVER_LENGTH || kind == RequestKind.LONG ? 2048
        : new int[] {512, 1024, 1024, 2048}[r.nextInt(4)];
    p.temperature = new double[] {0.0, 0.2, 0.7, 1.0}[r.nextInt(4)];
    p.stream = r.chance(0.6);
    if (tenant.channel == Channel.LITELLM_END_USER) {
      p.endUser = tenant.id;
    } else if (tenant.channel == Channel.LITELLM_ORG && r.chance(0.3)) {
      p.endUser = "user-" + r.hex(6);
    }
    p.targetOutputTokens = (int) clamp(Math.round(r.logNormal(170, 0.75)), 6, 3000);
    switch (kind) {
      case CHAT -> p.targetPromptTokens = clamp(Math.round(r.logNormal(110, 0.9)), 12, 3000);
      case FOLLOWUP -> p.targetPromptTokens = clamp(Math.round(r.logNormal(45, 0.8)), 6, 800);
      case DOC_QA, POPULAR, RAG, PASTED_QUESTION, NEAR_DUPLICATE -> p.targetPromptTokens = 0;
      case LONG -> {
        p.targetPromptTokens = clamp(Math.round(r.logNormal(45_000, 0.9)), 20_000, 600_000);
        p.targetOutputTokens = (int) clamp(Math.round(r.logNormal(260, 0.6)), 20, 2000);
      }
      case OVER_LENGTH -> {
        p.targetPromptTokens = r.chance(0.12) ? 1_060_000 + r.nextInt(200_000)
            : Fleet.PREFILL_POOL + 2_000 + Math.min(Math.round(r.exponential(110_000)), 355_000);
        p.targetOutputTokens = (int) clamp(Math.round(r.logNormal(260, 0.6)), 20, 2000);
      }
    }
    if (conversation != null) {
      p.systemChoice = conversation.systemChoice;
      p.templateIndex = conversation.templateIndex;
    } else if (kind == RequestKind.RAG) {
      p.templateIndex = r.weighted(TEMPLATE_WEIGHTS);
    } else {
      double u = r.nextDouble();
      p.systemChoice = u < 0.35 ? r.weighted(SYSTEM_WEIGHTS) : u < 0.8 ? -2 : -1;
    }
    if (kind == RequestKind.POPULAR || kind == RequestKind.RAG) {
      p.questionIndex = popularity.next(r);
    }
    if (conversation != null) {
      p.conversation = conversation;
      p.turn = conversation.turns.size() + 1;
      conversation.turns.add(p);
      if (conversation.question >= 0) {
        p.questionIndex = conversation.question;
        p.questionTurn = p.turn - 1;
      }
    } else if (kind == RequestKind.CHAT || kind == RequestKind.DOC_QA
        || kind == RequestKind.POPULAR && shared.questions().get(p.questionIndex).turns().size() > 1) {
      Conversation c = new Conversation(ordinal, tenant, p.systemChoice, null);
      c.templateIndex = p.templateIndex;
      c.question = kind == RequestKind.POPULAR ? p.questionIndex : -1;
      p.conversation = c;
      p.turn = 1;
      c.turns.add(p);
    }
    return p;
  }

  private static long clamp(long v, long lo, long hi) {
    return Math.max(lo, Math.min(hi, v));
  }

  private void arrive(RequestPlan p) throws IOException {
    Rng r = Rng.derive(p.seed, K_TIMING);
    p.routerAt = p.arrival + CostModel.routerDelay(r);
    route(p, r);
    p.model = fleet.deployments().indexOf(p.deployment);
    p.prefillConfig = fleet.timeline(p.prefillNode.name()).at(p.routerAt).config();
    p.decodeConfig = fleet.timeline(p.decodeNode.name()).at(p.routerAt).config();
    messages.composePrompt(p);
    long n = p.promptTokens;
    p.tokenizedAt = p.routerAt + CostModel.tokenizeMs(n);
    p.decodeRequestedAt = p.tokenizedAt + 3 + r.nextInt(6);
    if (n >= p.prefillConfig.contextLength() || n >= p.decodeConfig.contextLength()) {
      long ctx = n >= p.prefillConfig.contextLength() ? p.prefillConfig.contextLength() : p.decodeConfig.contextLength();
      p.outcome = Outcome.REJECTED_CONTEXT;
      p.errorMessage = "The input (" + n + " tokens) is longer than the model's context length (" + ctx + " tokens).";
      reject(p, p.tokenizedAt + 4 + r.nextInt(5));
      return;
    }
    if (n > p.prefillConfig.maxInputLen()) {
      if (p.prefillConfig.bugFixed()) {
        p.outcome = Outcome.REJECTED_LENGTH;
        p.errorMessage = "Input length (" + n + " tokens) exceeds the maximum allowed length ("
            + p.prefillConfig.maxInputLen() + " tokens). Use a shorter input or enable --allow-auto-truncate.";
        reject(p, p.decodeRequestedAt + 6 + r.nextInt(8));
        return;
      }
      p.outcome = Outcome.STUB;
      p.errorMessage = "Input length (" + n + " tokens) exceeds the maximum allowed length ("
          + p.prefillConfig.maxInputLen() + " tokens). Use a shorter input or enable --allow-auto-truncate.";
      p.cachedTokens = 0;
      p.prefillQueueMs = 1 + Math.round(r.exponential(6));
      p.prefillStart = p.tokenizedAt + p.prefillQueueMs;
      p.prefillEnd = p.prefillStart + CostModel.prefillMs(1, 1, r);
      p.transferMs = CostModel.transferMs(p.prefillConfig.pageSize(), r);
    } else {
      p.outcome = Outcome.SERVED;
      PrefixCache cache = prefillStates.get(p.prefillNode.name()).cacheAt(p.routerAt);
      p.cachedTokens = cached(p, cache);
      messages.composeReply(p);
      p.prefillQueueMs = 1 + Math.round(r.exponential(6));
      p.prefillStart = p.tokenizedAt + p.prefillQueueMs;
      p.prefillEnd = p.prefillStart + CostModel.prefillMs(n - p.cachedTokens, n, r);
      p.transferMs = CostModel.transferMs(n, r);
      touch(p, cache);
    }
    push(p.decodeRequestedAt, Type.DECODE_ALLOC, p, null);
    recorder.admitted(p);
  }

  private void reject(RequestPlan p, long end) throws IOException {
    p.statusCode = 400;
    p.finishReason = "abort";
    p.gatewayEnd = end;
    p.firstTokenAt = end;
    rejected.add(p);
    if (p.conversation != null) {
      p.conversation.close();
    }
    recorder.admitted(p);
  }

  private void route(RequestPlan p, Rng r) {
    Conversation c = p.conversation;
    Fleet.Deployment d;
    if (p.answeredAlike != null) {
      d = p.answeredAlike.deployment; // the model that answered the bare question answers it again
    } else if (c != null && c.deployment != null) {
      d = fleet.deployment(c.deployment);
    } else {
      d = fleet.deployments().get(r.nextInt(fleet.deployments().size()));
    }
    p.deployment = d;
    NodeSpec prefill = null;
    if (c != null && c.preferredPrefill != null && fleet.timeline(c.preferredPrefill).accepting(p.routerAt)) {
      prefill = fleet.node(c.preferredPrefill);
    } else if (p.kind == RequestKind.POPULAR) {
      NodeSpec n = d.prefill().get(p.questionIndex % d.prefill().size());
      if (fleet.timeline(n.name()).accepting(p.routerAt)) {
        prefill = n;
      }
    }
    if (prefill == null) {
      prefill = pick(d.prefill(), p.routerAt, r);
    }
    p.prefillNode = prefill;
    p.decodeNode = pick(d.decode(), p.routerAt, r);
    if (c != null && c.preferredPrefill == null) {
      c.preferredPrefill = prefill.name();
      c.deployment = d.name();
    }
  }

  private NodeSpec pick(List<NodeSpec> nodes, long t, Rng r) {
    List<NodeSpec> ok = new ArrayList<>();
    for (NodeSpec n : nodes) {
      if (fleet.timeline(n.name()).accepting(t)) {
        ok.add(n);
      }
    }
    if (ok.isEmpty()) {
      for (NodeSpec n : nodes) {
        if (fleet.timeline(n.name()).running(t)) {
          ok.add(n);
        }
      }
    }
    return ok.isEmpty() ? nodes.getFirst() : ok.get(r.nextInt(ok.size()));
  }

  private long systemKey(RequestPlan p) {
    if (p.templateIndex >= 0) {
      return Rng.key("agent-template-" + p.templateIndex);
    }
    return p.systemChoice == -2 ? Rng.key("sys-tenant-" + p.tenant.index)
        : Rng.key("sys-public-" + p.systemChoice);
  }

  private static long conversationKey(Conversation c, int turn) {
    return Rng.deriveSeed(c.id, Rng.key("conversation"), turn);
  }

  /** Tokens the prefill node's radix cache already holds, rounded down to whole pages. */
  private long cached(RequestPlan p, PrefixCache cache) {
    int page = p.prefillConfig.pageSize();
    long best = 0;
    long t = p.routerAt;
    if ((p.systemChoice != -1 || p.templateIndex >= 0) && cache.hit(systemKey(p), t, TTL_SYSTEM)) {
      best = p.messages[0].tokenCount() / page * page;
    }
    if (p.kind == RequestKind.FOLLOWUP && cache.hit(conversationKey(p.conversation, p.turn - 1), t, TTL_CONVERSATION)) {
      best = Math.max(best, p.userOffset / page * page);
    }
    if (p.kind == RequestKind.POPULAR && cache.hit(popularKey(p), t, TTL_SYSTEM)) {
      best = Math.max(best, (p.promptTokens - 1) / page * page);
    }
    return Math.min(best, Math.max(0, (p.promptTokens - 1) / page * page));
  }

  private void touch(RequestPlan p, PrefixCache cache) {
    if (p.systemChoice != -1 || p.templateIndex >= 0) {
      cache.touch(systemKey(p), p.prefillEnd);
    }
    if (p.conversation != null) {
      cache.touch(conversationKey(p.conversation, p.turn), p.prefillEnd);
    }
    if (p.kind == RequestKind.POPULAR) {
      cache.touch(popularKey(p), p.prefillEnd);
    }
  }

  /** A popular question's whole prompt: its system prompt and the question. */
  private long popularKey(RequestPlan p) {
    return Rng.deriveSeed(p.systemChoice == -1 ? 0 : systemKey(p), K_POPULAR_PREFIX, p.questionIndex);
  }

  private void requestDecode(RequestPlan p, long t) throws IOException {
    DecodeState ds = decodeStates.get(p.decodeNode.name());
    if (!ds.waiting.isEmpty() || !tryAllocate(ds, p, t)) {
      ds.waiting.add(p);
    }
  }

  private void release(RequestPlan p, long t) throws IOException {
    DecodeState ds = decodeStates.get(p.decodeNode.name());
    p.decodePool.release(p.decodePages);
    p.decodePages = null;
    if (p.decodePool == ds.pool) {
      ds.running = Math.max(0, ds.running - 1);
    }
    while (!ds.waiting.isEmpty() && tryAllocate(ds, ds.waiting.peek(), t)) {
      ds.waiting.poll();
    }
  }

  private boolean tryAllocate(DecodeState ds, RequestPlan p, long t) throws IOException {
    PagePool pool = ds.poolAt(t);
    long n = p.promptTokens;
    long seqTokens = p.outcome == Outcome.STUB ? n + p.maxTokens : n + p.outputTokens;
    int[] pages = pool.allocate(PagePool.pagesFor(seqTokens, pool.pageSize()));
    if (pages == null) {
      return false;
    }
    p.decodeAllocAt = t;
    p.decodePool = pool;
    p.decodePages = pages;
    p.reservedPages = pages.length;
    p.runningAtAlloc = ++ds.running;
    p.tokensInUseAtAlloc = (long) pool.usedPages() * pool.pageSize();
    p.decodePoolPages = pool.pages();
    owners.expect(p);
    if (p.outcome == Outcome.STUB) {
      StubLeak leak = composer.compose(p, pages, pool, ds.reach);
      p.leak = leak;
      stubs.add(leak);
      // The placeholder's KV lands in page 0, the generation after the (unwritten) prompt positions.
      pool.write(pages[0], p.ordinal, 0, 1);
      int size = pool.pageSize();
      long from = n;
      long to = n + p.outputTokens;
      for (long pos = from / size * size; pos < to; pos += size) {
        int idx = (int) (pos / size);
        long start = Math.max(pos, from);
        pool.write(pages[idx], p.ordinal, (int) start, (int) (Math.min(pos + size, to) - start));
      }
      p.finishReason = "stop";
      p.reportedPromptTokens = reportsStubLength(p) ? 1 : n;
    } else {
      pool.writeSequence(pages, p.ordinal, n + p.outputTokens);
      ds.reach.add(p);
      traps.served(p);
      p.reportedPromptTokens = n;
      served++;
      servedChars += p.promptChars;
      servedTokens += n;
    }
    owners.settle(p);
    Rng r = Rng.derive(p.seed, K_DECODE_TIMING);
    long transferDone = Math.max(t, p.prefillEnd) + p.transferMs;
    p.stepMs = CostModel.stepMs(n, r);
    p.firstTokenAt = transferDone + Math.round(p.stepMs);
    p.decodeEnd = p.firstTokenAt + Math.round(Math.max(0, p.outputTokens - 1) * p.stepMs);
    p.gatewayEnd = p.decodeEnd + 5 + r.nextInt(6);
    p.statusCode = 200;
    push(p.decodeEnd, Type.RELEASE, p, null);
    Conversation c = p.conversation;
    if (c != null && p.outcome == Outcome.SERVED) {
      c.history.add(p.user.text());
      c.historySources.add(MessageSource.user(p));
      c.history.add(p.reply.text());
      c.historySources.add(MessageSource.reply(p));
      boolean moreTurns = c.question >= 0
          ? p.questionTurn + 1 < shared.questions().get(c.question).turns().size() && r.chance(0.85)
          : p.turn < 6 && r.chance(0.42);
      if (moreTurns) {
        push(p.decodeEnd + 8_000 + Math.round(r.exponential(75_000)), Type.FOLLOWUP_ARRIVAL, null, c);
      } else {
        c.close();
      }
    }
    recorder.decoded(p);
    return true;
  }

  /** SGLang 0.5.19's decode side reports the prefill stub's length (1) as prompt_tokens. */
  private static boolean reportsStubLength(RequestPlan p) {
    return p.decodeConfig.version().equals("0.5.19");
  }
}
