package io.kvscope.model.identifiers;

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

    /** The name for people: "email address", "API key". */
    public String label() {
      return switch (this) {
        case EMAIL -> "email address";
        case PHONE -> "phone number";
        case API_KEY -> "API key";
        case IBAN -> "IBAN";
        case ACCOUNT_NUMBER -> "account number";
        case UUID -> "UUID";
        case CANARY -> "canary marker";
      };
    }

    /** The label of a category id as reports write it; an id of no known category with its underscores as spaces. */
    public static String labelOf(String id) {
      for (Category c : values()) {
        if (c.id().equals(id)) {
          return c.label();
        }
      }
      return id.replace('_', ' ');
    }

    public static Category fromTerm(String term) {
      int colon = term.indexOf(':');
      return valueOf(term.substring(0, colon).toUpperCase(java.util.Locale.ROOT));
    }
  }
}
