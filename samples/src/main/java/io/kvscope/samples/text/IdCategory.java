package io.kvscope.samples.text;

import java.util.Locale;

/** Classes of sensitive identifiers the generator plants in private prompts. */
public enum IdCategory {
  EMAIL,
  PHONE,
  /** A bank or customer account number (12 digits). */
  ACCOUNT,
  UUID,
  /** A canary marker, {@code KVCANARY-} followed by 16 upper-case hex digits. */
  CANARY,
  /** An API-key-like token ({@code sk-live-...} or {@code AKIA...}); tenant-wide. */
  API_KEY,
  /** A valid IBAN without spaces; tenant-wide. */
  IBAN;

  /** Lower-case name as written in truth.json. */
  public String jsonName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Identifiers unique to one request (as opposed to tenant-wide secrets). */
  public boolean requestUnique() {
    return this == EMAIL || this == PHONE || this == ACCOUNT || this == UUID || this == CANARY;
  }

  public static IdCategory fromJson(String s) {
    return valueOf(s.toUpperCase(Locale.ROOT));
  }
}
