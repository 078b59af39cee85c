package io.kvscope.gui.text;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.store.Redaction;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextPiecesTest {

  private static final TextPieces.Limits SMALL = new TextPieces.Limits(10, 8, 30, 24);

  private static final String TEXT = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" // 0..40
      + "SECRET-ACCOUNT-4481"                                                  // 40..59
      + "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"                    // 59..109
      + "SECOND-SECRET";                                                       // 109..122

  private static final Redaction REDACTION = Redaction.ephemeral();

  private final List<Mark> marks = List.of(new Mark(109, 122, 1), new Mark(40, 59, 0));

  @Test
  void revealedPiecesShowEachMarkVerbatimWithContextAndElideTheRest() {
    List<Piece> pieces = TextPieces.render(TEXT, marks, true, SMALL, REDACTION);

    List<Piece> marked = pieces.stream().filter(p -> p.kind() == Piece.Kind.MARK).toList();
    // "SECRET-ACCOUNT-4481" is 19 chars > 2 * 8, so it shows its two ends around an elision.
    assertThat(marked).extracting(Piece::display).containsExactly("SECRET-A", "UNT-4481", "SECOND-SECRET");
    assertThat(marked.get(2).start()).isEqualTo(109);
    assertThat(pieces).filteredOn(p -> p.kind() == Piece.Kind.TEXT).allSatisfy(p -> {
      assertThat(p.length()).isLessThanOrEqualTo(10);
      assertThat(p.display()).isEqualTo(TEXT.substring(p.start(), p.end()));
    });
    assertThat(pieces.get(0).kind()).isEqualTo(Piece.Kind.ELIDED);
    assertThat(pieces.get(0).display()).contains("30\u00A0chars");
    assertContiguous(pieces, TEXT.length());
  }

  @Test
  void maskedPiecesShowNoCharacterOfTheTextButKeepPlaceLengthHashAndShape() {
    List<Piece> pieces = TextPieces.render(TEXT, marks, false, SMALL, REDACTION);

    // The keyed hash is random hex under an ephemeral key: it may spell "bbb" by chance, so it is left out.
    assertThat(pieces).extracting(p -> p.display().replaceAll("hmac [0-9a-f]+", "hmac"))
        .noneMatch(d -> d.contains("SECRET") || d.contains("aaa") || d.contains("bbb") || d.contains("4481"));
    assertThat(pieces).extracting(Piece::kind)
        .containsExactly(Piece.Kind.MASK, Piece.Kind.MARK, Piece.Kind.MASK, Piece.Kind.MARK);
    Piece first = pieces.get(1);
    assertThat(first.start()).isEqualTo(40);
    assertThat(first.end()).isEqualTo(59);
    assertThat(first.display()).contains("span\u00A01").contains("19\u00A0chars")
        .contains(REDACTION.hash("SECRET-ACCOUNT-4481"));
    // The shape of each stretch: words as first letter and stars, digits as #, cut to the excerpt.
    assertThat(first.display()).endsWith(" S*****-A******-####");
    assertThat(pieces.get(0).display()).isEqualTo(" [40\u00A0chars: a***********************\u2026] ");
    assertContiguous(pieces, TEXT.length());
  }

  @Test
  void aMaskedSpanNamesTheDataCategoriesItHolds() {
    String text = "Contact: jane.doe@example.com about invoice 4400123498 today.";
    int start = text.indexOf("jane");
    int end = text.indexOf(" today");

    Piece span = TextPieces.render(text, List.of(new Mark(start, end, 0)), false, SMALL, REDACTION).get(1);

    assertThat(span.display()).contains("email,\u00A0account_number").contains("[email]")
        .doesNotContain("jane").doesNotContain("4400");
  }

  @Test
  void theSameSpanInTwoTextsGetsTheSameHashWhenMasked() {
    String other = "zz" + "SECRET-ACCOUNT-4481" + "zz";
    Piece here = TextPieces.render(TEXT, List.of(new Mark(40, 59, 0)), false, SMALL, REDACTION).get(1);
    Piece there = TextPieces.render(other, List.of(new Mark(2, 21, 0)), false, SMALL, REDACTION).get(1);
    assertThat(here.display()).isEqualTo(there.display());
  }

  @Test
  void overlappingAndOutOfRangeMarksAreClippedNotDropped() {
    List<Piece> pieces = TextPieces.render("0123456789", List.of(new Mark(2, 6, 0), new Mark(4, 8, 1),
        new Mark(9, 40, 2)), true, TextPieces.Limits.DEFAULT, REDACTION);

    assertThat(pieces).filteredOn(p -> p.kind() == Piece.Kind.MARK)
        .extracting(Piece::display).containsExactly("2345", "67", "9");
    assertContiguous(pieces, 10);
  }

  @Test
  void aTextWithoutMarksShowsItsHeadOnly() {
    String long_ = "x".repeat(100);
    List<Piece> pieces = TextPieces.render(long_, List.of(), true, SMALL, REDACTION);
    assertThat(pieces).extracting(Piece::kind).containsExactly(Piece.Kind.TEXT, Piece.Kind.ELIDED);
    assertThat(pieces.get(0).length()).isEqualTo(30);
    assertThat(TextPieces.render(null, List.of(), true, SMALL, REDACTION)).isEmpty();
  }

  private static void assertContiguous(List<Piece> pieces, int length) {
    int at = 0;
    for (Piece p : pieces) {
      assertThat(p.start()).as("piece %s starts where the previous ended", p).isEqualTo(at);
      at = p.end();
    }
    assertThat(at).isEqualTo(length);
  }
}
