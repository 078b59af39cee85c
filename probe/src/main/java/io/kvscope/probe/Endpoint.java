package io.kvscope.probe;

import java.net.URI;
import java.util.Locale;

/**
 * A server the probe talks to: a name for reports (given, or host:port) and its base URL.
 */
public record Endpoint(String name, URI base) {

  public Endpoint {
    if (base == null || base.getScheme() == null || base.getHost() == null) {
      throw new IllegalArgumentException("an endpoint needs an absolute http(s) URL, got " + base);
    }
    String scheme = base.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException("only http and https endpoints can be probed, got " + base);
    }
    if (name == null || name.isBlank()) {
      name = base.getHost() + (base.getPort() > 0 ? ":" + base.getPort() : "");
    }
  }

  /** {@code NAME=URL} or just {@code URL}. */
  public static Endpoint parse(String spec) {
    String s = spec.strip();
    int eq = s.indexOf('=');
    int scheme = s.indexOf("://");
    if (eq > 0 && (scheme < 0 || eq < scheme)) {
      return new Endpoint(s.substring(0, eq).strip(), URI.create(s.substring(eq + 1).strip()));
    }
    return new Endpoint(null, URI.create(s));
  }

  /** The URL of {@code path} on this server, keeping a base path such as a gateway's prefix. */
  public URI resolve(String path) {
    String b = base.toString();
    return URI.create((b.endsWith("/") ? b.substring(0, b.length() - 1) : b) + path);
  }
}
