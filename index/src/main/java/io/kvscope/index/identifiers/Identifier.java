package io.kvscope.index.identifiers;

/**
 * A rare identifier found in text: an email, a key, an account number... {@code value} is
 * normalised (case, separators) so the same identifier written two ways matches; offsets are
 * char offsets into the original text.
 */
public record Identifier(Category category, String value, int start, int end) {

  /** The indexed form: {@code email:ana@example.com}. */
  public String term() {
    return category.id() + ":" + value;
  }

  /** Kinds of identifier, also the PII classes a report counts. */
  public enum Category {
    EMAIL, PHONE, API_KEY, IBAN, ACCOUNT_NUMBER, UUID, CANARY;

    public String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Category fromTerm(String term) {
      int colon = term.indexOf(':');
      return valueOf(term.substring(0, colon).toUpperCase(java.util.Locale.ROOT));
    }
  }
}
