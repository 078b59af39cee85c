package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.store.Redaction;
import io.kvscope.model.identifiers.Identifier;
import io.kvscope.model.identifiers.IdentifierExtractor;
import org.junit.jupiter.api.Test;

class ContentRedactorTest {

  @Test
  void masksWordsDigitsAndIdentifiers() {
    assertThat(ContentRedactor.mask("Patient John Smith, DOB 1984-03-02", 80))
        .isEqualTo("P****** J*** S****, D** ####-##-##");
    assertThat(ContentRedactor.mask("mail jane.doe@example.com or call +1 415-555-0133 now", 80))
        .isEqualTo("m*** [email] ** c*** [phone] n**");
    assertThat(ContentRedactor.mask("key sk-proj-Zq81LmT4vW9xK2rB7cNp ok", 80)).isEqualTo("k** [api_key] **");
    assertThat(ContentRedactor.mask("id 123e4567-e89b-12d3-a456-426614174000", 80)).isEqualTo("** [uuid]");
  }

  @Test
  void excerptIsShortAndSaysWhenCut() {
    String long_ = "word ".repeat(100);
    String masked = ContentRedactor.mask(long_, 20);
    assertThat(masked).endsWith("\u2026");
    assertThat(masked.length()).isLessThanOrEqualTo(21);
    assertThat(ContentRedactor.mask("x".repeat(10_000), 60)).hasSizeLessThanOrEqualTo(61);
  }

  @Test
  void whitespaceAndControlCharactersDoNotLeakLayoutOrBreakOutput() {
    assertThat(ContentRedactor.mask("a\n\n\tb\u0000c\u0001", 80)).isEqualTo("* *?*?");
  }

  @Test
  void categoriesAreFoundOnceEachInAFixedOrder() {
    assertThat(ContentRedactor.categories("write to a@b.io, account 12345678901, and b@c.io; host 10.0.0.12"))
        .containsExactly("email", "ip_address", "account_number");
    assertThat(ContentRedactor.categories("card 4111 1111 1111 1111")).containsExactly("card_number");
    assertThat(ContentRedactor.categories(IncidentFixture.CANARY + " here")).containsExactly("canary");
    assertThat(ContentRedactor.categories("nothing sensitive at all")).isEmpty();
  }

  @Test
  void everyMarkerTheIndexTakesAsACanaryIsMaskedWhole() {
    String text = "leaked KVCANARY-run_07-ab12cd34ef here";
    var found = new IdentifierExtractor().extract(text);
    assertThat(found).extracting(Identifier::value).containsExactly("KVCANARY-run_07-ab12cd34ef");
    assertThat(ContentRedactor.categories(text)).containsExactly("canary");
    assertThat(ContentRedactor.mask(text, 80)).isEqualTo("l***** [canary] h***");
  }

  @Test
  void redactedShowsHashLengthCategoriesAndNoContent() {
    String text = IncidentFixture.NW_SECRET;
    ContentRedactor.Shown shown = new ContentRedactor(false, Redaction.ephemeral()).show(text);
    assertThat(shown.hash()).isEqualTo(Redaction.ephemeral().hash(text));
    assertThat(shown.length()).isEqualTo(text.length());
    assertThat(shown.categories()).containsExactly("email", "account_number");
    assertThat(shown.revealed()).isFalse();
    String withoutLabels = shown.excerpt().replaceAll("\\[[a-z_]+\\]", "");
    for (String word : text.split("[^A-Za-z0-9@.]+")) {
      if (word.length() >= 2) {
        assertThat(withoutLabels).doesNotContain(word);
      }
    }
  }

  @Test
  void revealShowsTheTextCapped() {
    ContentRedactor.Shown shown = new ContentRedactor(true, Redaction.ephemeral()).show(IncidentFixture.UM_SECRET);
    assertThat(shown.excerpt()).isEqualTo(IncidentFixture.UM_SECRET);
    assertThat(shown.revealed()).isTrue();
    String huge = "z".repeat(10_000);
    assertThat(new ContentRedactor(true, Redaction.ephemeral()).show(huge).excerpt()).startsWith("zzz").endsWith("(6000 more chars)");
    assertThat(new ContentRedactor(true, Redaction.ephemeral()).show(null)).isNull();
  }
}
