package io.kvscope.samples.truth;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The contents of {@code truth.json}. See {@code samples/README.md} for the schema; field names
 * here are the camel-case forms of the JSON's snake-case keys.
 *
 * @param leakedResponses responses carrying at least one other tenant's data (each entry also lists
 *     any same-tenant sources separately)
 * @param sameTenantReuse responses that carried only their own tenant's earlier data
 */
public record GroundTruth(
    int version,
    GeneratorInfo generator,
    Instant periodStart,
    Instant periodEnd,
    List<NodeTruth> nodes,
    List<ConfigEpochTruth> configEpochs,
    List<WindowTruth> windows,
    List<LeakTruth> leakedResponses,
    List<LeakTruth> sameTenantReuse,
    List<OverLengthTruth> overLengthAccepted,
    List<UnderrunTruth> prefillUnderruns,
    List<RejectionTruth> rejected,
    List<GapTruth> coverageGaps,
    List<DuplicateTruth> duplicates,
    List<String> victimTenants,
    List<String> recipientTenants,
    SummaryTruth summary,
    List<FileTruth> files,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<DecoyTruth> decoys) {

  public static final int VERSION = 1;

  /** An incident without traps. */
  public GroundTruth(int version, GeneratorInfo generator, Instant periodStart, Instant periodEnd,
      List<NodeTruth> nodes, List<ConfigEpochTruth> configEpochs, List<WindowTruth> windows,
      List<LeakTruth> leakedResponses, List<LeakTruth> sameTenantReuse, List<OverLengthTruth> overLengthAccepted,
      List<UnderrunTruth> prefillUnderruns, List<RejectionTruth> rejected, List<GapTruth> coverageGaps,
      List<DuplicateTruth> duplicates, List<String> victimTenants, List<String> recipientTenants,
      SummaryTruth summary, List<FileTruth> files) {
    this(version, generator, periodStart, periodEnd, nodes, configEpochs, windows, leakedResponses, sameTenantReuse,
        overLengthAccepted, prefillUnderruns, rejected, coverageGaps, duplicates, victimTenants, recipientTenants,
        summary, files, List.of());
  }

  public GroundTruth {
    nodes = List.copyOf(nodes);
    configEpochs = List.copyOf(configEpochs);
    windows = List.copyOf(windows);
    leakedResponses = List.copyOf(leakedResponses);
    sameTenantReuse = List.copyOf(sameTenantReuse);
    overLengthAccepted = List.copyOf(overLengthAccepted);
    prefillUnderruns = List.copyOf(prefillUnderruns);
    rejected = List.copyOf(rejected);
    coverageGaps = List.copyOf(coverageGaps);
    duplicates = List.copyOf(duplicates);
    victimTenants = List.copyOf(victimTenants);
    recipientTenants = List.copyOf(recipientTenants);
    files = List.copyOf(files);
    decoys = decoys == null ? List.of() : List.copyOf(decoys);
  }

  /** Reads {@code truth.json}. */
  public static GroundTruth load(Path file) throws IOException {
    return TruthJson.read(file);
  }

  public static GroundTruth read(InputStream in) throws IOException {
    return TruthJson.read(in);
  }

  /** Writes this truth as {@code truth.json} (owner-only). */
  public void write(Path file) throws IOException {
    TruthJson.write(this, file);
  }

  /** Gateway ids of the cross-tenant leaked responses an analysis is expected to find. */
  public Set<String> expectedLeakIds() {
    Set<String> out = new LinkedHashSet<>();
    for (LeakTruth l : leakedResponses) {
      if (l.expected()) {
        out.add(l.requestId());
      }
    }
    return out;
  }

  /** Gateway ids of the cross-tenant leaked responses. */
  public Set<String> leakedRequestIds() {
    Set<String> out = new LinkedHashSet<>();
    for (LeakTruth l : leakedResponses) {
      out.add(l.requestId());
    }
    return out;
  }

  /** Gateway ids of the requests whose data leaked to another tenant. */
  public Set<String> sourceRequestIds() {
    Set<String> out = new LinkedHashSet<>();
    for (LeakTruth l : leakedResponses) {
      for (SourceTruth s : l.sources()) {
        out.add(s.requestId());
      }
    }
    return out;
  }

  public Set<String> overLengthAcceptedIds() {
    Set<String> out = new LinkedHashSet<>();
    for (OverLengthTruth o : overLengthAccepted) {
      out.add(o.requestId());
    }
    return out;
  }

  public Set<String> prefillUnderrunIds() {
    Set<String> out = new LinkedHashSet<>();
    for (UnderrunTruth u : prefillUnderruns) {
      out.add(u.requestId());
    }
    return out;
  }
}
