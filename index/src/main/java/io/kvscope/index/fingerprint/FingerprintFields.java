package io.kvscope.index.fingerprint;

import io.kvscope.model.fingerprint.FingerprintConfig;
import io.kvscope.model.fingerprint.Fingerprinter;
import java.util.Objects;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.util.BytesRef;

/**
 * The two index fields that carry a request's fingerprints: {@value #PROMPT} and
 * {@value #RESPONSE}. Each distinct fingerprint becomes one term of 8 bytes (the 64-bit hash,
 * big-endian, so term order is unsigned hash order), indexed with {@link IndexOptions#DOCS}
 * only: no positions, no frequencies, no norms, not stored. Positions are not needed because
 * verification re-tokenizes the stored text.
 */
public final class FingerprintFields {

  /** Field of the fingerprints of a request's prompt. */
  public static final String PROMPT = "fp_prompt";
  /** Field of the fingerprints of a request's response. */
  public static final String RESPONSE = "fp_response";
  /** Bytes per term. */
  public static final int TERM_BYTES = Long.BYTES;

  private static final FieldType TYPE = fieldType();

  private FingerprintFields() {}

  private static FieldType fieldType() {
    FieldType type = new FieldType();
    type.setIndexOptions(IndexOptions.DOCS);
    type.setTokenized(false);
    type.setOmitNorms(true);
    type.setStored(false);
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
   * the terms {@link #addTo} gives a document. Computed once where the texts are read, they serve
   * both a document and whatever else needs them (the Spark job's fingerprint rows).
   */
  public record Hashes(long[] prompt, long[] response) {

    public static Hashes of(String promptText, String responseText, Fingerprinter fingerprinter) {
      return new Hashes(promptText == null ? null : fingerprinter.distinctHashes(promptText),
          responseText == null ? null : fingerprinter.distinctHashes(responseText));
    }
  }

  /** Adds already computed fingerprint hashes as terms of {@code field}. */
  public static void addHashes(Document doc, String field, long[] hashes) {
    for (long hash : hashes) {
      doc.add(new Field(field, term(hash), TYPE));
    }
  }

  /** The index term of a fingerprint hash. */
  public static BytesRef term(long hash) {
    byte[] bytes = new byte[TERM_BYTES];
    for (int i = TERM_BYTES - 1; i >= 0; i--) {
      bytes[i] = (byte) hash;
      hash >>>= 8;
    }
    return new BytesRef(bytes);
  }

  /** The fingerprint hash of an index term written by {@link #term(long)}. */
  public static long hash(BytesRef term) {
    if (term.length != TERM_BYTES) {
      throw new IllegalArgumentException(
          "fingerprint terms have " + TERM_BYTES + " bytes, this one has " + term.length);
    }
    long hash = 0;
    for (int i = 0; i < TERM_BYTES; i++) {
      hash = (hash << 8) | (term.bytes[term.offset + i] & 0xFF);
    }
    return hash;
  }
}
