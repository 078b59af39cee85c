package io.kvscope.probe.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The config responses read from bodies in the upstream servers' shapes (fixtures/README.md). */
class ResponseReadingTest {

  @Test
  void sglangServerInfoGivesPoolVersionRoleAndSafeguardsWithTheirRawValues() throws IOException {
    Readings r = new Readings();
    assertThat(ServerInfoResponse.read(fixture("sglang-unified-server-info.json"), "GET /server_info", r)).isTrue();

    Fact<Long> pool = r.fact(FactName.POOL_TOKENS);
    assertThat(pool.value()).isEqualTo(41_216L);
    assertThat(pool.observed()).extracting(Observation::field)
        .containsExactly("max_total_num_tokens", "internal_states[0].memory_usage.token_capacity");
    assertThat(r.fact(FactName.ENGINE_VERSION).value()).isEqualTo("0.5.3rc0");
    assertThat(r.fact(FactName.ROLE).value()).isEqualTo(NodeRole.UNIFIED);
    assertThat(r.fact(FactName.PAGE_SIZE).value()).isEqualTo(1);
    assertThat(r.fact(FactName.MAX_REQUEST_INPUT).value()).isEqualTo(41_210L);
    // context_length null: the argument says "the model's own", which only /v1/models or /metrics show.
    assertThat(r.has(FactName.CONTEXT_LENGTH)).isFalse();
    // A whole ServerArgs dump without the switch: this build has no such safeguard.
    assertThat(r.fact(FactName.KV_CANARY).value()).isEqualTo(false);
    assertThat(r.fact(FactName.KV_CANARY).observed().get(0).raw()).isEqualTo("absent from the server arguments");
    assertThat(r.has(FactName.DEFERRED_RELEASE)).isFalse();
  }

  @Test
  void canaryModesAndDeferredReleaseKeysAreReadLikeTheLogReaderReadsThem() {
    Readings r = new Readings();
    ServerInfoResponse.read("{\"version\":\"0.5.22\",\"model_path\":\"m\",\"page_size\":64,\"kv_canary\":\"raise\","
        + "\"disaggregation_enable_kv_checksum\":true,\"disaggregation_deferred_kv_release\":false}", "GET /server_info", r);
    assertThat(r.fact(FactName.KV_CANARY).value()).isEqualTo(true);
    assertThat(r.fact(FactName.KV_CHECKSUM).value()).isEqualTo(true);
    assertThat(r.fact(FactName.DEFERRED_RELEASE).value()).isEqualTo(false);

    Readings off = new Readings();
    ServerInfoResponse.read("{\"version\":\"0.5.22\",\"kv_canary\":\"off\"}", "GET /server_info", off);
    assertThat(off.fact(FactName.KV_CANARY).value()).isEqualTo(false);
    // Not a whole dump: a missing checksum key says nothing.
    assertThat(off.has(FactName.KV_CHECKSUM)).isFalse();
  }

  @Test
  void somethingElseAtTheServerInfoPathIsNotReadAsOne() {
    assertThat(ServerInfoResponse.read("{\"status\":\"ready\",\"backend\":\"other\"}", "GET /server_info", new Readings())).isFalse();
    assertThat(ServerInfoResponse.read("<html>not json</html>", "GET /server_info", new Readings())).isFalse();
  }

  @Test
  void sglangMetricsGiveTheSmallestRankPoolAndSkipGarbledLines() throws IOException {
    Readings r = new Readings();
    assertThat(MetricsResponse.read(fixture("sglang-prefill-metrics.txt"), "GET /metrics", r)).isTrue();
    assertThat(r.fact(FactName.POOL_TOKENS).value()).isEqualTo(681_280L);
    assertThat(r.fact(FactName.POOL_TOKENS).observed()).hasSize(2);
    assertThat(r.fact(FactName.POOL_TOKENS).observed().get(0).field()).isEqualTo(
        "sglang:max_total_num_tokens{engine_type=\"prefill\",model_name=\"example-1m\",moe_ep_rank=\"0\",pp_rank=\"0\",tp_rank=\"0\"}");
    assertThat(r.fact(FactName.CONTEXT_LENGTH).value()).isEqualTo(1_048_576L);
    assertThat(r.fact(FactName.PAGE_SIZE).value()).isEqualTo(64);
    assertThat(r.fact(FactName.ROLE).value()).isEqualTo(NodeRole.PREFILL);
    assertThat(r.fact(FactName.ENGINE).value()).isEqualTo("sglang");
  }

  @Test
  void vllmCacheConfigInfoGivesBlocksTimesBlockSize() throws IOException {
    Readings r = new Readings();
    assertThat(MetricsResponse.read(fixture("vllm-metrics.txt"), "GET /metrics", r)).isTrue();
    assertThat(r.fact(FactName.POOL_TOKENS).value()).isEqualTo(2765L * 16);
    assertThat(r.fact(FactName.PAGE_SIZE).value()).isEqualTo(16);
    assertThat(r.fact(FactName.ENGINE).value()).isEqualTo("vllm");

    Readings newer = new Readings();
    MetricsResponse.read("vllm:cache_config_info{block_size=\"16\",kv_cache_size_tokens=\"10576\",num_gpu_blocks=\"661\"} 1\n", "GET /metrics", newer);
    assertThat(newer.fact(FactName.POOL_TOKENS).value()).isEqualTo(10_576L);

    Readings early = new Readings();
    assertThat(MetricsResponse.read("vllm:cache_config_info{block_size=\"16\",num_gpu_blocks=\"None\"} 1\n", "GET /metrics", early)).isFalse();
    assertThat(early.has(FactName.POOL_TOKENS)).isFalse();
  }

  @Test
  void theModelListGivesTheAdmittedContextAndTheEngine() {
    Readings r = new Readings();
    List<String> ids = ModelsResponse.read("{\"object\":\"list\",\"data\":[{\"id\":\"example-8b\",\"object\":\"model\",\"created\":1,"
        + "\"owned_by\":\"vllm\",\"root\":\"org/example-8b\",\"parent\":null,\"max_model_len\":4096,\"permission\":[]}]}", "GET /v1/models", r);
    assertThat(ids).containsExactly("example-8b");
    assertThat(r.fact(FactName.CONTEXT_LENGTH).value()).isEqualTo(4_096L);
    assertThat(r.fact(FactName.ENGINE).value()).isEqualTo("vllm");
    assertThat(VersionResponse.read("{\"version\":\"0.10.1.1\"}", "GET /version", r)).isTrue();
    assertThat(r.fact(FactName.ENGINE_VERSION).value()).isEqualTo("0.10.1.1");
  }

  private static String fixture(String name) throws IOException {
    try (InputStream in = ResponseReadingTest.class.getResourceAsStream("/fixtures/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
