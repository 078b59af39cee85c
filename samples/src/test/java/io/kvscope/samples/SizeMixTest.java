package io.kvscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.samples.testing.GatewayReader;
import io.kvscope.samples.testing.GatewayRecord;
import io.kvscope.samples.truth.GroundTruth;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chat service's size mix: many more ordinary records around the over-length prompts. */
class SizeMixTest {

  private static final long OVER_LENGTH_TOKENS = 681_280L;

  @Test
  void theChatMixSurroundsTheOverLengthPromptsWithOrdinaryTraffic(@TempDir Path dir) throws Exception {
    Scale scale = Scale.parse("0.1x");
    GeneratorOptions incident = new GeneratorOptions(4L, scale, FleetMode.INCIDENT, OutputCompression.PLAIN);
    GenerationSummary own = new IncidentGenerator().generate(dir.resolve("incident"), incident);
    GenerationSummary chat = new IncidentGenerator().generate(dir.resolve("chat"), incident.withSizeMix(SizeMix.CHAT));

    assertThat(chat.requests()).isGreaterThan(5 * own.requests());
    assertThat(ordinaryShare(dir.resolve("chat"))).isGreaterThan(ordinaryShare(dir.resolve("incident")));
    assertThat(GroundTruth.load(chat.truthFile()).generator().scale()).isEqualTo("0.1x chat");
    assertThat(GroundTruth.load(own.truthFile()).generator().scale()).isEqualTo("0.1x");
  }

  /** The share of gateway records whose prompt is not over-length. */
  private static double ordinaryShare(Path incident) throws Exception {
    List<GatewayRecord> records = GatewayReader.read(incident, Set.of());
    long ordinary = records.stream().filter(r -> r.promptTokensCounted() <= OVER_LENGTH_TOKENS).count();
    return (double) ordinary / records.size();
  }
}
