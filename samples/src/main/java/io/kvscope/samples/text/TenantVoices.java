package io.kvscope.samples.text;

import io.kvscope.samples.random.Rng;
import java.util.Arrays;
import java.util.Locale;

/** Makes a tenant's identity and voice: slug, company name, domain, vocabulary, secrets, system prompt. */
public final class TenantVoices {

  /** A made tenant identity. {@code id} is a slug such as {@code northwind-legal}. */
  public record Made(String id, String prefix, TenantVoice voice, TokenText systemPrompt) {}

  private static final int[] COUNTRY_CODES = {1, 44, 49, 33, 31, 34, 39, 46, 353, 61};

  private static final String[][] OPENERS = {
    {"You", "are", "the", "internal", "assistant", "of"},
    {"You", "help", "the", "staff", "of"},
    {"You", "are", "a", "support", "copilot", "for"}
  };

  private TenantVoices() {}

  /** How many distinct (prefix, industry) identities exist. */
  public static int combinations() {
    return Lexicon.TENANT_PREFIXES.length * Lexicon.INDUSTRY_NOUNS.length;
  }

  /** The identity number {@code combo} (0..combinations-1) for tenant ordinal {@code index}. */
  public static Made make(int index, int combo, Rng rng) {
    String prefix = Lexicon.TENANT_PREFIXES[combo % Lexicon.TENANT_PREFIXES.length];
    String[] industry = Lexicon.INDUSTRY_NOUNS[combo / Lexicon.TENANT_PREFIXES.length];
    String id = prefix + "-" + industry[0];
    String[] company = {capitalize(prefix), industry[0].equals("hr") ? "People" : capitalize(industry[0])};
    String domain = id + ".example";
    String[] codenames = {rng.pick(Lexicon.CODENAMES), rng.pick(Lexicon.CODENAMES), rng.pick(Lexicon.CODENAMES)};
    String[] nouns = Arrays.copyOfRange(industry, 1, industry.length);
    String mailbox = rng.pick(new String[] {"billing", "ops", "finance", "support"});
    TenantVoice voice = new TenantVoice(index, company, domain, nouns, codenames, Identifiers.apiKey(rng),
        Identifiers.iban(rng), mailbox + "@" + domain, COUNTRY_CODES[rng.nextInt(COUNTRY_CODES.length)],
        rng.pick(Lexicon.CITIES));
    TokenText.Builder sys = TokenText.builder(300);
    for (String w : rng.pick(OPENERS)) {
      sys.word(w);
    }
    for (String w : company) {
      sys.word(w);
    }
    sys.punct(".");
    Voice.of(voice).prose(Templates.SYSTEM, rng.between(40, 260), sys, rng);
    return new Made(id, prefix, voice, sys.build());
  }

  private static String capitalize(String s) {
    return s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
  }
}
