package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.analysis.impact.Report;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TenantBundlesTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir
  Path dir;

  @Test
  void everyTenantOnEitherSideOfACountedLeakGetsABundle() throws IOException {
    Path bundles = dir.resolve("bundles");
    List<Path> written = TenantBundles.write(IncidentFixture.incident(), bundles);

    assertThat(written).extracting(p -> p.getFileName().toString())
        .containsExactlyInAnyOrder(IncidentFixture.NORTHWIND, IncidentFixture.GLOBEX, IncidentFixture.INITECH,
            IncidentFixture.UMBRELLA, BundleDirectoryName.of(IncidentFixture.ACME));
    // Hooli only has a suspect finding: nothing to notify. Acme is a possible source of one passage.
    assertThat(bundles.resolve(IncidentFixture.HOOLI)).doesNotExist();
    for (Path b : written) {
      assertThat(b.resolve(TenantBundles.JSON_FILE)).isRegularFile();
      assertThat(b.resolve(TenantBundles.MARKDOWN_FILE)).isRegularFile();
      assertThat(b.resolve(TenantBundles.HTML_FILE)).isRegularFile();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(b.resolve(TenantBundles.HTML_FILE))))
          .isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(b))).isEqualTo("rwx------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(b.resolve(TenantBundles.JSON_FILE))))
          .isEqualTo("rw-------");
    }
  }

  @Test
  void aBundleHoldsNoOtherTenantsNameRequestIdOrText() throws IOException {
    Path bundles = dir.resolve("bundles");
    TenantBundles.write(IncidentFixture.incident(), bundles);

    for (Path b : list(bundles)) {
      String tenant = MAPPER.readTree(b.resolve(TenantBundles.JSON_FILE).toFile()).get("tenant").asText();
      String all = list(b).stream().map(TenantBundlesTest::read).collect(Collectors.joining("\n"));
      for (String other : IncidentFixture.TENANTS) {
        if (!other.equals(tenant)) {
          assertThat(all).as(tenant + "'s bundle names " + other).doesNotContain(other);
        }
      }
      for (Map.Entry<String, String> request : IncidentFixture.OWNER.entrySet()) {
        if (!request.getValue().equals(tenant)) {
          String id = request.getKey();
          assertThat(all).as(tenant + "'s bundle holds another tenant's request " + id)
              .doesNotContain(id).doesNotContain(id.substring("chatcmpl-".length()));
        }
      }
      for (String secret : IncidentFixture.SECRET_WORDS) {
        assertThat(all).as(tenant + "'s bundle holds text").doesNotContain(secret);
      }
      assertThat(all).doesNotContain("prefill-a").doesNotContain("decode-a").doesNotContain("llama-1m");
    }
  }

  /**
   * A span found in logged copies (where a request's records disagree on its text): each side's
   * range is of that copy, named, never merged with ranges of the kept text.
   */
  @Test
  void aRangeInALoggedCopyNamesTheCopy() throws IOException {
    Path bundles = dir.resolve("bundles");
    io.kvscope.analysis.impact.Report report = FindingsDuckDbTest.withALoggedCopy(IncidentFixture.incident());
    io.kvscope.model.finding.Finding f = report.findings().stream().filter(x -> x.sources().stream()
        .anyMatch(s -> s.spans().stream().anyMatch(span -> !span.inKeptTexts()))).findFirst().orElseThrow();
    io.kvscope.model.finding.Source source = f.sources().getFirst();
    io.kvscope.model.finding.Span span = source.spans().getFirst();
    TenantBundles.write(report, bundles);

    JsonNode victim = MAPPER.readTree(bundles.resolve(source.tenant()).resolve(TenantBundles.JSON_FILE).toFile());
    assertThat(find(victim.get("as_victim"), source.requestId()).get("ranges")).anySatisfy(r -> {
      assertThat(r.get("copy").asText()).isEqualTo("otlp spans.jsonl:9");
      assertThat(List.of(r.get("start").asInt(), r.get("end").asInt())).containsExactly(span.sourceStart(), span.sourceEnd());
    });
    JsonNode recipient = MAPPER.readTree(bundles.resolve(f.tenant()).resolve(TenantBundles.JSON_FILE).toFile());
    JsonNode received = find(recipient.get("as_recipient"), f.requestId()).get("ranges");
    assertThat(received).anySatisfy(r -> assertThat(r.get("copy").asText()).isEqualTo("gateway retry.jsonl:4"));
    assertThat(Files.readString(bundles.resolve(f.tenant()).resolve(TenantBundles.MARKDOWN_FILE)))
        .contains(" of its logged copy from gateway retry.jsonl:4");
  }

  @Test
  void victimAndRecipientViewsCountWithoutNaming() throws IOException {
    Path bundles = dir.resolve("bundles");
    TenantBundles.write(IncidentFixture.incident(), bundles);

    JsonNode northwind = MAPPER.readTree(bundles.resolve(IncidentFixture.NORTHWIND).resolve(TenantBundles.JSON_FILE).toFile());
    // Northwind lost two requests (to globex and to initech) and received globex's key once.
    assertThat(ids(northwind.get("as_victim"))).containsExactlyInAnyOrder(IncidentFixture.NW_REQ_1, IncidentFixture.NW_REQ_2);
    JsonNode lost = find(northwind.get("as_victim"), IncidentFixture.NW_REQ_1);
    assertThat(lost.get("responses").asLong()).isEqualTo(1);
    assertThat(lost.get("tokens").asLong()).isEqualTo(21);
    assertThat(lost.get("first_exposed").asText()).isEqualTo("2026-08-27T09:14:03.250Z");
    assertThat(lost.get("ranges").get(0).get("field").asText()).isEqualTo("prompt_text");
    int start = IncidentFixture.PROMPTS.get(IncidentFixture.NW_REQ_1).indexOf(IncidentFixture.NW_SECRET);
    assertThat(lost.get("ranges").get(0).get("start").asInt()).isEqualTo(start);
    assertThat(lost.get("ranges").get(0).get("end").asInt()).isEqualTo(start + IncidentFixture.NW_SECRET.length());
    assertThat(ids(northwind.get("as_recipient"))).containsExactly(IncidentFixture.NW_REQ_3);
    assertThat(northwind.get("as_recipient").get(0).get("sources").asInt()).isEqualTo(1);
    assertThat(northwind.get("summary").get("tokens_exposed").asLong()).isEqualTo(27);

    JsonNode initech = MAPPER.readTree(bundles.resolve(IncidentFixture.INITECH).resolve(TenantBundles.JSON_FILE).toFile());
    assertThat(initech.get("as_victim")).isEmpty(); // its data only reached hooli as a suspect
    JsonNode received = initech.get("as_recipient").get(0);
    assertThat(received.get("sources").asInt()).isEqualTo(3);
    // The canary's 6 tokens, and the 14-token passage once though two requests held it.
    assertThat(received.get("tokens").asLong()).isEqualTo(20);
    assertThat(received.get("ranges")).hasSize(2);

    JsonNode globex = MAPPER.readTree(bundles.resolve(IncidentFixture.GLOBEX).resolve(TenantBundles.JSON_FILE).toFile());
    // Its over-length, short-prefilled request is the response that carried northwind's data: one entry says all.
    assertThat(globex.get("mishandled_requests")).isEmpty();
    assertThat(globex.get("summary").get("mishandled_requests").asInt()).isEqualTo(1);
    assertThat(ids(globex.get("as_recipient"))).containsExactly(IncidentFixture.GX_REQ_1);
    assertThat(globex.get("as_recipient").get(0).get("kinds")).extracting(JsonNode::asText)
        .containsExactly("cross_tenant_overlap", "over_length_accepted", "prefill_underrun");

    JsonNode umbrella = MAPPER.readTree(bundles.resolve(IncidentFixture.UMBRELLA).resolve(TenantBundles.JSON_FILE).toFile());
    // Its own memo in its own response is not a notification.
    assertThat(umbrella.get("as_recipient")).isEmpty();
    assertThat(ids(umbrella.get("as_victim"))).containsExactly(IncidentFixture.UM_REQ_1);
  }

  /**
   * Where another tenant's request held the same passage word for word, a bundle says the data
   * possibly leaked, never that it did; where a confirmed finding names the request alone, it says so.
   */
  @Test
  void aCandidateSourceIsToldItsDataPossiblyLeakedNeverThatItCertainlyDid() throws IOException {
    Path bundles = dir.resolve("bundles");
    TenantBundles.write(IncidentFixture.incident(), bundles);

    JsonNode umbrella = MAPPER.readTree(bundles.resolve(IncidentFixture.UMBRELLA).resolve(TenantBundles.JSON_FILE).toFile());
    assertThat(umbrella.get("as_victim").get(0).get("exposure").asText()).isEqualTo("possible");
    assertThat(umbrella.get("summary").get("requests_exposed").asLong()).isZero();
    assertThat(umbrella.get("summary").get("requests_possibly_exposed").asLong()).isEqualTo(1);
    String markdown = Files.readString(bundles.resolve(IncidentFixture.UMBRELLA).resolve(TenantBundles.MARKDOWN_FILE));
    assertThat(markdown).contains("| `" + IncidentFixture.UM_REQ_1 + "` | possibly |");
    JsonNode northwind = MAPPER.readTree(bundles.resolve(IncidentFixture.NORTHWIND).resolve(TenantBundles.JSON_FILE).toFile());
    assertThat(find(northwind.get("as_victim"), IncidentFixture.NW_REQ_1).get("exposure").asText()).isEqualTo("certain");
    assertThat(northwind.get("summary").get("requests_exposed").asLong()).isEqualTo(2);
  }

  @Test
  void revealAndTextNeverReachBundles() throws IOException {
    Path out = dir.resolve("out");
    ReportWriters.writeAll(IncidentFixture.incident(), out, WriteOptions.defaults().withReveal(true)
        .withText(IncidentFixture.texts()).withFormats(Set.of(Format.BUNDLES)));
    for (Path b : list(out.resolve(TenantBundles.DIRECTORY))) {
      String all = list(b).stream().map(TenantBundlesTest::read).collect(Collectors.joining("\n"));
      for (String secret : IncidentFixture.SECRET_WORDS) {
        assertThat(all).doesNotContain(secret);
      }
    }
  }

  @Test
  void aTenantWithAnAwkwardNameGetsItsBundleInASafeDirectory() throws IOException {
    Report report = IncidentFixture.incident();
    // Rename globex into the awkward name everywhere it appears.
    var findings = report.findings().stream().map(f -> new io.kvscope.model.finding.Finding(f.id(), f.kind(),
        f.confidence(), f.requestId(), f.engineRid(), IncidentFixture.GLOBEX.equals(f.tenant()) ? "../Globex/Inc" : f.tenant(),
        f.time(), f.node(), f.decodeNode(), f.sources(), f.evidence())).toList();
    Report renamed = new Report(report.reportVersion(), report.generatedAt(), report.index(), report.summary(),
        report.windows(), findings, report.tenants(), report.matrix(), report.timeline(), report.dataCategories(),
        report.coverage(), report.parameters());
    Path bundles = dir.resolve("bundles");
    TenantBundles.write(renamed, bundles);
    assertThat(list(bundles)).allSatisfy(p -> assertThat(p.getParent()).isEqualTo(bundles));
    assertThat(list(bundles)).anySatisfy(p -> assertThat(p.getFileName().toString()).isEqualTo("~2e.~2f~47lobex~2f~49nc"));
  }

  @Test
  void everyHostileTenantNameGetsItsOwnBundleInsideTheBundlesFolder() throws Exception {
    List<String> tenants = BundleDirectoryNameTest.hostileNames();
    List<io.kvscope.model.finding.Finding> leaks = new ArrayList<>();
    for (int i = 0; i < tenants.size(); i++) {
      // Each hostile tenant's request leaked into a response of a plainly named recipient.
      leaks.add(new io.kvscope.model.finding.Finding("cross_tenant_overlap:rcpt-" + i,
          io.kvscope.model.finding.FindingKind.CROSS_TENANT_OVERLAP, io.kvscope.model.finding.Confidence.CONFIRMED,
          "rcpt-" + i, "rcpt-" + i, "recipient-" + i, IncidentFixture.at(i), "prefill-a", "decode-a",
          List.of(new io.kvscope.model.finding.Source("src-" + i, "src-" + i, tenants.get(i), 12, List.of(),
              io.kvscope.model.finding.Attribution.SOLE)),
          Map.of()));
    }
    Path bundles = dir.resolve("bundles");
    List<Path> written = TenantBundles.write(IncidentFixture.incident(leaks), bundles);

    Set<String> owners = new java.util.HashSet<>();
    for (Path b : list(bundles)) {
      assertThat(b.getParent()).isEqualTo(bundles);
      assertThat(b.getFileName().toString()).doesNotStartWith(".");
      owners.add(MAPPER.readTree(b.resolve(TenantBundles.JSON_FILE).toFile()).get("tenant").asText());
    }
    // One folder per tenant: the fixture's own, every hostile one and its recipient.
    int fixtureBundles = TenantBundles.write(IncidentFixture.incident(), dir.resolve("fixture-only")).size();
    assertThat(list(bundles)).hasSize(written.size()).hasSize(fixtureBundles + 2 * tenants.size());
    assertThat(owners).containsAll(tenants);
  }

  @Test
  void oneEntryPerRequestWithItsDataCategoriesAndKindsInWords() throws IOException {
    // The analyzers' evidence names the categories recognised in a response's foreign spans: the
    // northwind invoice holds an email address and an account number; the canary finding has two sources.
    Report base = IncidentFixture.incident();
    List<io.kvscope.model.finding.Finding> findings = new ArrayList<>();
    for (io.kvscope.model.finding.Finding f : base.findings()) {
      if (f.id().equals("cross_tenant_overlap:" + IncidentFixture.GX_REQ_1)) {
        f = f.withEvidence(IncidentFixture.categories("account_number", "email"));
      } else if (f.kind() == io.kvscope.model.finding.FindingKind.CANARY_LEAK) {
        f = f.withEvidence(IncidentFixture.categories("canary"));
      }
      findings.add(f);
    }
    // A second overlap on globex's response from the same northwind request: still one entry each.
    io.kvscope.model.finding.Finding first = findings.getFirst();
    findings.add(new io.kvscope.model.finding.Finding("rare_identifier_leak:" + IncidentFixture.GX_REQ_1,
        io.kvscope.model.finding.FindingKind.RARE_IDENTIFIER_LEAK, io.kvscope.model.finding.Confidence.PROBABLE,
        first.requestId(), first.engineRid(), first.tenant(), first.time(), first.node(), first.decodeNode(),
        List.of(new io.kvscope.model.finding.Source(IncidentFixture.NW_REQ_1, IncidentFixture.NW_REQ_1.substring(9),
            IncidentFixture.NORTHWIND, 4, List.of(), io.kvscope.model.finding.Attribution.SOLE)),
        IncidentFixture.categories("email")));
    Report report = new Report(base.reportVersion(), base.generatedAt(), base.index(), base.summary(), base.windows(),
        findings, base.tenants(), base.matrix(), base.timeline(), base.dataCategories(), base.coverage(), base.parameters());
    Path bundles = dir.resolve("bundles");
    TenantBundles.write(report, bundles);

    JsonNode northwind = MAPPER.readTree(bundles.resolve(IncidentFixture.NORTHWIND).resolve(TenantBundles.JSON_FILE).toFile());
    JsonNode lost = find(northwind.get("as_victim"), IncidentFixture.NW_REQ_1);
    assertThat(lost.get("categories")).extracting(JsonNode::asText).containsExactly("account_number", "email");
    assertThat(lost.get("kinds")).extracting(JsonNode::asText).containsExactly("cross_tenant_overlap", "rare_identifier_leak");
    JsonNode canary = find(northwind.get("as_victim"), IncidentFixture.NW_REQ_2);
    assertThat(canary.get("categories")).isEmpty();
    assertThat(canary.get("categories_possible")).extracting(JsonNode::asText).containsExactly("canary");
    JsonNode globex = MAPPER.readTree(bundles.resolve(IncidentFixture.GLOBEX).resolve(TenantBundles.JSON_FILE).toFile());
    assertThat(globex.get("as_recipient")).hasSize(1);
    assertThat(globex.get("as_recipient").get(0).get("categories")).extracting(JsonNode::asText)
        .containsExactly("account_number", "email");

    for (Path b : list(bundles)) {
      for (String file : List.of(TenantBundles.MARKDOWN_FILE, TenantBundles.HTML_FILE)) {
        String text = read(b.resolve(file));
        // Customers read words, not ids.
        for (io.kvscope.model.finding.FindingKind kind : io.kvscope.model.finding.FindingKind.values()) {
          assertThat(text).as(b.getFileName() + "/" + file).doesNotContain(kind.id())
              .doesNotContain(kind.id().replace("_", "\\_"));
        }
        // Every request of the tenant's once per section at most: count table rows naming each id.
        // (Acme's over-length request is also a possible source: one row in each of two sections.)
        for (String section : text.split("\n## |<h2>")) {
          for (String id : IncidentFixture.OWNER.keySet()) {
            long rows = section.lines().filter(l -> (l.startsWith("|") || l.startsWith("<tr>")) && l.contains(id)).count();
            assertThat(rows).as(id + " rows in a section of " + b.getFileName() + "/" + file).isLessThanOrEqualTo(1);
          }
        }
      }
    }
    String nwMarkdown = read(bundles.resolve(IncidentFixture.NORTHWIND).resolve(TenantBundles.MARKDOWN_FILE));
    assertThat(nwMarkdown).contains("account number, email address").contains("possibly canary marker")
        .contains("text word for word, identifiers");
    String gxHtml = read(bundles.resolve(IncidentFixture.GLOBEX).resolve(TenantBundles.HTML_FILE));
    assertThat(gxHtml).contains("another customer&#39;s text word for word; another customer&#39;s identifiers;"
        + " a prompt longer than the model&#39;s limit was accepted; the server read only part of your prompt");
  }

  @Test
  void theHtmlNoticeIsSelfContainedEscapedAndOnlyTheTenants() throws IOException {
    Report report = IncidentFixture.incident();
    String hostile = "<img src=x onerror=alert(1)>";
    var findings = report.findings().stream().map(f -> new io.kvscope.model.finding.Finding(f.id(), f.kind(),
        f.confidence(), f.requestId(), f.engineRid(), IncidentFixture.GLOBEX.equals(f.tenant()) ? hostile : f.tenant(),
        f.time(), f.node(), f.decodeNode(), f.sources(), f.evidence())).toList();
    Report renamed = new Report(report.reportVersion(), report.generatedAt(), report.index(), report.summary(),
        report.windows(), findings, report.tenants(), report.matrix(), report.timeline(), report.dataCategories(),
        report.coverage(), report.parameters());
    Path bundles = dir.resolve("bundles");
    TenantBundles.write(renamed, bundles);
    Path hostileDir = list(bundles).stream()
        .filter(p -> hostile.equals(readJson(p.resolve(TenantBundles.JSON_FILE)).get("tenant").asText()))
        .findFirst().orElseThrow();
    String html = read(hostileDir.resolve(TenantBundles.HTML_FILE));
    assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n")
        .contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">")
        .contains("&lt;img src=x onerror=alert(1)&gt;").doesNotContain(hostile);
    assertThat(html.toLowerCase()).doesNotContain("<script").doesNotContain("http:").doesNotContain("https:")
        .doesNotContain("href=").doesNotContain("<img");
    // Its own response, and nothing of anyone else's.
    assertThat(html).contains(IncidentFixture.GX_REQ_1);
    for (Map.Entry<String, String> request : IncidentFixture.OWNER.entrySet()) {
      if (!request.getValue().equals(IncidentFixture.GLOBEX)) {
        assertThat(html).doesNotContain(request.getKey());
      }
    }
    for (String other : List.of(IncidentFixture.NORTHWIND, IncidentFixture.INITECH, IncidentFixture.UMBRELLA)) {
      assertThat(html).doesNotContain(other);
    }
  }

  private static List<String> ids(JsonNode array) {
    List<String> ids = new ArrayList<>();
    array.forEach(n -> ids.add(n.get("request_id").asText()));
    return ids;
  }

  private static JsonNode find(JsonNode array, String requestId) {
    for (JsonNode n : array) {
      if (n.get("request_id").asText().equals(requestId)) {
        return n;
      }
    }
    throw new AssertionError("no " + requestId);
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }

  private static JsonNode readJson(Path p) {
    try {
      return MAPPER.readTree(p.toFile());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
