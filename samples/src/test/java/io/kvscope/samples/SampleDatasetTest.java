package io.kvscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.samples.testing.Files2;
import io.kvscope.samples.truth.GroundTruth;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped dataset is small, complete, and exactly what the generator writes for its seed. */
class SampleDatasetTest {

  @Test
  void theShippedIncidentIsCompactAndReplaysTheSeedIncidentsShape() throws Exception {
    List<String> files = SampleDataset.files();
    assertThat(files).contains("truth.json").contains("deployment/engine-versions.csv.zst").hasSize(38);
    long bytes = 0;
    for (String f : files) {
      try (InputStream in = SampleDataset.open(f)) {
        bytes += in.transferTo(java.io.OutputStream.nullOutputStream());
      }
    }
    assertThat(bytes).isLessThan(6_200_000L);
    GroundTruth truth = SampleDataset.truth();
    assertThat(truth.generator().seed()).isEqualTo(SampleDataset.SEED);
    assertThat(truth.generator().scale()).isEqualTo("small");
    assertThat(truth.summary().leakedResponses()).isGreaterThanOrEqualTo(10);
    assertThat(truth.windows()).allSatisfy(w -> assertThat(w.reason()).contains("< context_length 1048576"));
    assertThat(truth.windows()).anySatisfy(w -> assertThat(w.reason()).contains("max_total_num_tokens 681280"));
    assertThat(truth.windows().stream().map(w -> w.start().toString().substring(0, 10)).sorted().toList().getFirst())
        .isEqualTo("2026-08-27");
    assertThat(truth.windows().stream().map(w -> w.end().toString().substring(0, 10)).sorted().toList().getLast())
        .isEqualTo("2026-09-09");
    assertThat(truth.leakedResponses()).anyMatch(l -> l.sources().stream().anyMatch(s -> "canary".equals(s.category())));
    assertThat(truth.sameTenantReuse()).isNotEmpty();
  }

  @Test
  void theShippedFilesDecompressToAFreshGenerationWithTheSameSeed(@TempDir Path tmp) throws Exception {
    Path shipped = SampleDataset.extractTo(tmp.resolve("shipped"));
    Path fresh = tmp.resolve("fresh");
    new IncidentGenerator().generate(fresh, SampleDataset.options().withCompression(OutputCompression.PLAIN));
    for (String f : SampleDataset.files()) {
      if (f.equals("truth.json")) {
        continue;
      }
      assertThat(f).endsWith(".zst");
      String plain = f.substring(0, f.length() - ".zst".length());
      assertThat(sha256(Files2.open(shipped.resolve(f)))).as(f).isEqualTo(sha256(Files.newInputStream(fresh.resolve(plain))));
    }
    GroundTruth a = GroundTruth.load(shipped.resolve("truth.json"));
    GroundTruth b = GroundTruth.load(fresh.resolve("truth.json"));
    assertThat(withoutFiles(a)).isEqualTo(withoutFiles(b));
    if (java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
          Files.getPosixFilePermissions(shipped.resolve("truth.json")))).isEqualTo("rw-------");
    }
  }

  private static GroundTruth withoutFiles(GroundTruth t) {
    return new GroundTruth(t.version(), t.generator(), t.periodStart(), t.periodEnd(), t.nodes().stream()
        .map(n -> new io.kvscope.samples.truth.NodeTruth(n.node(), n.deployment(), n.role(), n.clockSkewMs(), null))
        .toList(), t.configEpochs(), t.windows(), t.leakedResponses(), t.sameTenantReuse(), t.overLengthAccepted(),
        t.prefillUnderruns(), t.rejected(), t.coverageGaps(),
        t.duplicates().stream().map(d -> new io.kvscope.samples.truth.DuplicateTruth(
            d.file().replace(".zst", ""), d.originalFile().replace(".zst", ""), d.start(), d.end(), d.lines())).toList(),
        t.victimTenants(), t.recipientTenants(), t.summary(), List.of());
  }

  private static String sha256(InputStream stream) throws IOException {
    try (InputStream in = stream) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[1 << 16];
      int n;
      while ((n = in.read(buf)) > 0) {
        md.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
