package io.kvscope.samples.out;

import java.io.ByteArrayOutputStream;

/** A reusable byte buffer one JSON line is rendered into before it goes to its file. */
final class LineBuffer extends ByteArrayOutputStream {

  LineBuffer() {
    super(1 << 16);
  }

  byte[] array() {
    return buf;
  }

  /** Lets a huge line's buffer go after use so one 10 MB prompt does not pin 10 MB forever. */
  void shrink() {
    if (buf.length > (1 << 22)) {
      buf = new byte[1 << 16];
    }
    reset();
  }
}
