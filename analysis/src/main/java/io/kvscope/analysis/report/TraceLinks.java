package io.kvscope.analysis.report;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Links from a request to its trace in the operator's own tracing tool (Langfuse, Phoenix, Jaeger,
 * Tempo...), built from a URL template with {@value #PLACEHOLDER} where the id goes. The template
 * is the operator's and is used as given; the trace id came from a log, so it is percent-encoded
 * into the URL (a hostile id can neither leave its path segment nor the attribute that holds the
 * link), and only http and https templates are taken (a {@code javascript:} link in a report
 * would run in the reader's browser).
 *
 * @param template null: no links
 */
public record TraceLinks(String template) {

  public static final String PLACEHOLDER = "{trace_id}";

  /** No template: reports show ids only. */
  public static final TraceLinks NONE = new TraceLinks(null);

  /**
   * The request aliases that hold a trace id, in order of preference: an OpenTelemetry trace id,
   * then the trace id LiteLLM logged (the one its Langfuse callback uses when none was passed in).
   */
  static final List<String> ALIAS_KINDS = List.of("trace_id:", "litellm_trace_id:");

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  public TraceLinks {
    if (template != null) {
      template = template.strip();
      if (!template.contains(PLACEHOLDER)) {
        throw new IllegalArgumentException("a trace URL template needs " + PLACEHOLDER + " where the trace id goes, "
            + "e.g. https://langfuse.example.com/project/P/traces/" + PLACEHOLDER);
      }
      String lower = template.toLowerCase(Locale.ROOT);
      if (!lower.startsWith("https://") && !lower.startsWith("http://")) {
        throw new IllegalArgumentException("a trace URL template must start with https:// or http://");
      }
      // What a URL may not hold unencoded (RFC 3986), and what would end a Markdown link or table cell.
      if (template.chars().anyMatch(c -> c <= ' ' || c == 0x7f || "\"<>\\^`|".indexOf(c) >= 0)) {
        throw new IllegalArgumentException("a trace URL template cannot hold spaces, control characters or any of "
            + "\" < > \\ ^ ` |; percent-encode them (a quote is %22, a space %20)");
      }
    }
  }

  /** The links {@code template} makes; {@link #NONE} for null or blank. */
  public static TraceLinks of(String template) {
    return template == null || template.isBlank() ? NONE : new TraceLinks(template);
  }

  public boolean enabled() {
    return template != null;
  }

  /** The link to {@code traceId}'s trace, or null without a template or an id. */
  public String url(String traceId) {
    if (template == null || traceId == null || traceId.isBlank()) {
      return null;
    }
    return template.replace(PLACEHOLDER, encode(traceId));
  }

  /** The trace id among a request's aliases ({@code kind:value}), or null when it has none. */
  public static String traceIdOf(List<String> aliases) {
    for (String kind : ALIAS_KINDS) {
      for (String alias : aliases) {
        if (alias.startsWith(kind) && alias.length() > kind.length()) {
          return alias.substring(kind.length());
        }
      }
    }
    return null;
  }

  /** RFC 3986 percent-encoding of everything but the unreserved characters, so the id stays one path segment. */
  static String encode(String id) {
    StringBuilder b = new StringBuilder(id.length() + 8);
    for (byte raw : id.getBytes(StandardCharsets.UTF_8)) {
      int c = raw & 0xff;
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_'
          || c == '~') {
        b.append((char) c);
      } else {
        b.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      }
    }
    return b.toString();
  }
}
