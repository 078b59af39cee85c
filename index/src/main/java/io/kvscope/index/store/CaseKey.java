package io.kvscope.index.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret of one case: 32 random bytes created with the index, kept in it ({@value #FILE_NAME},
 * owner-only from its first byte), never printed. Every hash kvscope shows of sensitive text (a
 * redacted prompt, a leaked identifier) is an HMAC-SHA256 under it: the same text gives the same
 * hash everywhere in the case, so outputs can be matched, but nobody without the index can test a
 * guess against it (an unsalted hash of a phone number is undone by trying every number).
 *
 * <p>The file also marks the folder as a kvscope index, from before its first commit.
 */
public final class CaseKey {

  /** The key's file in the index folder. */
  public static final String FILE_NAME = "kvscope-case.key";
  private static final int BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final CaseKey EPHEMERAL = new CaseKey(random());

  private final byte[] secret;

  private CaseKey(byte[] secret) {
    this.secret = secret.clone();
  }

  /** The key of the index at {@code indexDir}, created (owner-only) when it has none yet. */
  static CaseKey createOrRead(Path indexDir) throws IOException {
    Path file = indexDir.resolve(FILE_NAME);
    byte[] fresh = random();
    try (SeekableByteChannel out = Files.newByteChannel(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
        OwnerOnly.fileAttributes())) {
      out.write(ByteBuffer.wrap(fresh));
      return new CaseKey(fresh);
    } catch (FileAlreadyExistsException existing) {
      return read(file);
    }
  }

  /**
   * The key of the index at {@code indexDir} for reading commands: its own, or (an index from
   * before keys, on a read-only copy) one that lives as long as this process.
   */
  public static CaseKey forReading(Path indexDir) {
    try {
      return Files.exists(indexDir.resolve(FILE_NAME)) ? read(indexDir.resolve(FILE_NAME)) : createOrRead(indexDir);
    } catch (IOException cannotKeepOne) {
      return EPHEMERAL;
    }
  }

  /** A key for text that comes from no index: stable within this process only. */
  public static CaseKey ephemeral() {
    return EPHEMERAL;
  }

  private static CaseKey read(Path file) throws IOException {
    byte[] secret = Files.readAllBytes(file);
    if (secret.length != BYTES) {
      throw new IOException(file + " is not a kvscope case key (" + secret.length + " bytes)");
    }
    return new CaseKey(secret);
  }

  private static byte[] random() {
    byte[] bytes = new byte[BYTES];
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  /** The first 8 hex digits of HMAC-SHA256(key, text). */
  public String hash(String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)), 0, 4);
    } catch (GeneralSecurityException impossible) {
      throw new IllegalStateException("every JVM has HmacSHA256", impossible);
    }
  }

  /** Never the secret itself. */
  @Override
  public String toString() {
    return "CaseKey[secret]";
  }
}
