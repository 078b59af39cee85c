package io.kvscope.analysis.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The folder name of a tenant's bundle. Tenant names come from fields a customer can set
 * ({@code end_user}), so two different tenants must never share a folder, on any file system.
 *
 * <p>The name is an encoding, not a cleaned-up copy: lower-case ASCII letters, digits, {@code -}
 * and {@code _} stand for themselves, as does {@code .} anywhere but first; every other character
 * is written as its UTF-8 bytes, {@code ~} and two lower-case hex digits each ({@code Acme} becomes
 * {@code ~41cme}, {@code ../x} becomes {@code ~2e.~2fx}). Decoding is unambiguous, so different
 * tenants get different names; the result holds no upper-case letter and nothing but ASCII, so
 * a case-insensitive or normalising file system cannot merge two of them either; it never starts
 * with a dot. The empty name is {@code ~}.
 *
 * <p>An encoding longer than {@value #MAX_ENCODED} characters is cut and followed by {@code ~~}
 * and the SHA-256 of the tenant name: a form no short name can take ({@code ~} is otherwise
 * always followed by a hex digit), distinct between long names unless SHA-256 collides.
 */
final class BundleDirectoryName {

  /** Well inside the 255 bytes file systems allow for one name. */
  static final int MAX_ENCODED = 120;
  private static final int KEPT_WHEN_LONG = 60;

  private BundleDirectoryName() {}

  static String of(String tenant) {
    byte[] utf8 = tenant.getBytes(StandardCharsets.UTF_8);
    if (utf8.length == 0) {
      return "~";
    }
    StringBuilder name = new StringBuilder(utf8.length + 8);
    for (byte b : utf8) {
      int v = b & 0xff;
      boolean kept = (v >= 'a' && v <= 'z') || (v >= '0' && v <= '9') || v == '-' || v == '_'
          || (v == '.' && !name.isEmpty());
      if (kept) {
        name.append((char) v);
      } else {
        name.append('~').append(Character.forDigit(v >> 4, 16)).append(Character.forDigit(v & 0xf, 16));
      }
    }
    if (name.length() <= MAX_ENCODED) {
      return name.toString();
    }
    int cut = KEPT_WHEN_LONG;
    while (cut > 0 && (name.charAt(cut - 1) == '~' || (cut > 1 && name.charAt(cut - 2) == '~'))) {
      cut--; // never end inside a ~xx escape
    }
    return name.substring(0, cut) + "~~" + sha256(tenant);
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException impossible) {
      throw new IllegalStateException("every JVM has SHA-256", impossible);
    }
  }
}
