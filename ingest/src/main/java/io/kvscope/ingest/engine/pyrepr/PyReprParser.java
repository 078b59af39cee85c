package io.kvscope.ingest.engine.pyrepr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Python {@code repr()} text from a position in a line. One parser per line; not reusable
 * across lines. Values the caller's {@link ReadSelection} does not ask for are scanned without allocation.
 */
public final class PyReprParser {

  /** Strings longer than this are kept as their length only. */
  public static final int DEFAULT_STRING_CAP = 4096;

  private static final int MAX_DEPTH = 200;

  private final String text;
  private final int end;
  private final int stringCap;
  private int pos;
  private int depth;

  public PyReprParser(String text, int from, int stringCap) {
    this.text = text;
    this.pos = from;
    this.end = text.length();
    this.stringCap = stringCap;
  }

  public PyReprParser(String text, int from) {
    this(text, from, DEFAULT_STRING_CAP);
  }

  /** Where the next read starts. */
  public int position() {
    return pos;
  }

  /** Reads one value (with any {@code ' ... '} truncation joined into it). */
  public PyValue value(ReadSelection want) {
    skipSpace();
    PyValue first = atom(want);
    while (truncationFollows()) {
      pos = skipSpaceFrom(skipSpaceFrom(pos) + 3);
      PyValue rest = atom(want);
      first = joinTruncated(first, rest);
    }
    return first;
  }

  /**
   * Reads {@code key=value, key=value, ...} up to the end of the text, the shape of SGLang's
   * {@code Finish: obj=..., out=...} message.
   */
  public Map<String, PyValue> keywordsToEnd(ReadSelection want) {
    Map<String, PyValue> result = new LinkedHashMap<>();
    while (true) {
      skipSpace();
      if (pos >= end) {
        return result;
      }
      String key = identifier();
      if (key == null || pos >= end || text.charAt(pos) != '=') {
        throw error("expected key=value");
      }
      pos++;
      ReadSelection child = want == null ? null : want.child(key);
      PyValue value = value(child);
      if (child != null) {
        result.put(key, value);
      }
      skipSpace();
      if (pos >= end) {
        return result;
      }
      if (text.charAt(pos) != ',') {
        throw error("expected ',' between key=value pairs");
      }
      pos++;
    }
  }

  private PyValue atom(ReadSelection want) {
    if (pos >= end) {
      throw error("line ends where a value should start");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '\'', '"' -> {
        return string(want != null);
      }
      case '[' -> {
        return sequence(want, ']');
      }
      case '(' -> {
        return sequence(want, ')');
      }
      case '{' -> {
        return dictOrSet(want);
      }
      case '<' -> {
        return angle(want != null);
      }
      default -> {
        // fall through to words
      }
    }
    if (isStringPrefix(c) && stringFollowsPrefix()) {
      return string(want != null);
    }
    int start = pos;
    String name = identifier();
    if (name != null && pos < end && text.charAt(pos) == '(') {
      return call(name, want);
    }
    pos = start;
    return bare(want != null);
  }

  private PyValue string(boolean keep) {
    while (text.charAt(pos) != '\'' && text.charAt(pos) != '"') {
      pos++; // b'', r'', u'' prefixes
    }
    char quote = text.charAt(pos++);
    int start = pos;
    boolean escaped = false;
    while (pos < end) {
      char c = text.charAt(pos);
      if (c == '\\') {
        escaped = true;
        pos += 2;
        continue;
      }
      if (c == quote) {
        int length = pos - start;
        pos++;
        if (!keep) {
          return PyValue.Skipped.SKIPPED;
        }
        if (length > stringCap) {
          return new PyValue.Str(null, length);
        }
        String raw = text.substring(start, start + length);
        return new PyValue.Str(escaped ? unescape(raw) : raw, length);
      }
      pos++;
    }
    throw error("line ends inside a quoted string");
  }

  private PyValue sequence(ReadSelection want, char close) {
    enter();
    pos++;
    List<PyValue> items = want == null ? null : new ArrayList<>();
    boolean truncated = false;
    while (true) {
      skipSpace();
      if (pos >= end) {
        throw error("line ends inside a '" + (close == ']' ? '[' : '(') + "'");
      }
      if (text.charAt(pos) == close) {
        pos++;
        break;
      }
      PyValue item = value(want);
      if (item instanceof PyValue.Seq s && s.truncated()) {
        truncated = true;
      }
      if (items != null) {
        items.add(item);
      }
      separator(close);
    }
    leave();
    return items == null ? PyValue.Skipped.SKIPPED : new PyValue.Seq(List.copyOf(items), truncated);
  }

  private PyValue dictOrSet(ReadSelection want) {
    enter();
    pos++;
    Map<String, PyValue> entries = null;
    List<PyValue> setItems = null;
    while (true) {
      skipSpace();
      if (pos >= end) {
        throw error("line ends inside a '{'");
      }
      if (text.charAt(pos) == '}') {
        pos++;
        break;
      }
      PyValue key = keyValue(want != null);
      skipSpace();
      if (pos < end && text.charAt(pos) == ':' && setItems == null) {
        pos++;
        String keyText = keyText(key);
        ReadSelection child = want == null ? null : want.child(keyText);
        PyValue value = value(child);
        if (child != null) {
          if (entries == null) {
            entries = new LinkedHashMap<>();
          }
          entries.put(keyText, value);
        }
      } else {
        if (want != null) {
          if (setItems == null) {
            setItems = new ArrayList<>();
          }
          setItems.add(key);
        }
      }
      separator('}');
    }
    leave();
    if (want == null) {
      return PyValue.Skipped.SKIPPED;
    }
    if (setItems != null) {
      return new PyValue.Seq(List.copyOf(setItems), false);
    }
    return new PyValue.Dict(entries == null ? Map.of() : entries);
  }

  /** A dict key: a string, number or bare word, stopping at ':'. */
  private PyValue keyValue(boolean keep) {
    char c = text.charAt(pos);
    if (c == '\'' || c == '"' || c == '[' || c == '(' || c == '{' || c == '<') {
      return value(keep ? ReadSelection.all() : null);
    }
    int start = pos;
    int nesting = 0;
    while (pos < end) {
      char k = text.charAt(pos);
      if (nesting == 0 && (k == ':' || k == ',' || k == '}')) {
        break;
      }
      if (k == '(' || k == '[') {
        nesting++;
      } else if ((k == ')' || k == ']') && nesting > 0) {
        nesting--;
      }
      pos++;
    }
    return keep ? classify(text.substring(start, pos).strip()) : PyValue.Skipped.SKIPPED;
  }

  private PyValue call(String name, ReadSelection want) {
    enter();
    pos++; // '('
    List<PyValue> args = want == null ? null : new ArrayList<>();
    Map<String, PyValue> keywords = want == null ? null : new LinkedHashMap<>();
    while (true) {
      skipSpace();
      if (pos >= end) {
        throw error("line ends inside an object's arguments");
      }
      if (text.charAt(pos) == ')') {
        pos++;
        break;
      }
      int start = pos;
      String key = identifier();
      if (key != null && pos < end && text.charAt(pos) == '='
          && (pos + 1 >= end || text.charAt(pos + 1) != '=')) {
        pos++;
        ReadSelection child = want == null ? null : want.child(key);
        PyValue value = value(child);
        if (child != null) {
          keywords.put(key, value);
        }
      } else {
        pos = start;
        ReadSelection positional = want != null && want.everything() ? want : null;
        PyValue value = value(positional);
        if (positional != null) {
          args.add(value);
        }
      }
      separator(')');
    }
    leave();
    if (want == null) {
      return PyValue.Skipped.SKIPPED;
    }
    return new PyValue.Call(name, List.copyOf(args), keywords);
  }

  /** {@code <SamplingParams object at 0x7f>}-style reprs, nested angle brackets allowed. */
  private PyValue angle(boolean keep) {
    int start = pos;
    int nesting = 0;
    while (pos < end) {
      char c = text.charAt(pos);
      if (c == '<') {
        nesting++;
      } else if (c == '>') {
        nesting--;
        if (nesting == 0) {
          pos++;
          return keep ? new PyValue.Raw(capped(start, pos)) : PyValue.Skipped.SKIPPED;
        }
      } else if (c == '\'' || c == '"') {
        string(false);
        continue;
      }
      pos++;
    }
    throw error("line ends inside a '<...>' repr");
  }

  /** A word, number or other unquoted text up to the next delimiter at this depth. */
  private PyValue bare(boolean keep) {
    int start = pos;
    int nesting = 0;
    while (pos < end) {
      char c = text.charAt(pos);
      if (nesting == 0 && (c == ',' || c == ')' || c == ']' || c == '}')) {
        break;
      }
      if (nesting == 0 && c == ' ' && truncationAt(pos)) {
        break;
      }
      if (c == '(' || c == '[' || c == '{') {
        nesting++;
      } else if ((c == ')' || c == ']' || c == '}') && nesting > 0) {
        nesting--;
      } else if (c == '\'' || c == '"') {
        string(false);
        continue;
      }
      pos++;
    }
    if (nesting > 0) {
      throw error("line ends inside an unquoted value");
    }
    if (pos == start) {
      throw error("expected a value");
    }
    return keep ? classify(capped(start, pos).strip()) : PyValue.Skipped.SKIPPED;
  }

  private static PyValue classify(String word) {
    switch (word) {
      case "None" -> {
        return PyValue.NoneValue.NONE;
      }
      case "True" -> {
        return new PyValue.Bool(true);
      }
      case "False" -> {
        return new PyValue.Bool(false);
      }
      case "inf", "-inf", "nan" -> {
        return new PyValue.Num(word.replace("inf", "Infinity").replace("nan", "NaN"));
      }
      default -> {
        return isNumber(word) ? new PyValue.Num(word) : new PyValue.Raw(word);
      }
    }
  }

  private static boolean isNumber(String s) {
    int i = 0;
    int n = s.length();
    if (i < n && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
      i++;
    }
    boolean digits = false;
    while (i < n && Character.isDigit(s.charAt(i))) {
      i++;
      digits = true;
    }
    if (i < n && s.charAt(i) == '.') {
      i++;
      while (i < n && Character.isDigit(s.charAt(i))) {
        i++;
        digits = true;
      }
    }
    if (!digits) {
      return false;
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i++;
      if (i < n && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
        i++;
      }
      boolean exponent = false;
      while (i < n && Character.isDigit(s.charAt(i))) {
        i++;
        exponent = true;
      }
      if (!exponent) {
        return false;
      }
    }
    return i == n;
  }

  private String identifier() {
    int start = pos;
    if (pos < end && (Character.isLetter(text.charAt(pos)) || text.charAt(pos) == '_')) {
      pos++;
      while (pos < end && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_'
          || text.charAt(pos) == '.')) {
        pos++;
      }
      return text.substring(start, pos);
    }
    return null;
  }

  private void separator(char close) {
    skipSpace();
    if (pos >= end) {
      throw error("line ends before '" + close + "'");
    }
    char c = text.charAt(pos);
    if (c == ',') {
      pos++;
    } else if (c != close) {
      throw error("expected ',' or '" + close + "'");
    }
  }

  private boolean truncationFollows() {
    int at = skipSpaceFrom(pos);
    return at > pos && truncationAt(pos);
  }

  /** SGLang elides long values as {@code <head> ... <tail>}: a space, three dots, a space. */
  private boolean truncationAt(int at) {
    int dots = skipSpaceFrom(at);
    return dots > at && text.startsWith("...", dots) && dots + 3 < end
        && Character.isWhitespace(text.charAt(dots + 3));
  }

  private static PyValue joinTruncated(PyValue head, PyValue tail) {
    if (head instanceof PyValue.Str a && tail instanceof PyValue.Str b) {
      return new PyValue.Str(null, a.length() + b.length());
    }
    if (head instanceof PyValue.Seq a && tail instanceof PyValue.Seq b) {
      List<PyValue> items = new ArrayList<>(a.items());
      items.addAll(b.items());
      return new PyValue.Seq(List.copyOf(items), true);
    }
    return head;
  }

  private boolean isStringPrefix(char c) {
    return c == 'b' || c == 'r' || c == 'u' || c == 'f' || c == 'B' || c == 'R' || c == 'U' || c == 'F';
  }

  private boolean stringFollowsPrefix() {
    int at = pos + 1;
    if (at < end && isStringPrefix(text.charAt(at))) {
      at++;
    }
    return at < end && (text.charAt(at) == '\'' || text.charAt(at) == '"');
  }

  private String capped(int start, int stop) {
    return stop - start > stringCap ? text.substring(start, start + stringCap) : text.substring(start, stop);
  }

  private static String keyText(PyValue key) {
    String t = key.text();
    return t != null ? t : String.valueOf(key);
  }

  private void skipSpace() {
    pos = skipSpaceFrom(pos);
  }

  private int skipSpaceFrom(int at) {
    while (at < end && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
    return at;
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw error("values nested deeper than " + MAX_DEPTH);
    }
  }

  private void leave() {
    depth--;
  }

  private PyReprException error(String what) {
    return new PyReprException(what + " (at character " + pos + " of " + end + ")");
  }

  private static String unescape(String raw) {
    StringBuilder out = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '\\' || i + 1 >= raw.length()) {
        out.append(c);
        continue;
      }
      char e = raw.charAt(++i);
      switch (e) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'r' -> out.append('\r');
        case 'x' -> i = hex(raw, i, 2, out);
        case 'u' -> i = hex(raw, i, 4, out);
        case 'U' -> i = hex(raw, i, 8, out);
        default -> out.append(e);
      }
    }
    return out.toString();
  }

  private static int hex(String raw, int at, int digits, StringBuilder out) {
    if (at + 1 + digits <= raw.length()) {
      try {
        int code = Integer.parseInt(raw.substring(at + 1, at + 1 + digits), 16);
        out.appendCodePoint(code);
        return at + digits;
      } catch (RuntimeException notHex) {
        // keep the text as written
      }
    }
    out.append('\\').append(raw.charAt(at));
    return at;
  }
}
