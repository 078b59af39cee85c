package io.kvscope.index.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.NodeAlias;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeIdentityTest {

  private static NodeAlias alias(String node, String alias, AliasOrigin origin) {
    return new NodeAlias(node, alias, origin, "test", 1);
  }

  @Test
  void aPodRecordJoinsTheLogsStemAndTheScrapeTargetIntoOneNode() {
    NodeIdentity identity = NodeIdentity.of(List.of(
        alias("sglang-prefill-0", "10.20.1.10:30000", AliasOrigin.KUBERNETES),
        alias("sglang-prefill-0", "10.20.1.10", AliasOrigin.KUBERNETES)));

    assertThat(identity.canonical("10.20.1.10:30000")).isEqualTo("sglang-prefill-0");
    assertThat(identity.canonical("10.20.1.10")).isEqualTo("sglang-prefill-0");
    assertThat(identity.canonical("sglang-prefill-0")).isEqualTo("sglang-prefill-0");
    assertThat(identity.canonical("sglang-decode-0")).as("a name nobody aliased is its own node")
        .isEqualTo("sglang-decode-0");
    assertThat(identity.names("sglang-prefill-0"))
        .containsExactlyInAnyOrder("sglang-prefill-0", "10.20.1.10", "10.20.1.10:30000");
  }

  @Test
  void aLearnedPeerHostNamesAScrapeTargetOnItThatNobodyNamed() {
    NodeIdentity identity = NodeIdentity.of(List.of(
        alias("sglang-prefill-0", "10.20.1.10", AliasOrigin.BOOTSTRAP_HOST)));

    assertThat(identity.canonical("10.20.1.10:30000")).isEqualTo("sglang-prefill-0");
    assertThat(identity.canonical("10.20.1.11:30000")).isEqualTo("10.20.1.11:30000");
  }

  @Test
  void aHostTwoServersShareNamesNeitherButEachPortStillNamesItsOwn() {
    // bare metal: prefill on :30000 and decode on :30001 of one machine
    NodeIdentity identity = NodeIdentity.of(List.of(
        alias("prefill-0", "10.0.0.5:30000", AliasOrigin.ENGINE_ARGS),
        alias("prefill-0", "10.0.0.5", AliasOrigin.ENGINE_ARGS),
        alias("decode-0", "10.0.0.5:30001", AliasOrigin.ENGINE_ARGS),
        alias("decode-0", "10.0.0.5", AliasOrigin.ENGINE_ARGS),
        alias("prefill-0", "10.0.0.5", AliasOrigin.BOOTSTRAP_HOST)));

    assertThat(identity.canonical("10.0.0.5:30000")).isEqualTo("prefill-0");
    assertThat(identity.canonical("10.0.0.5:30001")).isEqualTo("decode-0");
    assertThat(identity.canonical("10.0.0.5")).as("ambiguous: no node").isEqualTo("10.0.0.5");
    assertThat(identity.canonical("10.0.0.5:9090")).isEqualTo("10.0.0.5:9090");
    assertThat(identity.canonical("prefill-0")).isNotEqualTo(identity.canonical("decode-0"));
  }

  @Test
  void theUsersNameWinsThenTheServersOwnThenThePods() {
    NodeIdentity identity = NodeIdentity.of(List.of(
        alias("sglang-prefill-0-7c9f4", "10.20.1.10:30000", AliasOrigin.KUBERNETES),
        alias("prefill-0", "10.20.1.10:30000", AliasOrigin.ENGINE_ARGS)));
    assertThat(identity.canonical("sglang-prefill-0-7c9f4")).isEqualTo("prefill-0");

    NodeIdentity withUser = NodeIdentity.of(List.of(
        alias("sglang-prefill-0-7c9f4", "10.20.1.10:30000", AliasOrigin.KUBERNETES),
        alias("prefill-0", "10.20.1.10:30000", AliasOrigin.ENGINE_ARGS),
        alias("pd-a/prefill-0", "prefill-0", AliasOrigin.USER)));
    assertThat(withUser.canonical("10.20.1.10:30000")).isEqualTo("pd-a/prefill-0");
    assertThat(withUser.canonical("sglang-prefill-0-7c9f4")).isEqualTo("pd-a/prefill-0");
    assertThat(withUser.aliased()).containsOnlyKeys("pd-a/prefill-0");
  }

  @Test
  void anAliasThatWouldJoinTwoLoggedNodesIsRefusedAndSaidWhateverItsOrigin() {
    var logged = java.util.Map.of(
        "sglang-prefill-a0", new NodeIdentity.Logged(true, java.util.Set.of(io.kvscope.ingest.record.NodeRole.PREFILL)),
        "sglang-prefill-a1", new NodeIdentity.Logged(true, java.util.Set.of(io.kvscope.ingest.record.NodeRole.PREFILL)),
        "sglang-decode-a0", new NodeIdentity.Logged(true, java.util.Set.of(io.kvscope.ingest.record.NodeRole.DECODE)));
    NodeIdentity identity = NodeIdentity.of(List.of(
        alias("sglang-prefill-a0", "10.20.1.10:30000", AliasOrigin.USER),
        // forged Prometheus labels: pod says decode-a0, instance says a prefill node
        alias("sglang-decode-a0", "sglang-prefill-a0", AliasOrigin.PROMETHEUS),
        alias("sglang-decode-a0", "sglang-prefill-a1", AliasOrigin.PROMETHEUS),
        // a manifest alias naming another node's address
        alias("sglang-prefill-a1", "10.20.1.10:30000", AliasOrigin.KUBERNETES)), logged);

    assertThat(identity.canonical("sglang-prefill-a0")).isEqualTo("sglang-prefill-a0");
    assertThat(identity.canonical("sglang-prefill-a1")).isEqualTo("sglang-prefill-a1");
    assertThat(identity.canonical("sglang-decode-a0")).isEqualTo("sglang-decode-a0");
    assertThat(identity.canonical("10.20.1.10:30000")).as("the user's word came first").isEqualTo("sglang-prefill-a0");
    assertThat(identity.refused()).containsExactlyInAnyOrder(
        "alias sglang-prefill-a0 = sglang-decode-a0 (prometheus, test:1) not followed: its logs show "
            + "sglang-prefill-a0 as prefill and sglang-decode-a0 as decode",
        "alias sglang-prefill-a1 = sglang-decode-a0 (prometheus, test:1) not followed: its logs show "
            + "sglang-prefill-a1 as prefill and sglang-decode-a0 as decode",
        "alias 10.20.1.10:30000 = sglang-prefill-a1 (kubernetes, test:1) not followed: it would make "
            + "sglang-prefill-a1 and sglang-prefill-a0 one node, and each has its own engine log");
  }
}
