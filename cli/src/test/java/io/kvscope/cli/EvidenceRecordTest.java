package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record of the evidence a report rests on: every input file the generator wrote (its truth
 * lists them) appears in report.json with its size and a SHA-256 computed here from the file
 * itself, with its records read and rejected; report.html and report.md list the same hashes.
 */
class EvidenceRecordTest {

  @Test
  void theReportListsEveryInputFileWithItsSizeHashAndRecords(@TempDir Path tmp) throws Exception {
    CliTestSupport.Analyzed run = CliTestSupport.analyzedIncident(tmp, "0.05x", "4");
    Path incident = run.incident();
    Path reports = run.reports();
    CliTestSupport.Run ingest = run.ingest();

    ObjectMapper json = new ObjectMapper();
    JsonNode report = json.readTree(reports.resolve("report.json").toFile());
    JsonNode truth = json.readTree(incident.resolve("truth.json").toFile());
    String html = Files.readString(reports.resolve("report.html"));
    String markdown = Files.readString(reports.resolve("report.md"));
    assertThat(report.get("report_version").asText()).isEqualTo("1.4");
    JsonNode evidence = report.get("evidence");
    assertThat(evidence.get("kvscope_version").asText()).startsWith("kvscope");
    Map<String, JsonNode> listed = new HashMap<>();
    evidence.get("files").forEach(f -> listed.put(f.get("path").asText(), f));

    long rejected = 0;
    for (JsonNode file : truth.get("files")) {
      Path path = incident.resolve(file.get("path").asText()).toAbsolutePath().normalize();
      JsonNode entry = listed.get(path.toString());
      assertThat(entry).as("%s is listed", path).isNotNull();
      String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(path)));
      assertThat(entry.get("bytes").asLong()).as(path.toString()).isEqualTo(file.get("bytes").asLong());
      assertThat(entry.get("sha256").asText()).as(path.toString()).isEqualTo(sha256);
      if (file.get("format").asText().equals("litellm-jsonl")) {
        assertThat(entry.get("records").asLong()).as("one record a line in %s", path).isEqualTo(file.get("lines").asLong());
      }
      assertThat(html).contains(sha256);
      assertThat(markdown).contains(sha256);
      rejected += entry.get("rejected").asLong();
    }
    assertThat(listed).hasSameSizeAs(truth.get("files"));
    Matcher bad = Pattern.compile("bad records: (\\d+)").matcher(ingest.out());
    assertThat(rejected).isEqualTo(bad.find() ? Long.parseLong(bad.group(1)) : 0);
    assertThat(html).contains("<h2>Evidence used</h2>").contains("analysed by kvscope");
  }
}
