package io.kvscope.analysis;

import static io.kvscope.analysis.TestIndex.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.analyzers.IdentifierLeaks;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdentifierLeaksTest {

  @TempDir Path tmp;

  private List<Finding> run(TestIndex index, String... neverPrefilled) throws Exception {
    try (var search = index.open()) {
      List<Finding> findings = new ArrayList<>();
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults());
      for (String requestId : neverPrefilled) {
        context.record("prefill-underrun", new Finding("prefill_underrun:" + requestId, FindingKind.PREFILL_UNDERRUN,
            Confidence.CONFIRMED, requestId, null, null, null, null, null, null, Evidence.Other.NONE));
      }
      context.run(new IdentifierLeaks(), findings::add);
      return findings;
    }
  }

  @Test
  void anotherTenantsEarlierIdentifierInAResponseIsALeakButOwnAndPublicOnesAreNot() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("src", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText("Refund ana.lopez@victim.example to IBAN DE89 3704 0044 0532 0130 00 please").build(), 100, false);
    // No engine line names it: the logs cannot show how it was served.
    index.add(request("leak", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText("Tell me a story").responseText("Once upon a time ana.lopez@victim.example wrote").build());
    index.served(request("own", "other", "2026-08-28T10:06:00Z", 100, 200)
        .promptText("my mail is ana.lopez@victim.example").responseText("noted ana.lopez@victim.example").build(), 100, false);
    for (int i = 0; i < 6; i++) { // a public address every tenant pastes
      index.served(request("pub-" + i, "t" + i, "2026-08-28T09:0" + i + ":00Z", 100, 200)
          .promptText("contact help@public.example").responseText("write to help@public.example").build(), 100, false);
    }
    index.served(request("early", "recipient", "2026-08-28T09:00:00Z", 100, 200)
        .promptText("hi").responseText("before the source: ana.lopez@victim.example").build(), 100, false);

    List<Finding> findings = run(index);

    assertThat(findings).extracting(Finding::requestId).containsExactly("gw-leak");
    Finding leak = findings.get(0);
    assertThat(leak.kind()).isEqualTo(FindingKind.RARE_IDENTIFIER_LEAK);
    // Text alone, where the logs could not show the service: a rare identifier another tenant wrote is probable.
    assertThat(leak.confidence()).isEqualTo(Confidence.PROBABLE);
    assertThat(leak.sources()).extracting(s -> s.requestId() + "/" + s.tenant() + "/" + s.attribution().id())
        .containsExactly("gw-src/victim/sole");
    Evidence.Identifier evidence = (Evidence.Identifier) leak.evidence();
    assertThat(evidence.categories()).isEqualTo(List.of("email"));
    assertThat(evidence.toString()).doesNotContain("ana.lopez");
    assertThat(evidence.confidenceReason().toString()).contains("text-alone");
  }

  /**
   * The victim's request was logged twice, and the prompt kept is the other one: the identifier
   * only its logged copy holds is still held by it, found and attributed to it, with the copy named;
   * a trace's copy of the recipient's own tenant is no holder (it could only explain a leak away),
   * and one only another tenant's trace holds makes at most a suspect finding.
   */
  @Test
  void anIdentifierOnlyAPromptCopyHeldIsHeldByItsRequest() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("src", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText("Please summarise the attached notes for our team.").build(), 100, false);
    index.promptCopy("src", "Refund ana.lopez@victim.example to IBAN DE89 3704 0044 0532 0130 00 please",
        "gateway gw-retry.jsonl:7", false);
    // The recipient's own tenant's trace claims the address was in its earlier prompt.
    index.served(request("mine", "recipient", "2026-08-28T10:01:00Z", 100, 200)
        .promptText("hello").build(), 100, false);
    index.promptCopy("mine", "my address is ana.lopez@victim.example", "trace spans.jsonl:3", true);
    // An address only another tenant's trace claims.
    index.served(request("claimed", "other", "2026-08-28T10:02:00Z", 100, 200)
        .promptText("hi").build(), 100, false);
    index.promptCopy("claimed", "write to bo.tanaka@claimed.example", "trace spans.jsonl:4", true);
    index.add(request("leak", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText("Tell me a story").responseText("Once upon a time ana.lopez@victim.example wrote").build());
    index.add(request("told", "third", "2026-08-28T10:06:00Z", 100, 200)
        .promptText("Tell me a story").responseText("Then bo.tanaka@claimed.example replied").build());

    List<Finding> findings = run(index);

    assertThat(findings).extracting(f -> f.kind() + " " + f.requestId() + " " + f.confidence())
        .containsExactlyInAnyOrder("RARE_IDENTIFIER_LEAK gw-leak PROBABLE", "RARE_IDENTIFIER_LEAK gw-told SUSPECT");
    Finding leak = findings.stream().filter(f -> f.requestId().equals("gw-leak")).findFirst().orElseThrow();
    assertThat(leak.sources()).extracting(s -> s.requestId() + "/" + s.tenant() + "/" + s.attribution().id())
        .containsExactly("gw-src/victim/sole");
    assertThat(((Evidence.Identifier) leak.evidence()).confidenceReason()).contains("copies-disagree: the prompt of "
        + "source gw-src was found in its copy from gateway gw-retry.jsonl:7 (kept: gateway gw.jsonl:1)");
    Finding claimed = findings.stream().filter(f -> f.requestId().equals("gw-told")).findFirst().orElseThrow();
    assertThat(claimed.sources()).extracting(s -> s.requestId()).containsExactly("gw-claimed");
    assertThat(((Evidence.Identifier) claimed.evidence()).confidenceReason()).anyMatch(r -> r.startsWith(
        "copies-disagree: every source held it only in a prompt a record ranked below")).anyMatch(r -> r.startsWith(
        "copies-disagree: the prompt of source gw-claimed was found in its copy from trace spans.jsonl:4"));
  }

  /**
   * Without mechanism evidence, an identifier that only an earlier reply held may be the model's
   * own (an example address in an answer); the same identifier in a response the engine never
   * prefilled came from the pages it read.
   */
  @Test
  void anIdentifierOnlyAReplyHeldIsSuspectUnlessTheResponseWasDecodedOverForeignKv() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("answer", "asker", "2026-08-28T10:00:00Z", 100, 200)
        .promptText("How do I mail support?").responseText("Write to jo.smith@helpdesk-example.org today").build(), 100, false);
    index.served(request("normal", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText("Tell me a story").responseText("It began with jo.smith@helpdesk-example.org").build(), 100, false);
    index.served(request("stub", "other", "2026-08-28T10:06:00Z", 100, 200)
        .promptText("x").responseText("The records mention jo.smith@helpdesk-example.org").build(), 1, false);

    List<Finding> findings = run(index, "gw-stub");

    assertThat(findings).extracting(f -> f.requestId() + " " + f.confidence())
        .containsExactlyInAnyOrder("gw-normal SUSPECT", "gw-stub CONFIRMED");
  }

  /** The victim's e-mail leaked into the recipient's response, in a fresh index at {@code dir}. */
  private TestIndex emailLeak(Path dir) throws Exception {
    TestIndex index = new TestIndex(dir);
    index.served(request("src", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText("Refund ana.lopez@victim.example please").build(), 100, false);
    // No engine line names it: the logs cannot show how it was served.
    index.add(request("leak", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText("Tell me a story").responseText("Once upon a time ana.lopez@victim.example wrote").build());
    return index;
  }

  private static List<String> hashes(Finding leak) {
    return ((Evidence.Identifier) leak.evidence()).identifierHashes();
  }

  @Test
  void identifierHashesAreKeyedByTheCaseSoAGuessCannotBeChecked() throws Exception {
    List<String> one = hashes(run(emailLeak(tmp.resolve("one"))).get(0));
    List<String> two = hashes(run(emailLeak(tmp.resolve("two"))).get(0));

    assertThat(one).hasSize(1).allSatisfy(h -> assertThat(h).matches("email:[0-9a-f]{8}"));
    // What the attack computed: an unsalted SHA-256 of the category and a guessed value.
    for (String guess : List.of("email:ana.lopez@victim.example", "ana.lopez@victim.example")) {
      String unsalted = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
          .digest(guess.getBytes(java.nio.charset.StandardCharsets.UTF_8)), 0, 4);
      assertThat(one.get(0)).doesNotEndWith(unsalted);
    }
    assertThat(two).as("another case, another key").isNotEqualTo(one);
    Path key = tmp.resolve("one").resolve(io.kvscope.index.store.CaseKey.FILE_NAME);
    assertThat(java.nio.file.Files.size(key)).isEqualTo(32);
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(key)))
        .isEqualTo("rw-------");
  }

  @Test
  void aCanaryInAnotherTenantsResponseIsConfirmedAndSameTenantReuseIsKeptApart() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("planted", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText("audit marker KVCANARY-9f8e7d6c5b do not repeat").build(), 100, false);
    index.served(request("leak", "recipient", "2026-08-28T10:01:00Z", 100, 200)
        .promptText("hello").responseText("sure KVCANARY-9f8e7d6c5b here").build(), 100, false);
    index.served(request("mine", "victim", "2026-08-28T10:02:00Z", 100, 200)
        .promptText("again").responseText("KVCANARY-9f8e7d6c5b").build(), 100, false);

    List<Finding> findings = run(index);

    assertThat(findings).extracting(f -> f.kind() + " " + f.requestId()).containsExactlyInAnyOrder(
        "CANARY_LEAK gw-leak", "SAME_TENANT_REUSE gw-mine");
    assertThat(findings).filteredOn(f -> f.kind() == FindingKind.CANARY_LEAK)
        .allSatisfy(f -> assertThat(f.confidence()).isEqualTo(Confidence.CONFIRMED));
  }

  /**
   * A conversation repeats what it was told: each turn that held an identifier is a candidate for
   * it, and the one turn alone holding another is its sole source.
   */
  @Test
  void eachIdentifierNamesEveryRequestWithinReachThatHeldIt() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.served(request("turn-1", "victim", "2026-08-28T09:50:00Z", 100, 200)
        .promptText("I am ana.lopez@victim.example").build(), 100, false);
    index.served(request("turn-2", "victim", "2026-08-28T10:00:00Z", 100, 200)
        .promptText("I am ana.lopez@victim.example, call +44 20 7946 0958, account number 004512339876").build(), 100, false);
    index.served(request("turn-3", "victim", "2026-08-28T10:02:00Z", 100, 200)
        .promptText("Again, +44 20 7946 0958").build(), 100, false);
    index.served(request("leak", "recipient", "2026-08-28T10:05:00Z", 100, 200)
        .promptText("Tell me a story")
        .responseText("Ana (ana.lopez@victim.example, +44 20 7946 0958) owns 004512339876").build(), 100, false);

    List<Finding> findings = run(index);

    assertThat(findings).extracting(Finding::requestId).containsExactly("gw-leak");
    // The account number only turn 2 held: a sole attribution. The address and the phone number
    // two turns each held: candidates, the one that ended last first.
    assertThat(findings.get(0).sources()).extracting(s -> s.requestId() + " " + s.attribution().id())
        .containsExactly("gw-turn-2 sole", "gw-turn-3 candidate", "gw-turn-1 candidate");
  }
}
