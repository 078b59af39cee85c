package io.kvscope.cli;

import java.lang.reflect.InvocationTargetException;

/**
 * The jar's entry point, compiled for Java 8 so that every Java still in use can load it: on a
 * Java older than kvscope needs, {@code java -jar kvscope.jar} says which Java it found and what to
 * run instead, where loading {@code KvScope} itself would end in an {@code
 * UnsupportedClassVersionError}. On a new enough Java it hands over to {@code KvScope.main}.
 * Nothing else of kvscope may be used here: only this class is Java 8 bytecode.
 */
public final class Launch {

  /** The Java feature release kvscope is compiled for (the build's {@code release}). */
  static final int NEEDED = 21;

  private Launch() {}

  public static void main(String[] args) throws Throwable {
    int running = feature(System.getProperty("java.specification.version", "0"));
    if (running < NEEDED) {
      System.err.println("kvscope: needs Java " + NEEDED + " or newer; this is Java " + running + ", from");
      System.err.println("  " + System.getProperty("java.home"));
      System.err.println("  Run bin/kvscope from the release: it finds a JDK " + NEEDED + "+ on this machine.");
      System.err.println("  Or start the jar with a newer Java: /path/to/jdk-" + NEEDED + "/bin/java -jar kvscope.jar");
      System.exit(2);
    }
    try {
      Class.forName("io.kvscope.cli.KvScope").getMethod("main", String[].class).invoke(null, (Object) args);
    } catch (InvocationTargetException failed) {
      throw failed.getCause();
    }
  }

  /** "1.8" -> 8, "17" -> 17, "25" -> 25. */
  static int feature(String specification) {
    String version = specification.startsWith("1.") ? specification.substring(2) : specification;
    int end = 0;
    while (end < version.length() && Character.isDigit(version.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Integer.parseInt(version.substring(0, end));
  }
}
