package io.kvscope.ingest;

import java.util.Locale;

/**
 * The address forms nodes are known by: {@code host:port} (a Prometheus {@code instance}, a pod IP
 * with its container port, a server's own {@code host}/{@code port} arguments) and bare hosts (a
 * decode server's {@code bootstrap_host}). Hosts are compared as written, lower-cased.
 */
public final class NodeAddresses {

  private NodeAddresses() {}

  /**
   * Whether {@code host} names one machine: not blank, not a wildcard ({@code 0.0.0.0}, {@code ::})
   * and not loopback, which every server would share.
   */
  public static boolean concrete(String host) {
    if (host == null || host.isBlank()) {
      return false;
    }
    String h = bare(host);
    return !(h.equals("0.0.0.0") || h.equals("::") || h.equals("::1") || h.equals("localhost")
        || h.startsWith("127.") || h.equals("*") || h.equalsIgnoreCase("none"));
  }

  /** {@code host:port} ({@code [v6]:port} for IPv6), lower-cased; {@code null} without a concrete host or port. */
  public static String hostPort(String host, Long port) {
    if (!concrete(host) || port == null || port <= 0 || port > 65_535) {
      return null;
    }
    String h = bare(host);
    return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + port;
  }

  /** The host of {@code address} ({@code host:port}, {@code [v6]:port}, a URL or a bare host), lower-cased. */
  public static String hostOf(String address) {
    if (address == null || address.isBlank()) {
      return null;
    }
    String a = address.strip().toLowerCase(Locale.ROOT);
    int scheme = a.indexOf("://");
    if (scheme >= 0) {
      a = a.substring(scheme + 3);
    }
    int slash = a.indexOf('/');
    if (slash >= 0) {
      a = a.substring(0, slash);
    }
    if (a.startsWith("[")) {
      int close = a.indexOf(']');
      return close > 1 ? a.substring(1, close) : null;
    }
    int colon = a.indexOf(':');
    if (colon >= 0 && a.indexOf(':', colon + 1) < 0) {
      a = a.substring(0, colon); // host:port; a second colon means a bare IPv6 address
    }
    return a.isEmpty() ? null : a;
  }

  /** True when {@code name} looks like {@code host:port} rather than a node name. */
  public static boolean hasPort(String name) {
    if (name == null) {
      return false;
    }
    String n = name.strip();
    int colon = n.lastIndexOf(':');
    if (colon <= 0 || colon == n.length() - 1) {
      return false;
    }
    for (int i = colon + 1; i < n.length(); i++) {
      if (!Character.isDigit(n.charAt(i))) {
        return false;
      }
    }
    return n.startsWith("[") || n.indexOf(':') == colon;
  }

  private static String bare(String host) {
    String h = host.strip().toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    return h;
  }
}
