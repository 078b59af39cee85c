package io.kvscope.samples.text;

import java.util.ArrayList;
import java.util.List;

/**
 * One sentence pattern: literal tokens and {@link Slot}s, parsed once from a string such as
 * {@code "Please {VERB} the {ADJ} {NOUN} before {DATE} ."} (tokens are separated by spaces;
 * punctuation written as its own token is glued to the previous word).
 */
public final class Template {

  /** What a slot is filled with. */
  public enum Slot {
    FIRST, LAST, PERSON, DEPT, NOUN, NOUNS, DNOUN, DNOUNS, ADJ, VERB, VPAST, ADV, CITY, DATE,
    MONTH, WEEKDAY, NUM, AMOUNT, PERCENT, PROJECT, COMPANY, TNOUN, TNOUNS, TVERB, TVPAST, TADJ,
    LNOUN, LNOUNS, SECTION, EMAIL, PHONE, ACCOUNT, UUID, CANARY, APIKEY, IBAN, CEMAIL
  }

  private static final String PUNCT = ".,;:?!";

  private final Object[] parts;

  private Template(Object[] parts) {
    this.parts = parts;
  }

  public static Template parse(String pattern) {
    List<Object> parts = new ArrayList<>();
    for (String tok : pattern.trim().split(" +")) {
      if (tok.startsWith("{") && tok.endsWith("}")) {
        parts.add(Slot.valueOf(tok.substring(1, tok.length() - 1)));
      } else if (tok.length() == 1 && PUNCT.indexOf(tok.charAt(0)) >= 0) {
        parts.add(new Punct(tok));
      } else {
        parts.add(tok);
      }
    }
    return new Template(parts.toArray());
  }

  static Template[] parseAll(String... patterns) {
    Template[] out = new Template[patterns.length];
    for (int i = 0; i < patterns.length; i++) {
      out[i] = parse(patterns[i]);
    }
    return out;
  }

  Object[] parts() {
    return parts;
  }

  record Punct(String mark) {}
}
