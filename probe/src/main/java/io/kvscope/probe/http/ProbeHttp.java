package io.kvscope.probe.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The probe's only way onto the network: the JDK's HTTP client with a connect timeout, one
 * deadline per request that covers the whole body (a stream that never ends is cut), a size cap on
 * what is read, and the API key (when given) as a bearer token that is never printed or stored.
 */
public final class ProbeHttp implements AutoCloseable {

  /** Config responses are small; SGLang's server info repeats its arguments per DP rank. */
  public static final long MAX_GET_CHARS = 16L << 20;
  /** The longest error body kept (error messages, not data). */
  static final int MAX_ERROR_CHARS = 4096;

  private final HttpClient client;
  private final Duration requestTimeout;
  private final String bearer;
  private final String userAgent;
  private final ScheduledExecutorService deadlines;

  public ProbeHttp(Duration connectTimeout, Duration requestTimeout, String apiKey, String userAgent) {
    this.client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(connectTimeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    this.requestTimeout = requestTimeout;
    this.bearer = apiKey == null || apiKey.isBlank() ? null : "Bearer " + apiKey.strip();
    this.userAgent = userAgent;
    this.deadlines = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "kvscope-probe-deadlines");
      t.setDaemon(true);
      return t;
    });
  }

  /** A read-only GET of a config endpoint. */
  public Fetched get(URI uri) {
    long start = System.nanoTime();
    HttpRequest request = base(uri).GET().build();
    StringBuilder body = new StringBuilder();
    Posted result = exchange(request, start, MAX_GET_CHARS, (line, at) -> body.append(line).append('\n'), false);
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    if (result.status() < 0) {
      return new Fetched(uri, -1, null, ms, result.error(), false);
    }
    String text = result.success() ? body.toString() : result.errorBody();
    return new Fetched(uri, result.status(), text, ms, result.error(), result.truncated());
  }

  /**
   * POSTs a JSON body and hands a 2xx body to {@code sink} as it streams in (server-sent events
   * one payload at a time, any other body whole), reading at most {@code maxChars}.
   */
  public Posted postJson(URI uri, String json, long maxChars, PayloadSink sink) {
    HttpRequest request = base(uri)
        .header("Content-Type", "application/json")
        .header("Accept", "text/event-stream, application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8))
        .build();
    return exchange(request, System.nanoTime(), maxChars, sink, true);
  }

  private HttpRequest.Builder base(URI uri) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(requestTimeout).header("User-Agent", userAgent);
    if (bearer != null) {
      b.header("Authorization", bearer);
    }
    return b;
  }

  private Posted exchange(HttpRequest request, long start, long maxChars, PayloadSink sink, boolean events) {
    HttpResponse<InputStream> response;
    try {
      response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (HttpTimeoutException timeout) {
      return new Posted(-1, -1, elapsed(start), null, "timed out after " + requestTimeout.toSeconds() + " s", false, true);
    } catch (ConnectException refused) {
      return new Posted(-1, -1, elapsed(start), null, "connection refused or unreachable", false, false);
    } catch (IOException e) {
      return new Posted(-1, -1, elapsed(start), null, describe(e), false, false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Posted(-1, -1, elapsed(start), null, "interrupted", false, false);
    }
    long headers = elapsed(start);
    int status = response.statusCode();
    InputStream body = response.body();
    AtomicBoolean cut = new AtomicBoolean();
    long remaining = requestTimeout.toNanos() - headers;
    ScheduledFuture<?> deadline = deadlines.schedule(() -> {
      cut.set(true);
      closeQuietly(body);
    }, Math.max(1, remaining), TimeUnit.NANOSECONDS);
    boolean success = status >= 200 && status < 300;
    String contentType = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
    boolean sse = events && contentType.startsWith("text/event-stream");
    // Error bodies are kept whole (capped small); a GET body goes to the sink line by line; an
    // event stream one data payload at a time, as it arrives; any other POST body whole, at its end.
    StringBuilder whole = new StringBuilder();
    BoundedLines lines = new BoundedLines(new InputStreamReader(body, StandardCharsets.UTF_8),
        success ? maxChars : MAX_ERROR_CHARS);
    String error = null;
    try (body) {
      String line;
      while ((line = lines.next()) != null) {
        if (!success || events && !sse) {
          whole.append(line).append('\n');
        } else if (!events) {
          sink.payload(line, elapsed(start));
        } else {
          String data = dataOf(line);
          if ("[DONE]".equals(data)) {
            break;
          }
          if (data != null && !data.isEmpty()) {
            sink.payload(data, elapsed(start));
          }
        }
      }
    } catch (IOException e) {
      error = cut.get() ? "timed out after " + requestTimeout.toSeconds() + " s" : describe(e);
    } finally {
      deadline.cancel(false);
    }
    if (success && events && !sse && !whole.isEmpty()) {
      sink.payload(whole.toString().strip(), elapsed(start));
    }
    return new Posted(status, headers, elapsed(start), success ? null : whole.toString().strip(), error,
        lines.truncated(), cut.get());
  }

  /** The payload of an SSE {@code data:} line, or null for other fields and comments. */
  static String dataOf(String line) {
    if (!line.startsWith("data:")) {
      return null;
    }
    return line.substring(5).strip();
  }

  private static long elapsed(long start) {
    return System.nanoTime() - start;
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // closing to cut a stream past its deadline; nothing to do if it is already gone
    }
  }

  private static String describe(IOException e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  @Override
  public void close() {
    deadlines.shutdownNow();
    client.shutdownNow();
  }
}
