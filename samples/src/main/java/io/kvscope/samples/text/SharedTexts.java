package io.kvscope.samples.text;

import io.kvscope.samples.random.Rng;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Public text many tenants share, as real traffic does: system prompts and agent templates from
 * popular frameworks, contract boilerplate, technical manuals that long prompts paste, documents
 * and code people paste into questions, retrieved knowledge-base chunks, and popular questions with
 * the answer each model gives to them. None of it is any one tenant's data.
 *
 * <p>Built from the generator's own language ({@link #builtIn}) or, for questions, answers,
 * documents and chunks, from a corpus of real questions answered by real models
 * ({@link #withCorpus}); the corpus is read at generation time and its text only ever lands in the
 * generated incident. Every shared text has a key, so the truth can name every request that held
 * a leaked passage word for word.
 */
public final class SharedTexts {

  /** The model that answers on each deployment: answers differ between deployments' models. */
  public static final int MODELS = 2;

  private final List<TokenText> systemPrompts;
  private final List<TokenText> agentTemplates;
  private final List<TokenText> boilerplate;
  private final List<TokenText> manuals;
  private final List<TokenText> documents;
  private final List<TokenText> chunks;
  private final List<Question> questions;
  private final String origin;
  private final long manualTokens;
  /** Every shared text and its key, in a fixed order. */
  private final List<TokenText> all = new ArrayList<>();
  private final Map<TokenText, Integer> keys = new IdentityHashMap<>();

  private SharedTexts(long seed, int manualCount, CorpusFile corpus) {
    Rng rng = Rng.derive(seed, Rng.key("shared-texts"));
    Voice generic = Voice.generic();
    systemPrompts = new ArrayList<>();
    int[] systemSizes = {60, 110, 180, 260, 400};
    for (int size : systemSizes) {
      TokenText.Builder b = TokenText.builder(size + 20);
      b.word("You").word("are").word("a").word("careful").word("assistant").punct(".");
      generic.prose(Templates.SYSTEM, size - 6, b, rng);
      systemPrompts.add(b.build());
    }
    boilerplate = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      TokenText.Builder b = TokenText.builder(3000);
      b.word("Section").word(Integer.toString(i + 1)).punct(".").word(rng.pick(Lexicon.LEGAL_NOUNS))
          .word("terms").paragraph();
      int target = (int) Math.min(3000, Math.max(300, rng.logNormal(800, 0.6)));
      while (b.tokenCount() < target) {
        generic.prose(Templates.BOILERPLATE, rng.between(40, 120), b, rng);
        b.paragraph();
      }
      boilerplate.add(b.build());
    }
    manuals = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < manualCount; i++) {
      TokenText.Builder b = TokenText.builder(4000);
      b.word("Service").word("manual").word(rng.pick(Lexicon.CODENAMES) + "-" + rng.between(100, 999))
          .punct(":").word(rng.pick(Lexicon.TECH_ADJECTIVES)).word(rng.pick(Lexicon.TECH_NOUNS))
          .paragraph();
      int target = (int) Math.min(4000, Math.max(600, rng.logNormal(1600, 0.5)));
      while (b.tokenCount() < target) {
        generic.prose(Templates.TECH, rng.between(60, 200), b, rng);
        b.paragraph();
      }
      TokenText doc = b.build();
      total += doc.tokenCount();
      manuals.add(doc);
    }
    manualTokens = total;
    agentTemplates = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      agentTemplates.add(BuiltInTexts.agentTemplate(i, rng));
    }
    if (corpus == null) {
      origin = "built-in";
      BuiltInTexts builtIn = new BuiltInTexts(Rng.derive(seed, Rng.key("built-in-traffic-texts")));
      documents = builtIn.documents(40);
      questions = builtIn.questions(160, documents);
    } else {
      origin = "corpus " + corpus.path().getFileName();
      CorpusTexts texts = new CorpusTexts(corpus, Rng.derive(seed, Rng.key("corpus-order")));
      documents = texts.documents();
      questions = texts.questions();
    }
    chunks = BuiltInTexts.chunks(documents, manuals, rng);
    for (List<TokenText> group : List.of(systemPrompts, agentTemplates, boilerplate, manuals, documents, chunks)) {
      group.forEach(this::register);
    }
    for (Question q : questions) {
      q.turns().forEach(this::register);
      q.answers().forEach(replies -> replies.forEach(this::register));
    }
  }

  /** The generator's own public texts. */
  public static SharedTexts builtIn(long seed, int manualCount) {
    return new SharedTexts(seed, manualCount, null);
  }

  /** Questions, answers, documents and chunks from {@code corpus}; the rest built in. */
  public static SharedTexts withCorpus(long seed, int manualCount, CorpusFile corpus) {
    return new SharedTexts(seed, manualCount, corpus);
  }

  private void register(TokenText text) {
    if (keys.putIfAbsent(text, all.size()) == null) {
      all.add(text);
    }
  }

  /**
   * Registers a text that is not public but that many requests repeat word for word (a tenant's
   * own system prompt), so the truth finds its holders too; returns its key.
   */
  public int addRepeated(TokenText text) {
    register(text);
    return keys.get(text);
  }

  /** {@code built-in} or {@code corpus <file name>}. */
  public String origin() {
    return origin;
  }

  /** The key of a shared text (by identity), or -1 when {@code text} is not one. */
  public int keyOf(TokenText text) {
    return keys.getOrDefault(text, -1);
  }

  /** The shared text with key {@code key}. */
  public TokenText byKey(int key) {
    return all.get(key);
  }

  /** How many shared texts there are (keys run from 0). */
  public int size() {
    return all.size();
  }

  public List<TokenText> systemPrompts() {
    return systemPrompts;
  }

  /** Long system prompts of agent frameworks (tools, output format), used by many tenants. */
  public List<TokenText> agentTemplates() {
    return agentTemplates;
  }

  public List<TokenText> boilerplate() {
    return boilerplate;
  }

  /** Public technical manuals that long prompts paste. */
  public List<TokenText> manuals() {
    return manuals;
  }

  public long manualTokens() {
    return manualTokens;
  }

  /** Public documents and code people paste into a question. */
  public List<TokenText> documents() {
    return documents;
  }

  /** Retrieved knowledge-base passages (paragraphs of documents and manuals). */
  public List<TokenText> chunks() {
    return chunks;
  }

  /** Popular questions, most asked first. */
  public List<Question> questions() {
    return questions;
  }
}
