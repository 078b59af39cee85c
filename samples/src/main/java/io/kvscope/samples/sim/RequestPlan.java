package io.kvscope.samples.sim;

import io.kvscope.samples.fleet.EngineConfig;
import io.kvscope.samples.fleet.Fleet;
import io.kvscope.samples.fleet.NodeSpec;
import io.kvscope.samples.kv.PagePool;
import io.kvscope.samples.text.Composed;
import io.kvscope.samples.text.TokenText;

/**
 * Everything about one request: who sent it, what it asked (regenerable from its seed), where it
 * ran, how it was treated and when each step happened (true UTC ms). Fields are filled as the
 * simulation proceeds; the text is kept only until the gateway line is written and is rebuilt on
 * demand when the request's stale pages become a leak source.
 */
public final class RequestPlan {

  // Identity and intent.
  final int ordinal;
  final long seed;
  final Tenant tenant;
  final RequestKind kind;
  final long arrival;
  final long idCounterBase;
  Conversation conversation;
  int turn;
  /** -1 none, -2 the tenant's own system prompt, >= 0 a public system prompt. */
  int systemChoice = -1;
  /** The agent template used as system prompt (retrieval requests), or -1. */
  int templateIndex = -1;
  /** The shared question asked (popular questions, their later turns, retrieval), or -1. */
  int questionIndex = -1;
  int questionTurn;
  /** The earlier request of another tenant whose bare question this trap asks again, or null. */
  RequestPlan answeredAlike;
  /** Which model answers on the request's deployment. */
  int model;
  long targetPromptTokens;
  int targetOutputTokens;
  int maxTokens;
  double temperature;
  boolean stream;
  String endUser;

  // Ids. Each PD server makes its own rid; the gateway's response id is the decode server's.
  String rid;
  String prefillRid;
  long bootstrapRoom;
  String callId;
  String traceId;
  String spanId;

  // Routing and the configs in force.
  Fleet.Deployment deployment;
  NodeSpec prefillNode;
  NodeSpec decodeNode;
  EngineConfig prefillConfig;
  EngineConfig decodeConfig;

  // Content (transient) and its shape (kept).
  TokenText[] messages;
  String[] roles;
  Composed user;
  Composed reply;
  int userMessageIndex;
  long userOffset;
  long promptTokens;
  long promptChars;
  int outputTokens;
  /** Token offset of each prompt message in the sequence; the last entry is the user message's. */
  int[] messageStarts;
  /** Where each prompt message came from (same order as the messages). */
  MessageSource[] promptSources;
  /** Shared texts copied into the user message and the reply (kept after the text is dropped). */
  java.util.List<io.kvscope.samples.text.Composed.Embed> userEmbeds;
  java.util.List<io.kvscope.samples.text.Composed.Embed> replyEmbeds;
  /** Sequence positions of request-unique identifiers, and their categories (ordinal). */
  int[] idPositions;
  int[] idCategories;

  // Treatment.
  Outcome outcome;
  int statusCode;
  String errorMessage;
  String rejectingLine;
  long cachedTokens;
  long reportedPromptTokens;
  String finishReason;
  int runningAtAlloc;
  long tokensInUseAtAlloc;
  int decodePoolPages;
  int[] decodePages;
  PagePool decodePool;
  int reservedPages;
  StubLeak leak;

  // Times (true UTC ms).
  long routerAt;
  long tokenizedAt;
  long prefillQueueMs;
  long prefillStart;
  long prefillEnd;
  long transferMs;
  long decodeRequestedAt;
  long decodeAllocAt;
  long firstTokenAt;
  long decodeEnd;
  long gatewayEnd;
  double stepMs;

  RequestPlan(int ordinal, long seed, Tenant tenant, RequestKind kind, long arrival, long idCounterBase) {
    this.ordinal = ordinal;
    this.seed = seed;
    this.tenant = tenant;
    this.kind = kind;
    this.arrival = arrival;
    this.idCounterBase = idCounterBase;
  }

  /** The gateway's id: the response id on success, LiteLLM's call id on failure. */
  public String requestId() {
    return succeeded() ? "chatcmpl-" + rid : callId;
  }

  public boolean succeeded() {
    return statusCode >= 200 && statusCode < 300;
  }

  /** Drops the text once the gateway line is written; the user message and reply can be rebuilt. */
  public void releaseContent() {
    messages = null;
    roles = null;
    user = null;
    reply = null;
  }

  /** Public read access for the recorder (other packages). */
  public int ordinal() { return ordinal; }
  public Tenant tenant() { return tenant; }
  public RequestKind kind() { return kind; }
  public long arrival() { return arrival; }
  public int maxTokens() { return maxTokens; }
  public double temperature() { return temperature; }
  public boolean stream() { return stream; }
  public String endUser() { return endUser; }
  /** The decode server's rid: what the gateway's response id names. */
  public String rid() { return rid; }
  /** The prefill server's own rid for the same request; only the bootstrap room links the two. */
  public String prefillRid() { return prefillRid; }
  public long bootstrapRoom() { return bootstrapRoom; }
  public String callId() { return callId; }
  public String traceId() { return traceId; }
  public String spanId() { return spanId; }
  public Fleet.Deployment deployment() { return deployment; }
  public NodeSpec prefillNode() { return prefillNode; }
  public NodeSpec decodeNode() { return decodeNode; }
  public EngineConfig prefillConfig() { return prefillConfig; }
  public EngineConfig decodeConfig() { return decodeConfig; }
  public TokenText[] messages() { return messages; }
  public String[] roles() { return roles; }
  public String replyText() { return reply == null ? null : reply.text().text(); }
  public long promptTokens() { return promptTokens; }
  public long promptChars() { return promptChars; }
  public int outputTokens() { return outputTokens; }
  public Outcome outcome() { return outcome; }
  public int statusCode() { return statusCode; }
  public String errorMessage() { return errorMessage; }
  public long cachedTokens() { return cachedTokens; }
  public long reportedPromptTokens() { return reportedPromptTokens; }
  public String finishReason() { return finishReason; }
  public int runningAtAlloc() { return runningAtAlloc; }
  public long tokensInUseAtAlloc() { return tokensInUseAtAlloc; }
  public int decodePoolPages() { return decodePoolPages; }
  public int reservedPages() { return reservedPages; }
  public long routerAt() { return routerAt; }
  public long tokenizedAt() { return tokenizedAt; }
  public long prefillQueueMs() { return prefillQueueMs; }
  public long prefillStart() { return prefillStart; }
  public long prefillEnd() { return prefillEnd; }
  public long transferMs() { return transferMs; }
  public long decodeRequestedAt() { return decodeRequestedAt; }
  public long decodeAllocAt() { return decodeAllocAt; }
  public long firstTokenAt() { return firstTokenAt; }
  public long decodeEnd() { return decodeEnd; }
  public long gatewayEnd() { return gatewayEnd; }
  public double stepMs() { return stepMs; }

  /** When the gateway saw the first token (streaming) or the whole reply. */
  public long gatewayFirstToken() {
    return stream ? firstTokenAt + 4 : gatewayEnd;
  }

  /** Tokens the prefill node actually computed: one for a stub, the uncached rest otherwise. */
  public long engineInputLen() {
    return outcome == Outcome.STUB ? 1 : promptTokens;
  }
}
