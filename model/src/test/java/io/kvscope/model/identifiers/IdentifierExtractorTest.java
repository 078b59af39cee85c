package io.kvscope.model.identifiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class IdentifierExtractorTest {

  private final IdentifierExtractor extractor = new IdentifierExtractor(List.of("KVCANARY-"));

  @Test
  void findsEachCategoryNormalisedWithOffsetsIntoTheText() {
    String text = "Mail Ana.Lopez@Example.COM or call +44 20 7946 0958 about acct #004512339876, "
        + "IBAN DE89 3704 0044 0532 0130 00, key sk-live_4f9a8b7c6d5e4f3a2b1c, "
        + "ticket 123e4567-e89b-12d3-a456-426614174000 KVCANARY-7f3a9c.";

    List<Identifier> found = extractor.extract(text);

    assertThat(found).extracting(Identifier::term).containsExactlyInAnyOrder(
        "email:ana.lopez@example.com", "phone:442079460958", "account_number:004512339876",
        "iban:DE89370400440532013000", "api_key:sk-live_4f9a8b7c6d5e4f3a2b1c",
        "uuid:123e4567-e89b-12d3-a456-426614174000", "canary:KVCANARY-7f3a9c");
    Identifier email = found.stream().filter(i -> i.category() == Identifier.Category.EMAIL).findFirst().orElseThrow();
    assertThat(text.substring(email.start(), email.end())).isEqualTo("Ana.Lopez@Example.COM");
  }

  @Test
  void anAccountNumberMatchesWhetherLabelledOrQuotedBare() {
    assertThat(extractor.extract("the account number is 597928995968.")).extracting(Identifier::term)
        .containsExactly("account_number:597928995968");
    assertThat(extractor.extract("I moved 597928995968 today")).extracting(Identifier::term)
        .containsExactly("account_number:597928995968");
    assertThat(extractor.extract("call 020 7946 0958 now")).extracting(Identifier::term)
        .containsExactly("phone:02079460958");
  }

  @Test
  void plainProseAndShortNumbersAreNotIdentifiers() {
    assertThat(extractor.extract("The meeting is at 10:30 on 2026-08-27; 42 people, room 1204.")).isEmpty();
  }

  @Test
  void aHostileInputStaysFast() {
    String hostile = "a".repeat(200_000) + "@" + "b.".repeat(100_000) + "+1 ".repeat(50_000) + "KVCANARY-".repeat(20_000);
    long start = System.nanoTime();
    extractor.extract(hostile);
    // Not a timing assertion on the machine: a super-linear pattern would take minutes here, not seconds.
    assertThat(System.nanoTime() - start).isLessThan(60_000_000_000L);
  }
}
