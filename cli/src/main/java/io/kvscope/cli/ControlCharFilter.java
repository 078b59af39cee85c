package io.kvscope.cli;

import io.kvscope.ingest.Printable;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The last line of defence for stdout and stderr: UTF-8 bytes pass through except the characters
 * {@link Printable#isUnsafe} names, which are written as {@link Printable}'s visible escapes. Only
 * the line feed is let through raw. Values are escaped where they are printed (that is what keeps a
 * newline in a file name from forging a summary line); this catches whatever text a library or an
 * exception message carries past them. A multi-byte character split across writes is held until
 * it is complete; bytes that are not UTF-8 are escaped too.
 */
final class ControlCharFilter extends FilterOutputStream {

  private final byte[] pending = new byte[4];
  private int pendingLength;
  private int expected;

  private ControlCharFilter(OutputStream out) {
    super(out);
  }

  /** A UTF-8 print stream over {@code out} that never writes a raw control character. */
  static PrintStream wrap(OutputStream out) {
    return new PrintStream(new ControlCharFilter(out), true, StandardCharsets.UTF_8);
  }

  /** What one write call passes on, sent to the stream below in one piece. */
  private final java.io.ByteArrayOutputStream passed = new java.io.ByteArrayOutputStream(256);

  @Override
  public void write(int b) throws IOException {
    take(b);
    drain();
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    for (int i = off; i < off + len; i++) {
      take(b[i]);
    }
    drain();
  }

  private void drain() throws IOException {
    if (passed.size() > 0) {
      passed.writeTo(out);
      passed.reset();
    }
  }

  private void take(int b) {
    int v = b & 0xff;
    if (expected > 0) {
      if ((v & 0xc0) == 0x80) {
        pending[pendingLength++] = (byte) v;
        if (pendingLength == expected) {
          completeSequence();
        }
        return;
      }
      escapeBytes(pending, pendingLength); // cut short: not UTF-8
      expected = 0;
      pendingLength = 0;
    }
    if (v < 0x80) {
      if (v == '\n' || !Printable.isUnsafe(v)) {
        passed.write(v);
      } else {
        writeEscape(v);
      }
    } else if (v >= 0xc2 && v <= 0xf4) {
      pending[0] = (byte) v;
      pendingLength = 1;
      expected = v < 0xe0 ? 2 : v < 0xf0 ? 3 : 4;
    } else {
      writeEscape(v); // a stray continuation byte or an impossible lead byte
    }
  }

  private void completeSequence() {
    int cp = new String(pending, 0, pendingLength, StandardCharsets.UTF_8).codePointAt(0);
    if (Printable.isUnsafe(cp)) {
      writeEscape(cp);
    } else {
      passed.write(pending, 0, pendingLength);
    }
    expected = 0;
    pendingLength = 0;
  }

  private void escapeBytes(byte[] bytes, int length) {
    for (int i = 0; i < length; i++) {
      writeEscape(bytes[i] & 0xff);
    }
  }

  private void writeEscape(int cp) {
    StringBuilder escape = new StringBuilder(8);
    Printable.appendEscape(escape, cp);
    passed.writeBytes(escape.toString().getBytes(StandardCharsets.US_ASCII));
  }

  @Override
  public void close() throws IOException {
    escapeBytes(pending, pendingLength);
    pendingLength = 0;
    expected = 0;
    drain();
    super.close();
  }
}
