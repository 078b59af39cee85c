package io.kvscope.samples.out;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;

/**
 * Writes long text values through reusable char buffers: Jackson escapes a {@code char[]} much
 * faster than a {@link String} of several megabytes, and OTLP's JSON-inside-JSON attributes can be
 * built and written without intermediate strings.
 */
final class JsonText {

  /** An unsynchronised, reusable {@link Writer} over a growable char array. */
  static final class Chars extends Writer {
    char[] buf = new char[1 << 16];
    int len;

    void reset() {
      if (buf.length > (1 << 23)) {
        buf = new char[1 << 16];
      }
      len = 0;
    }

    private void ensure(int extra) {
      if (len + extra > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
      }
    }

    @Override
    public void write(char[] cbuf, int off, int n) {
      ensure(n);
      System.arraycopy(cbuf, off, buf, len, n);
      len += n;
    }

    @Override
    public void write(String s, int off, int n) {
      ensure(n);
      s.getChars(off, off + n, buf, len);
      len += n;
    }

    @Override
    public void write(int c) {
      ensure(1);
      buf[len++] = (char) c;
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }

  private final Chars scratch = new Chars();
  private final Chars inner = new Chars();

  /** Writes {@code s} as a JSON string value. */
  void string(JsonGenerator g, String s) throws IOException {
    scratch.reset();
    scratch.write(s, 0, s.length());
    g.writeString(scratch.buf, 0, scratch.len);
  }

  /** A cleared buffer to render an embedded JSON document into. */
  Chars inner() {
    inner.reset();
    return inner;
  }

  /** Writes what was rendered into {@link #inner()} as a JSON string value. */
  void innerAsString(JsonGenerator g) throws IOException {
    g.writeString(inner.buf, 0, inner.len);
  }
}
