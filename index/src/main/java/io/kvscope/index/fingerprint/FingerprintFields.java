package io.kvscope.index.fingerprint;

import io.kvscope.model.fingerprint.FingerprintConfig;
import io.kvscope.model.fingerprint.Fingerprinter;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.util.Objects;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.util.BitUtil;
import org.apache.lucene.util.BytesRef;

/**
 * The two index fields that carry a request's fingerprints: {@value #PROMPT} and
 * {@value #RESPONSE}. Each distinct fingerprint becomes one value of a multi-valued 1-D point of
 * 8 bytes (the 64-bit hash, big-endian, so point order is unsigned hash order): a segment writes
 * them sorted into its BKD tree, which {@link HashStream} walks in hash order with their doc ids.
 * Not stored, no terms: as terms nearly every fingerprint was a new entry of the terms dictionary,
 * which cost ingest more (bench/README.md, "Ingest: the fingerprints as points"). Positions are not
 * needed because verification re-tokenizes the stored text.
 */
public final class FingerprintFields {

  /** Field of the fingerprints of a request's prompt. */
  public static final String PROMPT = "fp_prompt";
  /** Field of the fingerprints of a request's response. */
  public static final String RESPONSE = "fp_response";
  /** Bytes per point value. */
  public static final int BYTES = Long.BYTES;

  private static final FieldType TYPE = fieldType();

  private FingerprintFields() {}

  private static FieldType fieldType() {
    FieldType type = new FieldType();
    type.setDimensions(1, BYTES);
    type.freeze();
    return type;
  }

  /**
   * Adds the fingerprints of {@code promptText} and {@code responseText} (either may be
   * {@code null}) to {@code doc}, computed under {@code config}.
   */
  public static void addTo(
      Document doc, String promptText, String responseText, FingerprintConfig config) {
    addTo(doc, Hashes.of(promptText, responseText, new Fingerprinter(config)));
  }

  /** Adds fingerprints computed before, by whoever read the texts ({@link Hashes#of}). */
  public static void addTo(Document doc, Hashes hashes) {
    Objects.requireNonNull(doc, "doc");
    if (hashes.prompt() != null) {
      addHashes(doc, PROMPT, hashes.prompt());
    }
    if (hashes.response() != null) {
      addHashes(doc, RESPONSE, hashes.response());
    }
  }

  /**
   * The distinct fingerprint hashes of a prompt and a response, each null where there is no text:
   * the points {@link #addTo} gives a document. Computed once where the texts are read, they serve
   * both a document and whatever else needs them (the Spark job's fingerprint rows). The words
   * they were cut from come along: the document's text fields are indexed as those words, without
   * a second cut.
   */
  public record Hashes(long[] prompt, long[] response, TokenizedText promptWords, TokenizedText responseWords) {

    public static Hashes of(String promptText, String responseText, Fingerprinter fingerprinter) {
      TokenizedText promptWords = promptText == null ? null : WordTokenizer.tokenize(promptText);
      TokenizedText responseWords = responseText == null ? null : WordTokenizer.tokenize(responseText);
      return new Hashes(promptWords == null ? null : fingerprinter.fingerprint(promptWords).distinctHashes(),
          responseWords == null ? null : fingerprinter.fingerprint(responseWords).distinctHashes(),
          promptWords, responseWords);
    }
  }

  /** Adds already computed fingerprint hashes as point values of {@code field}. */
  public static void addHashes(Document doc, String field, long[] hashes) {
    for (long hash : hashes) {
      doc.add(new Field(field, packed(hash), TYPE));
    }
  }

  /** The point value of a fingerprint hash. */
  public static BytesRef packed(long hash) {
    byte[] bytes = new byte[BYTES];
    BitUtil.VH_BE_LONG.set(bytes, 0, hash);
    return new BytesRef(bytes);
  }

  /** The fingerprint hash of a point value written by {@link #packed(long)}. */
  public static long hash(byte[] packed) {
    return (long) BitUtil.VH_BE_LONG.get(packed, 0);
  }

  /**
   * Whether {@code field} (one of the two) holds its fingerprints as terms: so an earlier kvscope
   * wrote them, which this one neither reads nor can add to.
   */
  public static boolean heldAsTerms(FieldInfo field) {
    return field.getIndexOptions() != IndexOptions.NONE && field.getPointDimensionCount() == 0;
  }
}
