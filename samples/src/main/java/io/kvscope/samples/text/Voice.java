package io.kvscope.samples.text;

import io.kvscope.samples.random.Rng;
import io.kvscope.samples.text.Template.Punct;
import io.kvscope.samples.text.Template.Slot;
import java.util.Locale;

/**
 * Fills {@link Template}s with words: generic business vocabulary always, a tenant's own vocabulary
 * and secrets when a {@link TenantVoice} is given, and request-unique identifiers (recorded through
 * an {@link IdRecorder}) when {@link RequestIds} are given. Without them, tenant and identifier
 * slots fall back to generic words, which is how public text is written.
 */
public final class Voice {

  private final TenantVoice tenant;
  private final RequestIds ids;
  private final IdRecorder recorder;
  private String lastFirst;
  private String lastLast;

  private Voice(TenantVoice tenant, RequestIds ids, IdRecorder recorder) {
    this.tenant = tenant;
    this.ids = ids;
    this.recorder = recorder;
  }

  /** Public, tenant-neutral prose. */
  public static Voice generic() {
    return new Voice(null, null, null);
  }

  /** A tenant's prose without request-unique identifiers. */
  public static Voice of(TenantVoice tenant) {
    return new Voice(tenant, null, null);
  }

  /** A tenant's prose for one request, planting identifiers and reporting where they land. */
  public static Voice of(TenantVoice tenant, RequestIds ids, IdRecorder recorder) {
    return new Voice(tenant, ids, recorder);
  }

  /** Writes one sentence. */
  public void sentence(Template t, TokenText.Builder out, Rng rng) {
    for (Object part : t.parts()) {
      if (part instanceof String word) {
        out.word(word);
      } else if (part instanceof Punct p) {
        out.punct(p.mark());
      } else {
        fill((Slot) part, out, rng);
      }
    }
  }

  /** Writes sentences drawn from {@code templates} until at least {@code tokens} tokens were added. */
  public void prose(Template[] templates, int tokens, TokenText.Builder out, Rng rng) {
    int target = out.tokenCount() + Math.max(1, tokens);
    while (out.tokenCount() < target) {
      sentence(rng.pick(templates), out, rng);
    }
  }

  private void fill(Slot slot, TokenText.Builder out, Rng rng) {
    switch (slot) {
      case FIRST -> out.word(first(rng));
      case LAST -> out.word(last(rng));
      case PERSON -> {
        out.word(first(rng));
        out.word(last(rng));
      }
      case DEPT -> out.word(rng.pick(Lexicon.DEPARTMENTS));
      case NOUN -> out.word(rng.pick(Lexicon.NOUNS));
      case NOUNS -> out.word(plural(rng.pick(Lexicon.NOUNS)));
      case DNOUN -> out.word(domainNoun(rng));
      case DNOUNS -> out.word(plural(domainNoun(rng)));
      case ADJ -> out.word(rng.pick(Lexicon.ADJECTIVES));
      case VERB -> out.word(verb(Lexicon.VERBS, rng, false));
      case VPAST -> out.word(verb(Lexicon.VERBS, rng, true));
      case ADV -> out.word(rng.pick(Lexicon.ADVERBS));
      case CITY -> out.word(tenant != null && rng.chance(0.4) ? tenant.homeCity() : rng.pick(Lexicon.CITIES));
      case DATE -> {
        out.word(rng.pick(Lexicon.MONTHS));
        out.word(Integer.toString(rng.between(1, 28)));
      }
      case MONTH -> out.word(rng.pick(Lexicon.MONTHS));
      case WEEKDAY -> out.word(rng.pick(Lexicon.WEEKDAYS));
      case NUM -> out.word(Integer.toString(number(rng)));
      case AMOUNT -> {
        out.word(rng.pick(Lexicon.CURRENCIES));
        out.word(amount(rng));
      }
      case PERCENT -> out.word(rng.between(1, 60) + "." + rng.nextInt(10) + "%");
      case PROJECT -> {
        if (tenant != null) {
          out.word("Project");
          out.word(rng.pick(tenant.codenames()));
        } else {
          out.word("the");
          out.word("project");
        }
      }
      case COMPANY -> {
        if (tenant != null) {
          for (String w : tenant.companyWords()) {
            out.word(w);
          }
        } else {
          out.word("the");
          out.word("company");
        }
      }
      case TNOUN -> out.word(rng.pick(Lexicon.TECH_NOUNS));
      case TNOUNS -> out.word(plural(rng.pick(Lexicon.TECH_NOUNS)));
      case TVERB -> out.word(verb(Lexicon.TECH_VERBS, rng, false));
      case TVPAST -> out.word(verb(Lexicon.TECH_VERBS, rng, true));
      case TADJ -> out.word(rng.pick(Lexicon.TECH_ADJECTIVES));
      case LNOUN -> out.word(rng.pick(Lexicon.LEGAL_NOUNS));
      case LNOUNS -> out.word(plural(rng.pick(Lexicon.LEGAL_NOUNS)));
      case SECTION -> out.word(rng.between(1, 12) + "." + rng.between(1, 9) + "." + rng.between(1, 9));
      case EMAIL -> identifier(IdCategory.EMAIL, out, rng);
      case PHONE -> identifier(IdCategory.PHONE, out, rng);
      case ACCOUNT -> identifier(IdCategory.ACCOUNT, out, rng);
      case UUID -> identifier(IdCategory.UUID, out, rng);
      case CANARY -> identifier(IdCategory.CANARY, out, rng);
      case APIKEY -> out.word(tenant != null ? tenant.apiKey() : "YOUR_API_KEY");
      case IBAN -> out.word(tenant != null ? tenant.iban() : "file");
      case CEMAIL -> out.word(tenant != null ? tenant.companyEmail() : "support");
    }
  }

  private void identifier(IdCategory category, TokenText.Builder out, Rng rng) {
    if (ids == null || tenant == null || !ids.available()) {
      // Public text has no identifiers: say so in words.
      out.word(switch (category) {
        case EMAIL -> "support";
        case PHONE -> "hotline";
        case ACCOUNT -> "account";
        case UUID -> "case";
        case CANARY -> "marker";
        default -> "reference";
      });
      return;
    }
    String first = lastFirst != null ? lastFirst : rng.pick(Lexicon.FIRST_NAMES);
    String last = lastLast != null ? lastLast : rng.pick(Lexicon.LAST_NAMES);
    String value = ids.next(category, first, last);
    int at = out.tokenCount();
    out.word(value);
    if (recorder != null) {
      recorder.record(at, category, value);
    }
  }

  private String first(Rng rng) {
    lastFirst = rng.pick(Lexicon.FIRST_NAMES);
    return lastFirst;
  }

  private String last(Rng rng) {
    lastLast = rng.pick(Lexicon.LAST_NAMES);
    return lastLast;
  }

  private String domainNoun(Rng rng) {
    if (tenant != null && rng.chance(0.7)) {
      return rng.pick(tenant.industryNouns());
    }
    return rng.pick(Lexicon.NOUNS);
  }

  private static int number(Rng rng) {
    return rng.chance(0.7) ? rng.between(2, 99) : rng.between(100, 9_999);
  }

  private static String amount(Rng rng) {
    int whole = (int) Math.min(9_999_999, Math.round(rng.logNormal(4_000, 1.4)));
    int cents = rng.nextInt(100);
    return String.format(Locale.ROOT, "%,d.%02d", whole, cents);
  }

  private static String verb(String[] pairs, Rng rng, boolean past) {
    String pair = rng.pick(pairs);
    int colon = pair.indexOf(':');
    return past ? pair.substring(colon + 1) : pair.substring(0, colon);
  }

  static String plural(String noun) {
    if (noun.endsWith("s") || noun.endsWith("x") || noun.endsWith("ch") || noun.endsWith("sh")) {
      return noun + "es";
    }
    if (noun.endsWith("y") && noun.length() > 1 && "aeiou".indexOf(noun.charAt(noun.length() - 2)) < 0) {
      return noun.substring(0, noun.length() - 1) + "ies";
    }
    return noun + "s";
  }
}
