package io.kvscope.probe.canary;

import io.kvscope.model.identifiers.CanaryMarker;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Canary markers: {@code KVCANARY-} + an 8-character run tag + 12 random characters, e.g.
 * {@code KVCANARY-Q7M2K9XDH4TZ81PWLC3R}. The prefix is the analysis' default canary prefix, so probe
 * traffic that later turns up in logs is read as canaries there too. The 12 random characters (62
 * bits) mean a marker seen in a response it was not given to came from the prompt it was given to;
 * a model cannot guess one.
 */
public final class Markers {

  static final int TAG_CHARS = 8;
  static final int RANDOM_CHARS = 12;
  private static final char[] ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();
  /** Anything shaped like a canary, whoever issued it (the redactor's canary pattern). */
  private static final Pattern ANY = Pattern.compile(CanaryMarker.ANY_REGEX);

  private final String runTag;
  private final RandomGenerator random;

  Markers(String runTag, RandomGenerator random) {
    if (runTag.length() != TAG_CHARS) {
      throw new IllegalArgumentException("a run tag has " + TAG_CHARS + " characters");
    }
    this.runTag = runTag;
    this.random = random;
  }

  /** Markers for a new run, with a fresh random run tag. */
  public static Markers forNewRun() {
    SecureRandom random = new SecureRandom();
    return new Markers(randomChars(random, TAG_CHARS), random);
  }

  public String runTag() {
    return runTag;
  }

  /** A new marker of this run. */
  public synchronized String next() {
    return CanaryMarker.PREFIX + runTag + randomChars(random, RANDOM_CHARS);
  }

  /** Every canary-shaped string in {@code text}, in order, repeats included. */
  public static List<String> find(String text) {
    List<String> found = new ArrayList<>();
    if (text == null) {
      return found;
    }
    Matcher m = ANY.matcher(text);
    while (m.find()) {
      found.add(CanaryMarker.PREFIX + m.group(1));
    }
    return found;
  }

  /** The part after the prefix and run tag, or null when {@code marker} is not of this run. */
  String randomPart(String marker) {
    String own = CanaryMarker.PREFIX + runTag;
    return marker.startsWith(own) ? marker.substring(own.length()) : null;
  }

  static String randomChars(RandomGenerator random, int n) {
    char[] c = new char[n];
    for (int i = 0; i < n; i++) {
      c[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return new String(c);
  }
}
