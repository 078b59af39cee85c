package io.kvscope.ingest.record;

import io.kvscope.ingest.Printable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Which engine version texts kvscope can read as a release: numeric parts of any length
 * ({@code 0.5.21}, {@code 99999999999999999999.1}), an optional {@code v}, PEP 440 pre-, post- and
 * dev-release parts ({@code 0.5.22rc1}, {@code 0.4.6.post1}, {@code 0.6.0.dev3}) and a local part
 * after {@code +} ({@code 0.10.1+cu126}). Anything else (a tag like {@code 0.5.x}, text with escapes)
 * names no release: the epoch's version is unknown, and the text is kept, escaped, in its source's
 * detail so a reader sees what the record said.
 */
public final class ReleaseNumber {

  /** Longer texts are no version a project publishes; the limit also bounds what a detail quotes. */
  private static final int MAX_CHARS = 200;

  private static final Pattern RELEASE = Pattern.compile(
      "v?\\d+(?:\\.\\d+)*(?:[.-]?(?:post|dev|rc|alpha|beta|a|b|c)\\.?\\d*)*(?:\\+[A-Za-z0-9.]+)?",
      Pattern.CASE_INSENSITIVE);

  /**
   * Texts already judged. Every epoch a request document carries is built again when it is read,
   * so an analysis asks about the same few versions once per request; the pattern was 5% of its
   * CPU. Bounded, since the texts come from the input.
   */
  private static final Map<String, Boolean> JUDGED = new ConcurrentHashMap<>();
  private static final int MAX_JUDGED = 1024;

  private ReleaseNumber() {}

  /** True when {@code text} is a release number; false for {@code null}. */
  public static boolean readable(String text) {
    if (text == null || text.length() > MAX_CHARS) {
      return false;
    }
    Boolean judged = JUDGED.get(text);
    if (judged != null) {
      return judged;
    }
    boolean readable = RELEASE.matcher(text.strip()).matches();
    if (JUDGED.size() < MAX_JUDGED) {
      JUDGED.put(text, readable);
    }
    return readable;
  }

  /** Why {@code text} is no version: the text quoted, escaped and cut to a readable length. */
  public static String unreadable(String text) {
    String shown = text.length() > 60 ? text.substring(0, 60) + "..." : text;
    return "version \"" + Printable.text(shown) + "\" is not a release number: unknown";
  }
}
