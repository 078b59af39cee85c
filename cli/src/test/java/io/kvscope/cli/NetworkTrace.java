package io.kvscope.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Network use of a child process, from its system calls ({@code strace -f -e trace=%network}).
 * A JVM probes its network stack at start-up (an unconnected {@code socket()} and a
 * {@code setsockopt} to learn whether IPv6 and SO_REUSEPORT exist) and glibc asks the local name
 * service cache over a Unix socket who the user is; none of that reaches a network. What counts as
 * use is any connect, bind, listen, accept, send or receive on anything but that Unix socket.
 */
final class NetworkTrace {

  private static final Pattern USE = Pattern.compile("\\b(connect|bind|listen|accept4?|sendto|sendmsg|sendmmsg|recvfrom|recvmsg)\\(");
  private static final Pattern LOCAL_NAME_SERVICE = Pattern.compile("sa_family=AF_UNIX, sun_path=\"/(var/)?run/nscd/socket\"");

  private NetworkTrace() {}

  static boolean available() {
    return ChildKvScope.works("strace", "-f", "-qq", "--seccomp-bpf", "-e", "trace=%network", "-o", "/dev/null", "true");
  }

  static List<String> wrapper(Path trace) {
    return List.of("strace", "-f", "-qq", "--seccomp-bpf", "-e", "trace=%network", "-o", trace.toString());
  }

  /** The traced calls that used a network. */
  static List<String> violations(Path trace) throws Exception {
    return Files.readAllLines(trace).stream()
        .filter(line -> USE.matcher(line).find())
        .filter(line -> !LOCAL_NAME_SERVICE.matcher(line).find())
        .toList();
  }
}
