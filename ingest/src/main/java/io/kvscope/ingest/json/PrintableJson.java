package io.kvscope.ingest.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import io.kvscope.ingest.Printable;

/**
 * JSON that is safe to print: Jackson escapes C0 controls by itself; this also writes DEL, C1
 * controls, line separators and bidirectional controls ({@link Printable#isUnsafe}) as
 * <code>&#92;u00XX</code> escapes. The value read back is unchanged; only the raw bytes differ.
 */
public final class PrintableJson extends CharacterEscapes {

  private static final PrintableJson INSTANCE = new PrintableJson();

  private final int[] ascii;

  private PrintableJson() {
    ascii = standardAsciiEscapesForJSON();
    ascii[0x7f] = ESCAPE_STANDARD;
  }

  /** Sets {@code generator} to escape every unsafe character; returns it. */
  public static JsonGenerator configure(JsonGenerator generator) {
    generator.setCharacterEscapes(INSTANCE);
    return generator;
  }

  @Override
  public int[] getEscapeCodesForAscii() {
    return ascii;
  }

  @Override
  public SerializableString getEscapeSequence(int ch) {
    return Printable.isUnsafe(ch) ? new SerializedString(String.format("\\u%04x", ch)) : null;
  }
}
