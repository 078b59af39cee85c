package io.kvscope.samples.truth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroundTruthJsonTest {

  @Test
  void writesAndReadsBackEveryField(@TempDir Path dir) throws Exception {
    Instant t0 = Instant.parse("2026-08-27T10:00:01.123Z");
    Instant t1 = Instant.parse("2026-08-27T10:00:09.500Z");
    SourceTruth src = new SourceTruth("chatcmpl-aa", "aa", "acme-legal", t0, "prompt", "span", null, 42, 38, 10, 250, 1,
        3, 243, List.of(new HolderTruth("chatcmpl-aa", "acme-legal", t0), new HolderTruth("chatcmpl-bb", "beta", t1)));
    SourceTruth id = new SourceTruth("chatcmpl-cc", "cc", "zeta-health", t0, "prompt", "identifier", "email", 1, 1, 300,
        330, 0, 17, 47, List.of(new HolderTruth("chatcmpl-cc", "zeta-health", t0)));
    LeakTruth leak = new LeakTruth("chatcmpl-dd", "dd", "bulk-finance", "pd-a", "sglang-prefill-a0",
        "sglang-decode-a1", t1, t1.plusSeconds(5), 700_000, 1, 11_000, 900, 7, List.of(src, id), List.of());
    GroundTruth truth = new GroundTruth(GroundTruth.VERSION,
        new GeneratorInfo(7, "small", "incident", 60, 4000, 3500, 500, 5.6, 64, "0.5.22", "KVCANARY-[0-9A-F]{16}",
            "corpus dev-corpus.jsonl.zst"),
        Instant.parse("2026-08-20T00:00:00Z"), Instant.parse("2026-09-15T00:00:00Z"),
        List.of(new NodeTruth("sglang-decode-b1", "pd-b", "decode", 41_730, "engine/sglang-decode-b1.log")),
        List.of(new ConfigEpochTruth("sglang-prefill-a0", t0, "config-change", "0.5.19", 1_048_576, 681_280, 64,
            false, false, true)),
        List.of(new WindowTruth("vulnerable", "sglang-prefill-a0", "pd-a", t0, t1, "pool < context", "upgrade")),
        List.of(leak), List.of(),
        List.of(new OverLengthTruth("chatcmpl-dd", "dd", "bulk-finance", "pd-a", "sglang-prefill-a0",
            "sglang-decode-a1", t1, 700_000, 3_900_000, 1, 681_280, 200, "cross_tenant")),
        List.of(new UnderrunTruth("chatcmpl-dd", "dd", "sglang-prefill-a0", "sglang-decode-a1", t1, 700_000, 1,
            11_000, 1)),
        List.of(new RejectionTruth("6f6a709c", "ee", "bulk-finance", "litellm", t0, 900_000, 400, "context_length",
            262_144, true, "sglang-prefill-b0")),
        List.of(new GapTruth("sglang-prefill-a0", t0, t1, "engine_log_missing", 28)),
        List.of(new DuplicateTruth("gateway/b.jsonl", "gateway/a.jsonl", t0, t1, 9)),
        List.of("acme-legal", "zeta-health"), List.of("bulk-finance"),
        new SummaryTruth(1, 2, 2, 1, 1, 1, t1, t1),
        List.of(new FileTruth("gateway/a.jsonl", "litellm-jsonl", "plain", 10, 10, 1)));
    Path file = dir.resolve("truth.json");
    truth.write(file);
    assertThat(GroundTruth.load(file)).isEqualTo(truth);
    assertThat(Files.readString(file)).contains("\"first_exposure\" : \"2026-08-27T10:00:09.500Z\"");
    assertThat(truth.sourceRequestIds()).containsExactly("chatcmpl-aa", "chatcmpl-cc");
    assertThat(src.soleHolder()).isFalse();
    assertThat(id.soleHolder()).isTrue();
  }
}
