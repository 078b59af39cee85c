package io.kvscope.gui.export;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.analysis.impact.ImpactModel;
import io.kvscope.gui.model.FindingFilter;
import io.kvscope.gui.model.Impact;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SelectionExportTest {

  @TempDir Path dir;

  private final Finding leak = new Finding("cross_tenant_overlap:r1", FindingKind.CROSS_TENANT_OVERLAP,
      Confidence.CONFIRMED, "r1", "rid1", "globex, inc", Instant.parse("2026-08-28T10:00:00Z"), "prefill-0",
      "decode-0", List.of(new Source("s1", null, "=acme", 40, List.of(), Attribution.SOLE),
          new Source("s2", null, "initech", 2, List.of(), Attribution.SOLE)),
      Map.of("verified_chars", 160L));

  @Test
  void csvQuotesSeparatorsAndDefusesFormulas() {
    String csv = SelectionExport.findingsCsv(List.of(leak));
    String[] lines = csv.split("\n");

    assertThat(lines).hasSize(2);
    assertThat(lines[1]).isEqualTo("cross_tenant_overlap:r1,cross_tenant_overlap,confirmed,r1,rid1,\"globex, inc\","
        + "2026-08-28T10:00:00Z,prefill-0,decode-0,\"'=acme;initech\",\"s1;s2\",42");
  }

  @Test
  void jsonCarriesTheFilterTheFindingsAndTheirTenantCounts() throws Exception {
    FindingFilter filter = FindingFilter.NONE.withKind(FindingKind.CROSS_TENANT_OVERLAP).withTenant("globex, inc");
    String json = SelectionExport.json(filter, List.of(leak), Impact.of(ImpactModel.tally(List.of(leak))));

    JsonNode root = new ObjectMapper().readTree(json);
    assertThat(root.path("filter").path("kind").asText()).isEqualTo("cross_tenant_overlap");
    assertThat(root.path("filter").path("tenant").asText()).isEqualTo("globex, inc");
    assertThat(root.path("findings").get(0).path("evidence").path("verified_chars").asLong()).isEqualTo(160);
    assertThat(root.path("matrix")).hasSize(2);
    assertThat(root.path("tenants")).hasSize(3);
  }

  @Test
  void exportsAreWrittenOwnerOnly() throws Exception {
    Path file = dir.resolve("out/findings.csv");
    SelectionExport.write(file, SelectionExport.findingsCsv(List.of(leak)));

    assertThat(Files.readString(file)).startsWith("id,kind,");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
  }

  @Test
  void everyExportIsMarkedSoAnIngestSkipsIt() throws Exception {
    Path findings = dir.resolve("findings.csv");
    Path tenants = dir.resolve("tenants.csv");
    Path json = dir.resolve("selection.json");
    SelectionExport.write(findings, SelectionExport.findingsCsv(List.of(leak)));
    SelectionExport.write(tenants, SelectionExport.tenantsCsv(Impact.of(ImpactModel.tally(List.of(leak))).tenants()));
    SelectionExport.write(json, SelectionExport.json(FindingFilter.NONE, List.of(leak), Impact.of(ImpactModel.tally(List.of(leak)))));
    for (Path file : List.of(findings, tenants, json)) {
      assertThat(io.kvscope.ingest.KvscopeOutputs.recognise(new io.kvscope.ingest.InputFile(file).sniff())).as("%s", file)
          .isPresent();
    }
  }
}
