package io.kvscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.samples.testing.EngineFacts;
import io.kvscope.samples.testing.GatewayReader;
import io.kvscope.samples.testing.GatewayRecord;
import io.kvscope.samples.truth.GroundTruth;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The clean fleet: same traffic, fixed engine, pool >= context, safeguards on; nothing leaks. */
class CleanFleetTest {

  @Test
  void aCleanFleetLeaksNothingAndItsLogsShowEverySafeguard(@TempDir Path dir) throws Exception {
    GenerationSummary s = new IncidentGenerator().generate(dir,
        new GeneratorOptions(5L, Scale.parse("0.25x"), FleetMode.CLEAN, OutputCompression.PLAIN));
    GroundTruth truth = GroundTruth.load(s.truthFile());
    assertThat(truth.generator().mode()).isEqualTo("clean");
    assertThat(truth.windows()).isEmpty();
    assertThat(truth.leakedResponses()).isEmpty();
    assertThat(truth.sameTenantReuse()).isEmpty();
    assertThat(truth.overLengthAccepted()).isEmpty();
    assertThat(truth.prefillUnderruns()).isEmpty();
    assertThat(truth.summary().leakedResponses()).isZero();
    assertThat(truth.summary().firstExposure()).isNull();

    EngineFacts engine = EngineFacts.read(dir);
    engine.startups.forEach((node, ups) -> {
      assertThat(ups).isNotEmpty();
      for (EngineFacts.Startup u : ups) {
        assertThat(u.version()).isEqualTo("0.5.22");
        assertThat(u.kvCanary()).isTrue();
        assertThat(u.kvChecksum()).isTrue();
        assertThat(u.poolTokens()).isGreaterThanOrEqualTo(u.contextLength());
      }
    });
    engine.requests.values().forEach(q -> q.stats.forEach(st -> assertThat(st.inputLen()).isGreaterThan(1)));

    List<GatewayRecord> records = GatewayReader.read(dir, Set.of());
    long longServed = 0;
    long rejected = 0;
    for (GatewayRecord r : records) {
      if (r.promptTokensCounted() >= 1_048_576L) {
        assertThat(r.success()).isFalse();
        rejected++;
      } else if (r.success() && r.promptTokensCounted() > 681_280L) {
        longServed++;
        assertThat(r.promptTokensReported()).isEqualTo(r.promptTokensCounted());
      }
    }
    assertThat(longServed + rejected).as("the clean fleet still sees over-length prompts").isPositive();
  }
}
