package io.kvscope.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.analysis.finding.Source;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.samples.truth.GroundTruth;
import io.kvscope.samples.truth.LeakTruth;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
    name = "score",
    mixinStandardHelpOptions = true,
    description = "Score a report against a generated incident's truth.json: precision and recall of leaked "
        + "responses, source requests, victim tenants, over-length accepted and underruns. The two files "
        + "are told apart by content, so their order does not matter. Exit 0 when every set matches "
        + "exactly, 1 otherwise.")
final class ScoreCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "TRUTH_JSON", description = "truth.json written by 'kvscope generate'.")
  Path truthFile;

  @Parameters(index = "1", paramLabel = "REPORT_JSON", description = "report.json written by 'kvscope analyze'.")
  Path reportFile;

  @Override
  public Integer call() throws Exception {
    if (versionKey(truthFile).equals("report_version") && versionKey(reportFile).equals("truth_version")) {
      Path swapped = truthFile;
      truthFile = reportFile;
      reportFile = swapped;
    }
    if (!versionKey(truthFile).equals("truth_version")) {
      throw new IOException(truthFile + " is not a truth.json written by 'kvscope generate' (it has no truth_version)");
    }
    if (!versionKey(reportFile).equals("report_version")) {
      throw new IOException(reportFile + " is not a report.json written by 'kvscope analyze' (it has no report_version)");
    }
    GroundTruth truth = GroundTruth.load(truthFile);
    Report report = ReportJson.read(reportFile);
    PrintStream out = System.out;
    boolean exact = true;
    exact &= line(out, "leaked responses", truth.leakedRequestIds(), requests(report, FindingKind::isCrossTenantLeak));
    exact &= line(out, "source requests", truth.sourceRequestIds(), sources(report));
    exact &= line(out, "victim tenants", new HashSet<>(truth.victimTenants()), victims(report));
    exact &= line(out, "recipient tenants", new HashSet<>(truth.recipientTenants()), recipients(report));
    exact &= line(out, "over-length accepted", truth.overLengthAcceptedIds(),
        requests(report, k -> k == FindingKind.OVER_LENGTH_ACCEPTED));
    exact &= line(out, "prefill underruns", truth.prefillUnderrunIds(), requests(report, k -> k == FindingKind.PREFILL_UNDERRUN));
    Set<String> sameTenantOnly = new HashSet<>();
    truth.sameTenantReuse().stream().map(LeakTruth::requestId).forEach(sameTenantOnly::add);
    long trapsAsLeaks = requests(report, FindingKind::isCrossTenantLeak).stream().filter(sameTenantOnly::contains).count();
    out.printf("%-22s %d same-tenant-only responses reported as cross-tenant%n", "traps", trapsAsLeaks);
    return exact && trapsAsLeaks == 0 ? KvScope.OK : KvScope.FINDINGS;
  }

  /** The top-level "..._version" key naming what a kvscope JSON file is, or "" when there is none. */
  private static String versionKey(Path file) throws IOException {
    try (JsonParser json = new JsonFactory().createParser(file.toFile())) {
      if (json.nextToken() != JsonToken.START_OBJECT) {
        return "";
      }
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String name = json.currentName();
        if (name.endsWith("_version")) {
          return name;
        }
        json.nextToken();
        json.skipChildren();
      }
      return "";
    } catch (JsonProcessingException notJson) {
      return "";
    }
  }

  private static boolean line(PrintStream out, String name, Set<String> truth, Set<String> found) {
    Set<String> hit = new HashSet<>(found);
    hit.retainAll(truth);
    double precision = found.isEmpty() ? 1 : (double) hit.size() / found.size();
    double recall = truth.isEmpty() ? 1 : (double) hit.size() / truth.size();
    out.printf("%-22s truth %5d  found %5d  precision %.3f  recall %.3f%n", name, truth.size(), found.size(), precision, recall);
    return hit.size() == truth.size() && hit.size() == found.size();
  }

  private static Set<String> requests(Report report, Predicate<FindingKind> kind) {
    Set<String> ids = new HashSet<>();
    for (Finding f : report.findings()) {
      if (kind.test(f.kind()) && f.confidence().counts() && f.requestId() != null) {
        ids.add(f.requestId());
      }
    }
    return ids;
  }

  private static Set<String> sources(Report report) {
    Set<String> ids = new HashSet<>();
    crossTenantSources(report).forEach(s -> ids.add(s.requestId()));
    return ids;
  }

  private static Set<String> victims(Report report) {
    Set<String> tenants = new HashSet<>();
    crossTenantSources(report).forEach(s -> tenants.add(s.tenant()));
    return tenants;
  }

  private static Set<String> recipients(Report report) {
    Set<String> tenants = new HashSet<>();
    report.findings().stream().filter(Finding::isCountedLeak).forEach(f -> tenants.add(f.tenant()));
    return tenants;
  }

  private static java.util.List<Source> crossTenantSources(Report report) {
    return report.findings().stream().filter(Finding::isCountedLeak)
        .flatMap(f -> f.sources().stream().filter(s -> s.tenant() != null && !s.tenant().equals(f.tenant()))).toList();
  }
}
