package io.kvscope.analysis.analyzers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reused enumerations find what Lucene's own exact phrase query finds: on an index of several
 * segments with deleted documents, texts of few words (so words repeat within a phrase and a
 * document), phrases cut from the texts and phrases made up, asked one after another.
 */
class ExactPhrasesTest {

  private static final String FIELD = "text";
  private static final List<String> WORDS = List.of("alpha", "beta", "gamma", "delta", "eps", "zeta", "eta");

  @TempDir Path tmp;

  @Test
  void findsTheDocumentsLucenesPhraseQueryFinds() throws IOException {
    Random random = new Random(7);
    List<List<String>> texts = new ArrayList<>();
    try (FSDirectory dir = FSDirectory.open(tmp);
        IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer())
            .setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (int i = 0; i < 600; i++) {
        List<String> text = words(random, 3 + random.nextInt(40));
        texts.add(text);
        add(writer, i, text);
        if (i % 97 == 96) {
          writer.commit(); // one segment more
        }
        if (i % 13 == 5) {
          writer.deleteDocuments(new Term("id", Integer.toString(i - 3)));
        }
      }
      writer.commit();
    }
    try (FSDirectory dir = FSDirectory.open(tmp); DirectoryReader reader = DirectoryReader.open(dir)) {
      assertThat(reader.leaves()).hasSizeGreaterThan(5);
      assertThat(reader.numDeletedDocs()).isPositive();
      IndexSearcher searcher = new IndexSearcher(reader);
      ExactPhrases exact = new ExactPhrases(reader);
      int matched = 0;
      for (int q = 0; q < 400; q++) {
        List<String> phrase;
        if (q % 2 == 0) {
          List<String> text = texts.get(random.nextInt(texts.size()));
          int from = random.nextInt(text.size());
          phrase = text.subList(from, Math.min(text.size(), from + 1 + random.nextInt(6)));
        } else {
          phrase = words(random, 1 + random.nextInt(4));
        }
        TreeSet<Integer> expected = lucenesPhraseQuery(searcher, phrase);
        List<Integer> found = everyMatch(exact, phrase);
        assertThat(found).as("%s", phrase.stream().collect(Collectors.joining(" "))).isSorted()
            .containsExactlyElementsOf(expected);
        matched += expected.isEmpty() ? 0 : 1;
      }
      assertThat(matched).isGreaterThan(150); // the comparison is about real matches, not only empty ones
    }
  }

  @Test
  void onlyCandidatesAreMatchedAndTheVisitorStopsTheWalk() throws IOException {
    try (FSDirectory dir = FSDirectory.open(tmp);
        IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      for (String text : List.of("beta gamma delta", "gamma delta beta", "alpha beta gamma delta", "beta gamma x delta")) {
        Document doc = new Document();
        doc.add(new TextField(FIELD, text, Field.Store.NO));
        writer.addDocument(doc);
      }
    }
    try (FSDirectory dir = FSDirectory.open(tmp); DirectoryReader reader = DirectoryReader.open(dir)) {
      ExactPhrases exact = new ExactPhrases(reader);
      BytesRef[] phrase = {new BytesRef("beta"), new BytesRef("gamma"), new BytesRef("delta")};
      int[] positions = {0, 1, 2};
      List<Integer> all = new ArrayList<>();
      assertThat(exact.visit(FIELD, phrase, positions, doc -> true, doc -> all.add(doc))).isTrue();
      assertThat(all).containsExactly(0, 2);

      List<Integer> notFirst = new ArrayList<>();
      exact.visit(FIELD, phrase, positions, doc -> doc != 0, doc -> notFirst.add(doc));
      assertThat(notFirst).containsExactly(2);

      List<Integer> one = new ArrayList<>();
      assertThat(exact.visit(FIELD, phrase, positions, doc -> true, doc -> !one.add(doc))).isFalse();
      assertThat(one).containsExactly(0);

      // A gap in the positions, as the analyzer leaves for a token it drops: "beta gamma ? delta".
      List<Integer> gapped = new ArrayList<>();
      exact.visit(FIELD, phrase, new int[] {0, 1, 3}, doc -> true, doc -> gapped.add(doc));
      assertThat(gapped).containsExactly(3);
    }
  }

  /**
   * Segments of different vocabularies: each lacks one word and favours another, so the first
   * segment's order of rarity is wrong for the later ones and a phrase's word can be missing from a
   * segment whose documents hold its rarest words. The same documents as Lucene's phrase query.
   */
  @Test
  void segmentsOfOtherVocabulariesFindWhatLucenesPhraseQueryFinds() throws IOException {
    Random random = new Random(31);
    List<List<String>> texts = new ArrayList<>();
    try (FSDirectory dir = FSDirectory.open(tmp);
        IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer())
            .setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (int segment = 0; segment < WORDS.size(); segment++) {
        List<String> vocabulary = new ArrayList<>(WORDS);
        vocabulary.remove(segment);
        String favoured = WORDS.get((segment + 1) % WORDS.size());
        for (int i = 0; i < 80; i++) {
          List<String> text = new ArrayList<>();
          for (int w = 4 + random.nextInt(30); w > 0; w--) {
            text.add(random.nextInt(3) == 0 ? favoured : vocabulary.get(random.nextInt(vocabulary.size())));
          }
          texts.add(text);
          Document doc = new Document();
          doc.add(new TextField(FIELD, String.join(" ", text), Field.Store.NO));
          writer.addDocument(doc);
        }
        writer.commit(); // one segment a vocabulary
      }
    }
    try (FSDirectory dir = FSDirectory.open(tmp); DirectoryReader reader = DirectoryReader.open(dir)) {
      assertThat(reader.leaves()).hasSize(WORDS.size());
      IndexSearcher searcher = new IndexSearcher(reader);
      ExactPhrases exact = new ExactPhrases(reader);
      int matchedInSeveralSegments = 0;
      for (int q = 0; q < 300; q++) {
        List<String> text = texts.get(random.nextInt(texts.size()));
        int from = random.nextInt(text.size());
        List<String> phrase = text.subList(from, Math.min(text.size(), from + 2 + random.nextInt(5)));
        TreeSet<Integer> expected = lucenesPhraseQuery(searcher, phrase);
        List<Integer> found = everyMatch(exact, phrase);
        assertThat(found).as("%s", String.join(" ", phrase)).containsExactlyElementsOf(expected);
        if (expected.stream().map(doc -> doc / 80).distinct().count() > 1) {
          matchedInSeveralSegments++;
        }
      }
      assertThat(matchedInSeveralSegments).isGreaterThan(100);
    }
  }

  /** The documents Lucene's own exact phrase query finds for {@code phrase}, ascending. */
  private static TreeSet<Integer> lucenesPhraseQuery(IndexSearcher searcher, List<String> phrase) throws IOException {
    PhraseQuery.Builder query = new PhraseQuery.Builder();
    phrase.forEach(w -> query.add(new Term(FIELD, w)));
    TreeSet<Integer> expected = new TreeSet<>();
    for (ScoreDoc hit : searcher.search(query.build(), searcher.getIndexReader().maxDoc()).scoreDocs) {
      expected.add(hit.doc);
    }
    return expected;
  }

  /** Every document {@link ExactPhrases} visits for {@code phrase} (consecutive words), in visiting order. */
  private static List<Integer> everyMatch(ExactPhrases exact, List<String> phrase) throws IOException {
    int[] positions = new int[phrase.size()];
    Arrays.setAll(positions, i -> i);
    List<Integer> found = new ArrayList<>();
    exact.visit(FIELD, phrase.stream().map(BytesRef::new).toArray(BytesRef[]::new), positions, doc -> true,
        doc -> found.add(doc));
    return found;
  }

  /** Adds a document of {@code text} (words joined by spaces) under its {@code id}, by which it can be deleted. */
  private static void add(IndexWriter writer, int id, List<String> text) throws IOException {
    Document doc = new Document();
    doc.add(new StringField("id", Integer.toString(id), Field.Store.NO));
    doc.add(new TextField(FIELD, String.join(" ", text), Field.Store.NO));
    writer.addDocument(doc);
  }

  private static List<String> words(Random random, int n) {
    List<String> words = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      words.add(WORDS.get(random.nextInt(WORDS.size())));
    }
    return words;
  }

  @Test
  void phrasesLongerThanTheKeptEnumerationsAreFoundAndShorterOnesAfterThem() throws IOException {
    Random random = new Random(11);
    List<List<String>> texts = new ArrayList<>();
    try (FSDirectory dir = FSDirectory.open(tmp);
        IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
      for (int i = 0; i < 40; i++) {
        List<String> text = words(random, 150);
        texts.add(text);
        Document doc = new Document();
        doc.add(new TextField(FIELD, String.join(" ", text), Field.Store.NO));
        writer.addDocument(doc);
        if (i % 10 == 9) {
          writer.commit();
        }
      }
    }
    try (FSDirectory dir = FSDirectory.open(tmp); DirectoryReader reader = DirectoryReader.open(dir)) {
      IndexSearcher searcher = new IndexSearcher(reader);
      ExactPhrases exact = new ExactPhrases(reader);
      for (int length : List.of(100, 3, 70, 65, 2, 120, 5)) {
        int of = random.nextInt(texts.size());
        int from = random.nextInt(150 - length);
        List<String> phrase = texts.get(of).subList(from, from + length);
        TreeSet<Integer> expected = lucenesPhraseQuery(searcher, phrase);
        List<Integer> found = everyMatch(exact, phrase);
        assertThat(found).as("%d words", length).containsExactlyElementsOf(expected).contains(of);
      }
    }
  }

  /**
   * A long passage many documents hold, and as many near copies with one word changed anywhere in
   * it (so they hold the rarest words and fail only further on, past the kept enumerations too):
   * the same documents as Lucene's phrase query, for the passage and for pieces of it.
   */
  @Test
  void aPassageManyDocumentsHoldIsToldFromItsNearCopies() throws IOException {
    Random random = new Random(23);
    List<String> vocabulary = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      vocabulary.add("w" + i);
    }
    List<String> passage = new ArrayList<>();
    for (int i = 0; i < 140; i++) {
      passage.add(vocabulary.get(random.nextInt(vocabulary.size())));
    }
    try (FSDirectory dir = FSDirectory.open(tmp);
        IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer())
            .setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (int i = 0; i < 300; i++) {
        List<String> text = new ArrayList<>();
        for (int w = 20 + random.nextInt(60); w > 0; w--) {
          text.add(vocabulary.get(random.nextInt(vocabulary.size())));
        }
        if (i % 3 != 2) {
          List<String> copy = new ArrayList<>(passage);
          if (i % 3 == 1) {
            copy.set(random.nextInt(copy.size()), "changed");
          }
          text.addAll(random.nextInt(text.size()), copy);
        }
        add(writer, i, text);
        if (i % 70 == 69) {
          writer.commit();
        }
        if (i % 29 == 3) {
          writer.deleteDocuments(new Term("id", Integer.toString(i - 3)));
        }
      }
    }
    try (FSDirectory dir = FSDirectory.open(tmp); DirectoryReader reader = DirectoryReader.open(dir)) {
      assertThat(reader.leaves()).hasSizeGreaterThan(3);
      IndexSearcher searcher = new IndexSearcher(reader);
      ExactPhrases exact = new ExactPhrases(reader);
      for (int[] piece : new int[][] {{0, 140}, {10, 90}, {100, 104}, {0, 70}, {60, 140}, {0, 140}}) {
        List<String> phrase = passage.subList(piece[0], piece[1]);
        TreeSet<Integer> expected = lucenesPhraseQuery(searcher, phrase);
        List<Integer> found = everyMatch(exact, phrase);
        assertThat(found).as("words %d to %d", piece[0], piece[1]).containsExactlyElementsOf(expected);
        assertThat(expected).hasSizeGreaterThan(80); // the exact copies left after the deletions, at least
      }
    }
  }
  /**
   * Documents of a hundred thousand words where the phrase's words are everywhere ("the" every
   * third word) and the phrase itself only near the end, or only with one word changed (several
   * times, the last near the end), or both; deleted ones hold it too; in several segments. The same
   * documents as Lucene's phrase query for the phrase (its words repeated, a rare one among them),
   * each near miss, pieces of it and phrases of common words only, found anywhere.
   */
  @Test
  void bigDocumentsHoldingThePhraseNearTheirEndOrMissingItByOneWord() throws IOException {
    Random random = new Random(41);
    List<String> common = List.of("the", "of", "and", "a", "to", "in", "is", "it", "was", "for");
    List<String> phrase = List.of("the", "cat", "of", "the", "house", "and", "the", "quux", "of", "the", "dog", "to");
    List<List<String>> nearMisses = new ArrayList<>();
    for (int i = 0; i < phrase.size(); i++) {
      List<String> miss = new ArrayList<>(phrase);
      miss.set(i, common.get((common.indexOf(phrase.get(i)) + 2 + common.size()) % common.size()));
      nearMisses.add(miss);
    }
    List<Integer> plantedWhole = new ArrayList<>();
    try (FSDirectory dir = FSDirectory.open(tmp);
        IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer())
            .setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (int i = 0; i < 16; i++) {
        boolean big = i % 2 == 0;
        List<String> text = new ArrayList<>();
        for (int w = big ? 100_000 : 300; w > 0; w--) {
          text.add(random.nextInt(3) == 0 ? "the"
              : random.nextInt(4) == 0 ? List.of("cat", "house", "dog").get(random.nextInt(3))
              : common.get(random.nextInt(common.size())));
        }
        if (i % 4 == 1 || i % 4 == 2) { // near misses all over, the last near the end
          for (int at : new int[] {10, text.size() / 3, text.size() / 2, text.size() - 40}) {
            text.addAll(at, nearMisses.get(random.nextInt(nearMisses.size())));
          }
        }
        if (i % 4 == 0 || i % 4 == 2) {
          text.addAll(text.size() - 20, phrase);
          plantedWhole.add(i);
        }
        add(writer, i, text);
        if (i % 5 == 4) {
          writer.commit();
        }
      }
      writer.deleteDocuments(new Term("id", "4"), new Term("id", "7"));
      writer.commit();
    }
    try (FSDirectory dir = FSDirectory.open(tmp); DirectoryReader reader = DirectoryReader.open(dir)) {
      assertThat(reader.leaves()).hasSizeGreaterThan(2);
      IndexSearcher searcher = new IndexSearcher(reader);
      ExactPhrases exact = new ExactPhrases(reader);
      List<List<String>> asked = new ArrayList<>();
      asked.add(phrase);
      asked.addAll(nearMisses);
      asked.addAll(List.of(phrase.subList(0, 3), phrase.subList(5, 12), phrase.subList(2, 7), List.of("the", "of", "the"),
          List.of("the", "the"), List.of("of", "the", "cat", "and", "the"), phrase));
      for (List<String> words : asked) {
        TreeSet<Integer> expected = lucenesPhraseQuery(searcher, words);
        assertThat(everyMatch(exact, words)).as("%s", String.join(" ", words)).containsExactlyElementsOf(expected);
      }
      // Lucene's doc ids are the order added here (no merges): the phrase is found where planted and alive only.
      assertThat(everyMatch(exact, phrase)).containsExactlyElementsOf(
          plantedWhole.stream().filter(i -> i != 4).toList());
    }
  }

  /**
   * A passage of three hundred distinct words, fifty of them in every document (so ranked last, past
   * the kept enumerations), held by a third of the documents and missed by one of those common
   * words in another third: the same documents as Lucene's phrase query, for the passage and pieces.
   */
  @Test
  void aPassageOfMoreDistinctWordsThanTheKeptEnumerations() throws IOException {
    Random random = new Random(5);
    List<String> passage = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      passage.add("w" + i);
    }
    for (int i = 0; i < 100; i++) {
      passage.add(random.nextInt(passage.size()), "w" + random.nextInt(300));
    }
    List<Integer> copies = new ArrayList<>();
    try (FSDirectory dir = FSDirectory.open(tmp);
        IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer())
            .setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (int i = 0; i < 90; i++) {
        List<String> text = new ArrayList<>();
        for (int w = 400 + random.nextInt(1500); w > 0; w--) {
          text.add("w" + (random.nextBoolean() ? random.nextInt(50) : 50 + random.nextInt(550)));
        }
        if (i % 3 != 2) {
          List<String> copy = new ArrayList<>(passage);
          if (i % 3 == 1) {
            int slot;
            do {
              slot = random.nextInt(copy.size());
            } while (Integer.parseInt(copy.get(slot).substring(1)) >= 50);
            copy.set(slot, "w" + (300 + random.nextInt(300)));
          } else {
            copies.add(i);
          }
          text.addAll(random.nextInt(text.size()), copy);
        }
        add(writer, i, text);
        if (i % 25 == 24) {
          writer.commit();
        }
      }
      writer.deleteDocuments(new Term("id", "3"));
    }
    try (FSDirectory dir = FSDirectory.open(tmp); DirectoryReader reader = DirectoryReader.open(dir)) {
      assertThat(reader.leaves()).hasSizeGreaterThan(2);
      IndexSearcher searcher = new IndexSearcher(reader);
      ExactPhrases exact = new ExactPhrases(reader);
      for (int[] piece : new int[][] {{0, 400}, {20, 390}, {100, 140}, {0, 400}}) {
        List<String> phrase = passage.subList(piece[0], piece[1]);
        TreeSet<Integer> expected = lucenesPhraseQuery(searcher, phrase);
        assertThat(everyMatch(exact, phrase)).as("words %d to %d", piece[0], piece[1]).containsExactlyElementsOf(expected);
      }
      assertThat(everyMatch(exact, passage)).containsExactlyElementsOf(copies.stream().filter(i -> i != 3).toList());
    }
  }
}
