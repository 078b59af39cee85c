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
    assertThat(globex.get("mishandled_requests")).extracting(n -> n.get("kind").asText())
        .containsExactlyInAnyOrder("over_length_accepted", "prefill_underrun");

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
    assertThat(markdown).contains("| " + IncidentFixture.UM_REQ_1.replace("_", "\\_") + " | possibly |");
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
    var findings = report.findings().stream().map(f -> new io.kvscope.analysis.finding.Finding(f.id(), f.kind(),
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
    List<io.kvscope.analysis.finding.Finding> leaks = new ArrayList<>();
    for (int i = 0; i < tenants.size(); i++) {
      // Each hostile tenant's request leaked into a response of a plainly named recipient.
      leaks.add(new io.kvscope.analysis.finding.Finding("cross_tenant_overlap:rcpt-" + i,
          io.kvscope.analysis.finding.FindingKind.CROSS_TENANT_OVERLAP, io.kvscope.analysis.finding.Confidence.CONFIRMED,
          "rcpt-" + i, "rcpt-" + i, "recipient-" + i, IncidentFixture.at(i), "prefill-a", "decode-a",
          List.of(new io.kvscope.analysis.finding.Source("src-" + i, "src-" + i, tenants.get(i), 12, List.of(),
              io.kvscope.analysis.finding.Attribution.SOLE)),
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
    // One folder per tenant: four of the fixture, every hostile one and its recipient.
    assertThat(list(bundles)).hasSize(written.size()).hasSize(4 + 2 * tenants.size());
    assertThat(owners).containsAll(tenants);
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

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
