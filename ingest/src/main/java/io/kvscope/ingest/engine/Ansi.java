package io.kvscope.ingest.engine;

/** Terminal colour codes that some launchers leave in captured logs. */
public final class Ansi {

  private Ansi() {}

  /** {@code line} without ANSI escape sequences; the line itself when it has none. */
  public static String strip(String line) {
    if (line.indexOf('\u001b') < 0) {
      return line;
    }
    StringBuilder out = new StringBuilder(line.length());
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\u001b' && i + 1 < line.length() && line.charAt(i + 1) == '[') {
        int j = i + 2;
        while (j < line.length() && (Character.isDigit(line.charAt(j)) || line.charAt(j) == ';')) {
          j++;
        }
        if (j < line.length()) {
          i = j; // skip the final letter too
          continue;
        }
      }
      out.append(c);
    }
    return out.toString();
  }
}
