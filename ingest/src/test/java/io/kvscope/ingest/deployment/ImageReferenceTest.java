package io.kvscope.ingest.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ImageReferenceTest {

  /** Tag shapes as the SGLang and vLLM release workflows publish them, and the registries' prefixes. */
  @ParameterizedTest
  @CsvSource(nullValues = "null", value = {
      "lmsysorg/sglang:v0.5.19-cu126, sglang, 0.5.19",
      "docker.io/lmsysorg/sglang:v0.5.13-cu130-runtime, sglang, 0.5.13",
      "lmsysorg/sglang:v0.4.6.post1-cu124, sglang, 0.4.6.post1",
      "lmsysorg/sglang:v0.5.3rc0-cu126, sglang, 0.5.3rc0",
      "lmsysorg/sglang:v0.3.0-cu121-srt, sglang, 0.3.0",
      "lmsysorg/sglang:v0.5.2-cu129-amd64, sglang, 0.5.2",
      "registry.local:5000/mirror/lmsysorg/sglang:0.5.6@sha256:00aa, sglang, 0.5.6",
      "lmsysorg/sglang:latest, sglang, null",
      "lmsysorg/sglang:dev, sglang, null",
      "lmsysorg/sglang:nightly-dev-20250925-1a2b3c4d, sglang, null",
      "lmsysorg/sglang@sha256:5b1f0c2a9e8d, sglang, null",
      "vllm/vllm-openai:v0.10.1.1, vllm, 0.10.1.1",
      "vllm/vllm-openai:v0.6.3.post1, vllm, 0.6.3.post1",
      "vllm/vllm-openai:latest, vllm, null",
      "lmsysorg/sglang-router:v0.2.1, null, 0.2.1",
      "prom/node-exporter:v1.8.2, null, 1.8.2"})
  void engineAndReleaseFromTheTag(String reference, String engine, String version) {
    ImageReference image = ImageReference.parse(reference);
    assertThat(image.engine()).isEqualTo(engine);
    assertThat(image.version()).isEqualTo(version);
  }
}
