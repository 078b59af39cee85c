package io.kvscope.samples.text;

import io.kvscope.samples.random.Rng;
import java.math.BigInteger;
import java.util.Locale;

/**
 * Makes realistic-looking identifiers. Request-unique ones are built from a per-tenant counter
 * through a bijection, so two requests never share an email, phone or account number and a
 * leaked identifier points at exactly one source request.
 */
public final class Identifiers {

  private static final String BASE62 =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

  private Identifiers() {}

  /** {@code first.last<counter>@domain}; names never end in digits, so the counter keeps it unique. */
  public static String email(String first, String last, long counter, String domain) {
    return first.toLowerCase(Locale.ROOT) + "." + last.toLowerCase(Locale.ROOT) + counter + "@" + domain;
  }

  /** {@code +CC-DDD-DDD-DDDD}: ten digits, a bijection of (tenant, counter). */
  public static String phone(int countryCode, int tenantIndex, long counter) {
    long n = Math.floorMod((tenantIndex * 10_000_000L + counter) * 7_919_111L + 3_141_592_653L, 10_000_000_000L);
    String d = String.format(Locale.ROOT, "%010d", n);
    return "+" + countryCode + "-" + d.substring(0, 3) + "-" + d.substring(3, 6) + "-" + d.substring(6);
  }

  /** Twelve digits, a bijection of (tenant, counter). */
  public static String account(int tenantIndex, long counter) {
    long n = Math.floorMod((tenantIndex * 100_000_000L + counter) * 982_451_653L + 271_828_182L, 1_000_000_000_000L);
    return String.format(Locale.ROOT, "%012d", n);
  }

  private static final String CANARY_PREFIX = "KVCANARY-";
  private static final int CANARY_DIGITS = 16;

  /**
   * The canaries planted in the world's prompts, as truth.json records them. The generator's own
   * statement of the format, not read from the analysis's marker rule, so a test of the extractor
   * against these canaries checks that rule.
   */
  public static final String CANARY_PATTERN = CANARY_PREFIX + "[0-9A-F]{" + CANARY_DIGITS + "}";

  /** A canary of {@link #CANARY_PATTERN}. */
  public static String canary(Rng rng) {
    return CANARY_PREFIX + rng.hex(CANARY_DIGITS).toUpperCase(Locale.ROOT);
  }

  /**
   * A canary of another issuer than kvscope: {@code canarytoken-} and 20 lower-case letters. No
   * digits, capitals or {@code @}, so no other identifier class (account, IBAN, e-mail, key) reads it.
   */
  public static String foreignCanary(Rng rng) {
    StringBuilder sb = new StringBuilder("canarytoken-");
    for (int i = 0; i < 20; i++) {
      sb.append((char) ('a' + rng.nextInt(26)));
    }
    return sb.toString();
  }

  public static String apiKey(Rng rng) {
    if (rng.chance(0.3)) {
      StringBuilder sb = new StringBuilder("AKIA");
      for (int i = 0; i < 16; i++) {
        sb.append(BASE62.charAt(rng.nextInt(26) + 10));
      }
      return sb.toString();
    }
    StringBuilder sb = new StringBuilder("sk-live-");
    for (int i = 0; i < 32; i++) {
      sb.append(BASE62.charAt(rng.nextInt(62)));
    }
    return sb.toString();
  }

  /** A German or Dutch IBAN with a valid ISO 13616 check. */
  public static String iban(Rng rng) {
    String country;
    String bban;
    if (rng.chance(0.6)) {
      country = "DE";
      bban = digits(rng, 18);
    } else {
      country = "NL";
      bban = "ABNA" + digits(rng, 10);
    }
    String rearranged = bban + country + "00";
    StringBuilder numeric = new StringBuilder();
    for (char c : rearranged.toCharArray()) {
      numeric.append(Character.isDigit(c) ? String.valueOf(c) : String.valueOf(c - 'A' + 10));
    }
    int check = 98 - new BigInteger(numeric.toString()).mod(BigInteger.valueOf(97)).intValue();
    return country + String.format(Locale.ROOT, "%02d", check) + bban;
  }

  private static String digits(Rng rng, int n) {
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      sb.append((char) ('0' + rng.nextInt(10)));
    }
    return sb.toString();
  }
}
