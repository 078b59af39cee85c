package io.kvscope.ingest.record;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReleaseNumberTest {

  @Test
  void releasesOfAnySizeAreReadableAndOtherTextsAreNot() {
    for (String release : new String[] {"0.5.21", "v0.5.22", "99999999999999999999.1", "0.4.6.post1", "0.5.22rc1",
        "0.6.0.dev3", "0.10.1+cu126"}) {
      assertThat(ReleaseNumber.readable(release)).as(release).isTrue();
    }
    for (String text : new String[] {"0.5.x", "latest", "1.2.3 evil", "v", "", "1".repeat(201)}) {
      assertThat(ReleaseNumber.readable(text)).as(text).isFalse();
    }
  }

  @Test
  void aTextAskedAgainIsJudgedTheSameAsTheFirstTime() {
    for (String text : new String[] {"0.5.19", " 0.5.19 ", "0.5.x", "0.5.19-evil!", "V0.5.19", "1".repeat(200)}) {
      boolean first = ReleaseNumber.readable(text);
      for (int again = 0; again < 3; again++) {
        assertThat(ReleaseNumber.readable(text)).as(text).isEqualTo(first);
      }
    }
    assertThat(ReleaseNumber.readable(" 0.5.19 ")).isTrue(); // surrounding blanks are not part of the text judged
    assertThat(ReleaseNumber.readable("0.5.19-evil!")).isFalse();
  }

  @Test
  void anEpochWhoseVersionIsNoReleaseHasAnUnknownVersionAndSaysWhatTheTextWas() {
    ConfigEpoch epoch = new ConfigEpoch("n", NodeRole.UNIFIED, 0, 100L, 200L, null, "0.5.\u001b[2J", null, null, null,
        null, null, null, "vllm-log", "vllm.log", 3);

    assertThat(epoch.versionKnown()).isFalse();
    assertThat(epoch.versionSource().describe())
        .contains("version \"0.5.\\x1b[2J\" is not a release number: unknown").contains("vllm.log:3")
        .doesNotContain("\u001b");
    ConfigEpoch claimed = epoch.withVersion("banana", new VersionSource(VersionOrigin.MANIFEST, null, "m.csv", 2));
    assertThat(claimed.versionKnown()).isFalse();
    assertThat(claimed.versionSource().describe()).contains("\"banana\"").contains("m.csv:2");
  }
}
