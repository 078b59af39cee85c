package io.kvscope.probe.enginedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A loopback stand-in for a prefill/decode SGLang deployment, speaking the same HTTP API in the
 * same shapes (docs/formats.md, "SGLang HTTP endpoints"): a router serving
 * {@code /v1/chat/completions} (streaming SSE), {@code /generate} and {@code /v1/models}; a
 * prefill and a decode server each serving server info, model info, {@code /v1/models} and
 * Prometheus {@code /metrics}. The prefill node answers the newer paths ({@code /server_info},
 * {@code /model_info}), the decode node only the older ones, as a deployment mid-upgrade would.
 *
 * <p>The KV pools are paged and never zeroed. In {@link DoubleConfig.Admission#BUGGY} mode a prompt
 * past the prefill pool but within the context takes the incident's path: prefill replaces it by a
 * one-token stub, decode reserves pages for the whole prompt and "attends" over them, so the reply
 * is made of whatever earlier requests left there; it returns 200 at once, reporting 1 prompt
 * token. In {@link DoubleConfig.Admission#FIXED} mode the same prompt gets a 400 at admission.
 * The double's "model" answers with every canary-shaped code in its attended pages, which is how a
 * reply built from stale pages shows its sources.
 */
public final class EngineDouble implements AutoCloseable {

  static {
    // Stream events go out as they are written, as uvicorn sends them (it sets TCP_NODELAY);
    // without it loopback's delayed ACKs add ~40 ms per event and swamp the prefill times.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern CODE = Pattern.compile("KVCANARY-[A-Z0-9]{20}");
  /** Tokens a chat template adds around the user's message. */
  static final int CHAT_TEMPLATE_TOKENS = 8;
  private static final int STREAM_PIECE_CHARS = 12;

  private volatile DoubleConfig config;
  private volatile boolean servesGenerate = true;
  private final PagedKvPool prefillPool;
  private final PagedKvPool decodePool;
  private final ExecutorService executor = Executors.newFixedThreadPool(48);
  private final HttpServer router;
  private final HttpServer prefill;
  private final HttpServer decode;
  private final AtomicInteger posts = new AtomicInteger();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private final AtomicLong promptTokensReceived = new AtomicLong();
  private final List<Long> startNanos = java.util.Collections.synchronizedList(new ArrayList<>());
  private final Map<String, Set<String>> codesByTag = new java.util.concurrent.ConcurrentHashMap<>();
  private final List<String> authorizations = java.util.Collections.synchronizedList(new ArrayList<>());

  private EngineDouble(DoubleConfig config, int routerPort, int prefillPort, int decodePort) throws IOException {
    this.config = config;
    this.prefillPool = new PagedKvPool(config.prefillPoolTokens(), config.pageSize());
    this.decodePool = new PagedKvPool(config.decodePoolTokens(), config.pageSize());
    InetAddress loopback = InetAddress.getLoopbackAddress();
    router = HttpServer.create(new InetSocketAddress(loopback, routerPort), 64);
    prefill = HttpServer.create(new InetSocketAddress(loopback, prefillPort), 64);
    decode = HttpServer.create(new InetSocketAddress(loopback, decodePort), 64);
    router.createContext("/", this::routerRoute);
    prefill.createContext("/", ex -> nodeRoute(ex, "prefill", true));
    decode.createContext("/", ex -> nodeRoute(ex, "decode", false));
    for (HttpServer s : List.of(router, prefill, decode)) {
      s.setExecutor(executor);
      s.start();
    }
  }

  /** Starts the double on free loopback ports. */
  public static EngineDouble start(DoubleConfig config) throws IOException {
    return new EngineDouble(config, 0, 0, 0);
  }

  static EngineDouble start(DoubleConfig config, int routerPort, int prefillPort, int decodePort) throws IOException {
    return new EngineDouble(config, routerPort, prefillPort, decodePort);
  }

  public URI routerUri() {
    return uri(router);
  }

  public URI prefillUri() {
    return uri(prefill);
  }

  public URI decodeUri() {
    return uri(decode);
  }

  private static URI uri(HttpServer s) {
    return URI.create("http://127.0.0.1:" + s.getAddress().getPort());
  }

  /** Switches between the buggy and the fixed admission (and whatever else the config says). */
  public void reconfigure(DoubleConfig c) {
    this.config = c;
  }

  /** The router answers {@code /generate} with 404 from now on, as a gateway without it does. */
  public void stopServingGenerate() {
    servesGenerate = false;
  }

  /** Generation requests (chat and generate) the router has received. */
  public int generationRequests() {
    return posts.get();
  }

  public int maxConcurrent() {
    return maxInFlight.get();
  }

  public long promptTokensReceived() {
    return promptTokensReceived.get();
  }

  /** When each generation request arrived (System.nanoTime), in arrival order. */
  public List<Long> arrivals() {
    synchronized (startNanos) {
      return List.copyOf(startNanos);
    }
  }

  @Override
  public void close() {
    for (HttpServer s : List.of(router, prefill, decode)) {
      s.stop(0);
    }
    executor.shutdownNow();
  }

  // ---------------------------------------------------------------- node servers (config endpoints)

  private void nodeRoute(HttpExchange ex, String role, boolean newerPaths) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      if (!"GET".equals(ex.getRequestMethod())) {
        json(ex, 405, Map.of("detail", "Method Not Allowed"));
        return;
      }
      switch (path) {
        case "/server_info" -> { if (newerPaths) json(ex, 200, serverInfo(role)); else notFound(ex); }
        case "/get_server_info" -> { if (!newerPaths) json(ex, 200, serverInfo(role)); else notFound(ex); }
        case "/model_info" -> { if (newerPaths) json(ex, 200, modelInfo()); else notFound(ex); }
        case "/get_model_info" -> { if (!newerPaths) json(ex, 200, modelInfo()); else notFound(ex); }
        case "/v1/models" -> json(ex, 200, models());
        case "/metrics" -> text(ex, 200, metrics(role), "text/plain; version=0.0.4; charset=utf-8");
        case "/health" -> text(ex, 200, "", "text/plain");
        default -> notFound(ex);
      }
    }
  }

  private Map<String, Object> serverInfo(String role) {
    DoubleConfig c = config;
    long pool = role.equals("prefill") ? c.prefillPoolTokens() : c.decodePoolTokens();
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("model_path", "/models/" + c.model());
    args.put("tokenizer_path", "/models/" + c.model());
    args.put("context_length", null); // the model's own, as most deployments leave it
    args.put("host", "127.0.0.1");
    args.put("mem_fraction_static", 0.85);
    args.put("max_running_requests", 128);
    args.put("max_total_tokens", null);
    args.put("chunked_prefill_size", 8192);
    args.put("page_size", c.pageSize());
    args.put("tp_size", 8);
    args.put("dp_size", 1);
    args.put("served_model_name", c.model());
    args.put("disaggregation_mode", role);
    args.put("disaggregation_transfer_backend", "mooncake");
    args.put("disaggregation_bootstrap_port", 8998);
    if (c.admission() == DoubleConfig.Admission.FIXED) {
      args.put("kv_canary", "log");
      args.put("disaggregation_enable_kv_checksum", true);
      args.put("disaggregation_deferred_kv_release", true);
    } else {
      args.put("disaggregation_enable_kv_checksum", false);
    }
    Map<String, Object> info = new LinkedHashMap<>(args);
    info.put("status", "ready");
    info.put("max_total_num_tokens", pool);
    info.put("max_req_input_len", pool - 5);
    Map<String, Object> rank = new LinkedHashMap<>(args);
    rank.put("last_gen_throughput", 0.0);
    rank.put("memory_usage", Map.of("weight", 61.2, "kvcache", 10.4, "token_capacity", pool, "graph", 1.1));
    info.put("internal_states", List.of(rank));
    info.put("version", c.version());
    return info;
  }

  private Map<String, Object> modelInfo() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("model_path", "/models/" + config.model());
    m.put("tokenizer_path", "/models/" + config.model());
    m.put("is_generation", true);
    m.put("preferred_sampling_params", null);
    m.put("weight_version", "default");
    return m;
  }

  private Map<String, Object> models() {
    Map<String, Object> card = new LinkedHashMap<>();
    card.put("id", config.model());
    card.put("object", "model");
    card.put("created", 1_760_000_000L);
    card.put("owned_by", "sglang");
    card.put("root", config.model());
    card.put("max_model_len", config.contextLength());
    return Map.of("object", "list", "data", List.of(card));
  }

  private String metrics(String role) {
    DoubleConfig c = config;
    long pool = role.equals("prefill") ? c.prefillPoolTokens() : c.decodePoolTokens();
    String labels = "{engine_type=\"" + role + "\",model_name=\"" + c.model() + "\",moe_ep_rank=\"0\",pp_rank=\"0\",tp_rank=\"%d\"}";
    StringBuilder b = new StringBuilder();
    gauge(b, "sglang:max_total_num_tokens", "Maximum total number of tokens in the KV cache pool.", labels, pool);
    gauge(b, "sglang:page_size", "KV cache page size in tokens.", labels, c.pageSize());
    gauge(b, "sglang:num_pages", "Number of KV cache pages.", labels, pool / c.pageSize());
    gauge(b, "sglang:context_len", "Maximum context length.", labels, c.contextLength());
    gauge(b, "sglang:token_usage", "The token usage.", labels, 0);
    return b.toString();
  }

  private static void gauge(StringBuilder b, String name, String help, String labels, double value) {
    b.append("# HELP ").append(name).append(' ').append(help).append('\n');
    b.append("# TYPE ").append(name).append(" gauge\n");
    for (int tp = 0; tp < 2; tp++) {
      b.append(name).append(String.format(labels, tp)).append(' ').append(value).append('\n');
    }
  }

  // ---------------------------------------------------------------- router (generation)

  private void routerRoute(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      if ("/v1/models".equals(path) && "GET".equals(ex.getRequestMethod())) {
        json(ex, 200, models());
        return;
      }
      if ("/health".equals(path)) {
        text(ex, 200, "", "text/plain");
        return;
      }
      boolean chat = "/v1/chat/completions".equals(path);
      if (!chat && (!"/generate".equals(path) || !servesGenerate) || !"POST".equals(ex.getRequestMethod())) {
        notFound(ex);
        return;
      }
      posts.incrementAndGet();
      startNanos.add(System.nanoTime());
      int now = inFlight.incrementAndGet();
      maxInFlight.accumulateAndGet(now, Math::max);
      try {
        generate(ex, chat);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        inFlight.decrementAndGet();
      }
    }
  }

  private void generate(HttpExchange ex, boolean chat) throws IOException, InterruptedException {
    DoubleConfig c = config;
    JsonNode body = JSON.readTree(ex.getRequestBody());
    String prompt;
    int maxNew;
    if (chat) {
      StringBuilder b = new StringBuilder();
      body.path("messages").forEach(m -> b.append(m.path("content").asText("")));
      prompt = b.toString();
      maxNew = body.path("max_tokens").asInt(16);
    } else {
      prompt = body.path("text").asText("");
      maxNew = body.path("sampling_params").path("max_new_tokens").asInt(16);
    }
    boolean stream = body.path("stream").asBoolean(false);
    String rid = chat ? UUID.randomUUID().toString().replace("-", "") : body.path("rid").asText(UUID.randomUUID().toString());
    long tokens = PagedKvPool.tokens(prompt) + (chat ? CHAT_TEMPLATE_TOKENS : 0);
    promptTokensReceived.addAndGet(tokens);
    String tag = chat ? body.path("user").asText("") : rid;
    codesByTag.put(tag, codes(prompt));
    authorizations.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));

    if (tokens > c.contextLength()) {
      // TokenizerManager's check; /generate streams report it as an error event inside a 200.
      String message = "The input (" + tokens + " tokens) is longer than the model's context length (" + c.contextLength() + " tokens).";
      if (!chat && stream) {
        startStream(ex);
        event(ex.getResponseBody(), Map.of("error", Map.of("message", message)));
        done(ex.getResponseBody());
      } else {
        json(ex, 400, error(message));
      }
      return;
    }
    long admissible = Math.min(c.prefillPoolTokens(), c.decodePoolTokens());
    if (tokens > admissible && c.admission() == DoubleConfig.Admission.FIXED) {
      json(ex, 400, error("Input length (" + tokens + " tokens) exceeds the maximum allowed length (" + admissible
          + " tokens). Use a shorter input or enable --allow-auto-truncate."));
      return;
    }
    String attended;
    long reportedPrompt;
    int[] decodePages;
    if (tokens > admissible) {
      // The incident: prefill swaps the prompt for a one-token stub and marks it aborted; decode's
      // queue only asks finished(), reserves pages for the whole prompt and attends over all of them.
      decodePages = decodePool.reserveUpTo(decodePool.pagesFor(tokens));
      decodePool.write(decodePages.length == 0 ? decodePages : new int[] {decodePages[0]}, "<s> ");
      attended = decodePool.read(decodePages);
      reportedPrompt = 1;
      if (stream) {
        startStream(ex);
      }
    } else {
      int[] prefillPages = prefillPool.allocate(prefillPool.pagesFor(tokens));
      if (stream) {
        startStream(ex); // headers go out at once; the first token waits for the prefill
      }
      sleepMicros(c.prefillMicrosPerToken() * tokens);
      prefillPool.write(prefillPages, prompt);
      decodePages = decodePool.allocate(decodePool.pagesFor(tokens));
      decodePool.write(decodePages, prompt); // the KV transfer
      prefillPool.release(prefillPages);
      attended = decodePool.read(decodePages);
      reportedPrompt = tokens;
    }
    try {
      String reply = reply(attended, maxNew);
      long completion = PagedKvPool.tokens(reply);
      if (stream) {
        streamReply(ex.getResponseBody(), chat, rid, c.model(), reply, reportedPrompt, completion);
      } else {
        json(ex, 200, chat ? chatCompletion(rid, c.model(), reply, reportedPrompt, completion)
            : generateResult(rid, reply, reportedPrompt, completion, true));
      }
    } finally {
      decodePool.release(decodePages);
    }
  }

  /** The codes the request tagged {@code tag} (chat {@code user}, generate {@code rid}) carried in its prompt. */
  public Set<String> codesSentBy(String tag) {
    return codesByTag.getOrDefault(tag, Set.of());
  }

  /** The Authorization header of each generation request ("null" when absent). */
  public List<String> authorizations() {
    synchronized (authorizations) {
      return List.copyOf(authorizations);
    }
  }

  private static Set<String> codes(String text) {
    Set<String> codes = new LinkedHashSet<>();
    Matcher m = CODE.matcher(text);
    while (m.find()) {
      codes.add(m.group());
    }
    return codes;
  }

  /** The double's "model": every code it can see in its attended pages, in order, up to maxNew tokens. */
  static String reply(String attended, int maxNew) {
    Set<String> codes = codes(attended);
    String text = codes.isEmpty() ? "No codes in view." : "Codes in view:\n" + String.join("\n", codes);
    int max = maxNew * PagedKvPool.CHARS_PER_TOKEN;
    return text.length() <= max ? text : text.substring(0, max);
  }

  private void streamReply(OutputStream out, boolean chat, String rid, String model, String reply, long prompt, long completion)
      throws IOException {
    long created = System.currentTimeMillis() / 1000;
    if (chat) {
      event(out, chunk(rid, model, created, Map.of("role", "assistant", "content", ""), null));
    }
    StringBuilder sofar = new StringBuilder();
    for (int i = 0; i < reply.length(); i += STREAM_PIECE_CHARS) {
      String piece = reply.substring(i, Math.min(reply.length(), i + STREAM_PIECE_CHARS));
      sofar.append(piece);
      if (chat) {
        event(out, chunk(rid, model, created, Map.of("content", piece), null));
      } else {
        event(out, generateResult(rid, sofar.toString(), prompt, PagedKvPool.tokens(sofar.toString()), false));
      }
    }
    if (chat) {
      event(out, chunk(rid, model, created, Map.of(), "length"));
      ObjectNode usage = JSON.createObjectNode();
      usage.put("id", rid).put("object", "chat.completion.chunk").put("created", created).put("model", model);
      usage.putArray("choices");
      usage.putObject("usage").put("prompt_tokens", prompt).put("total_tokens", prompt + completion).put("completion_tokens", completion);
      event(out, usage);
    } else {
      event(out, generateResult(rid, reply, prompt, completion, true));
    }
    done(out);
  }

  private static ObjectNode chunk(String rid, String model, long created, Map<String, String> delta, String finish) {
    ObjectNode n = JSON.createObjectNode();
    n.put("id", rid).put("object", "chat.completion.chunk").put("created", created).put("model", model);
    ObjectNode choice = ((ArrayNode) n.putArray("choices")).addObject();
    choice.put("index", 0);
    ObjectNode d = choice.putObject("delta");
    delta.forEach(d::put);
    choice.putNull("logprobs");
    if (finish == null) {
      choice.putNull("finish_reason");
    } else {
      choice.put("finish_reason", finish);
    }
    n.putNull("usage");
    return n;
  }

  private static Map<String, Object> chatCompletion(String rid, String model, String reply, long prompt, long completion) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", rid);
    m.put("object", "chat.completion");
    m.put("created", System.currentTimeMillis() / 1000);
    m.put("model", model);
    m.put("choices", List.of(Map.of("index", 0, "message", Map.of("role", "assistant", "content", reply), "finish_reason", "length")));
    m.put("usage", Map.of("prompt_tokens", prompt, "total_tokens", prompt + completion, "completion_tokens", completion));
    return m;
  }

  private static Map<String, Object> generateResult(String rid, String text, long prompt, long completion, boolean last) {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("id", rid);
    meta.put("finish_reason", last ? Map.of("type", "length", "length", completion) : null);
    meta.put("prompt_tokens", prompt);
    meta.put("completion_tokens", completion);
    meta.put("cached_tokens", 0);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("text", text);
    m.put("meta_info", meta);
    return m;
  }

  private static Map<String, Object> error(String message) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("object", "error");
    m.put("message", message);
    m.put("type", "BadRequestError");
    m.put("param", null);
    m.put("code", 400);
    return m;
  }

  private static void sleepMicros(long micros) throws InterruptedException {
    Thread.sleep(micros / 1000, (int) (micros % 1000) * 1000);
  }

  // ---------------------------------------------------------------- HTTP plumbing

  private static void startStream(HttpExchange ex) throws IOException {
    ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
    ex.sendResponseHeaders(200, 0);
  }

  private static void event(OutputStream out, Object payload) throws IOException {
    out.write(("data: " + JSON.writeValueAsString(payload) + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static void done(OutputStream out) throws IOException {
    out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static void json(HttpExchange ex, int status, Object body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    ex.getResponseBody().write(bytes);
  }

  private static void text(HttpExchange ex, int status, String body, String type) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type);
    ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      ex.getResponseBody().write(bytes);
    }
  }

  private static void notFound(HttpExchange ex) throws IOException {
    json(ex, 404, Map.of("detail", "Not Found"));
  }
}
