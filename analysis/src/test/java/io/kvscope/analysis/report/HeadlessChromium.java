package io.kvscope.analysis.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real headless Chromium showing one page, driven through the DevTools protocol over its
 * WebSocket (the JDK's own client; no driver to install): tests evaluate JavaScript in the page as
 * a user's browser runs it, click, type and measure the layout at a given window size.
 */
final class HeadlessChromium implements AutoCloseable {

  static final Path BINARY = Path.of("/usr/bin/chromium");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();

  private HeadlessChromium(Process process, WebSocket socket) {
    this.process = process;
    this.socket = socket;
  }

  static boolean available() {
    return Files.isExecutable(BINARY);
  }

  /** Opens {@code page} in a window of {@code width} x {@code height} CSS pixels. */
  static HeadlessChromium open(Path page, int width, int height, Path work) throws Exception {
    Path profile = Files.createDirectories(work.resolve("chromium-profile-" + width));
    Process process = new ProcessBuilder(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--hide-scrollbars", "--remote-debugging-port=0", "--user-data-dir=" + profile,
        "--window-size=" + width + "," + height, page.toUri().toString())
        .redirectErrorStream(true)
        .redirectOutput(work.resolve("chromium-" + width + ".log").toFile())
        .start();
    try {
      Path portFile = profile.resolve("DevToolsActivePort");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.exists(portFile) || Files.readAllLines(portFile).isEmpty()) {
        if (System.nanoTime() > deadline || !process.isAlive()) {
          throw new IOException("chromium did not open its DevTools port; it said:\n"
              + Files.readString(work.resolve("chromium-" + width + ".log")));
        }
        Thread.sleep(100);
      }
      int port = Integer.parseInt(Files.readAllLines(portFile).getFirst().strip());
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      String pageSocket = null;
      while (pageSocket == null) {
        JsonNode targets = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
            .build(), HttpResponse.BodyHandlers.ofString()).body());
        for (JsonNode t : targets) {
          if ("page".equals(t.path("type").asText())) {
            pageSocket = t.get("webSocketDebuggerUrl").asText();
          }
        }
        if (pageSocket == null) {
          if (System.nanoTime() > deadline) {
            throw new IOException("chromium opened no page");
          }
          Thread.sleep(100);
        }
      }
      Listener listener = new Listener();
      WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create(pageSocket), listener).get(30, TimeUnit.SECONDS);
      HeadlessChromium chromium = new HeadlessChromium(process, socket);
      listener.owner = chromium;
      chromium.waitFor("location.protocol === 'file:' && document.readyState === 'complete'");
      return chromium;
    } catch (Exception e) {
      process.destroyForcibly();
      throw e;
    }
  }

  /** The value of a JavaScript expression in the page (awaited when it is a promise). */
  JsonNode eval(String expression) throws Exception {
    ObjectNode params = JSON.createObjectNode();
    params.put("expression", expression);
    params.put("returnByValue", true);
    params.put("awaitPromise", true);
    JsonNode result = call("Runtime.evaluate", params);
    if (result.has("exceptionDetails")) {
      throw new AssertionError("page script failed: " + result.get("exceptionDetails"));
    }
    return result.path("result").path("value");
  }

  /**
   * Lays the page out as a phone of {@code width} x {@code height} CSS pixels would: a headless
   * window is never narrower than 500 pixels, so narrower screens are emulated.
   */
  void emulateScreen(int width, int height) throws Exception {
    ObjectNode params = JSON.createObjectNode();
    params.put("width", width);
    params.put("height", height);
    params.put("deviceScaleFactor", 1);
    params.put("mobile", true);
    call("Emulation.setDeviceMetricsOverride", params);
  }

  void waitFor(String condition) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!eval("!!(" + condition + ")").asBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("page never reached: " + condition);
      }
      Thread.sleep(50);
    }
  }

  private JsonNode call(String method, ObjectNode params) throws Exception {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    pending.put(id, answer);
    ObjectNode message = JSON.createObjectNode();
    message.put("id", id);
    message.put("method", method);
    message.set("params", params);
    socket.sendText(JSON.writeValueAsString(message), true).get(10, TimeUnit.SECONDS);
    JsonNode reply = answer.get(30, TimeUnit.SECONDS);
    if (reply.has("error")) {
      throw new AssertionError(method + " failed: " + reply.get("error"));
    }
    return reply.path("result");
  }

  /**
   * Asks the browser to quit and waits until it and its helper processes have gone, so nothing
   * still writes into its profile when the test's folder is deleted.
   */
  @Override
  public void close() {
    java.util.List<ProcessHandle> helpers = process.descendants().toList();
    try {
      ObjectNode quit = JSON.createObjectNode();
      quit.put("id", ids.incrementAndGet());
      quit.put("method", "Browser.close");
      socket.sendText(JSON.writeValueAsString(quit), true).get(5, TimeUnit.SECONDS);
    } catch (Exception alreadyGone) {
      // Then it is stopped below.
    }
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      for (ProcessHandle helper : helpers) {
        helper.destroy();
        helper.onExit().get(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception stuck) {
      helpers.forEach(ProcessHandle::destroyForcibly);
    } finally {
      socket.abort();
    }
  }

  /** Collects text frames into messages and hands replies to their callers. */
  private static final class Listener implements WebSocket.Listener {
    volatile HeadlessChromium owner;
    private final StringBuilder partial = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        try {
          JsonNode message = JSON.readTree(partial.toString());
          if (message.has("id") && owner != null) {
            CompletableFuture<JsonNode> waiting = owner.pending.remove(message.get("id").asInt());
            if (waiting != null) {
              waiting.complete(message);
            }
          }
        } catch (IOException e) {
          // A message we cannot read is not an answer to any call; the caller times out and says so.
        }
        partial.setLength(0);
      }
      webSocket.request(1);
      return null;
    }
  }
}
