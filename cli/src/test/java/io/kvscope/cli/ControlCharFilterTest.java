package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ControlCharFilterTest {

  private static String through(byte[]... writes) {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    PrintStream filtered = ControlCharFilter.wrap(sink);
    for (byte[] write : writes) {
      filtered.write(write, 0, write.length);
    }
    filtered.flush();
    return sink.toString(StandardCharsets.UTF_8);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void textAndLineFeedsPassControlCharactersBecomeEscapes() {
    assertThat(through(utf8("caf\u00e9 \u00fc\u4e2d\ud83d\ude00 ok\n"))).isEqualTo("caf\u00e9 \u00fc\u4e2d\ud83d\ude00 ok\n");
    assertThat(through(utf8("a\u001b]52;c;SGVsbG8=\u0007b\u0000\r\t\u007f\n")))
        .isEqualTo("a\\x1b]52;c;SGVsbG8=\\x07b\\x00\\r\\t\\x7f\n");
    assertThat(through(utf8("csi\u009b2J bidi\u202eabc sep\u2028"))).isEqualTo("csi\\x9b2J bidi\\u202eabc sep\\u2028");
  }

  @Test
  void aCharacterSplitAcrossWritesIsJudgedWhole() {
    byte[] c1 = utf8("\u009b");
    byte[] bidi = utf8("\u202e");
    assertThat(through(new byte[] {c1[0]}, new byte[] {c1[1]}, utf8("x"))).isEqualTo("\\x9bx");
    assertThat(through(new byte[] {bidi[0], bidi[1]}, new byte[] {bidi[2]})).isEqualTo("\\u202e");
    byte[] euro = utf8("\u20ac");
    assertThat(through(new byte[] {euro[0]}, new byte[] {euro[1], euro[2]})).isEqualTo("\u20ac");
  }

  @Test
  void bytesThatAreNotUtf8AreEscaped() {
    assertThat(through(new byte[] {'a', (byte) 0x9b, 'b'})).isEqualTo("a\\x9bb");
    assertThat(through(new byte[] {(byte) 0xc3, 'x'})).isEqualTo("\\xc3x"); // a lead byte cut short
  }
}
