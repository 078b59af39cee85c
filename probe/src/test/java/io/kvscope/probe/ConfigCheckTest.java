package io.kvscope.probe;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.probe.config.CheckResult;
import io.kvscope.probe.config.ConfigCheck;
import io.kvscope.probe.config.FactName;
import io.kvscope.probe.config.FetchRecord;
import io.kvscope.probe.config.NodeReport;
import io.kvscope.probe.config.Observation;
import io.kvscope.probe.enginedouble.DoubleConfig;
import io.kvscope.probe.enginedouble.EngineDouble;
import java.net.ServerSocket;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** The live config check against the double's prefill and decode servers. */
class ConfigCheckTest {

  @Test
  void poolBelowContextIsReportedFromServerInfoAndMetricsWithTheRawValues() throws Exception {
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.BUGGY))) {
      ProbeOptions.Builder b = DoubleProbes.against(d);
      b.configOnly = true;
      ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);

      NodeReport prefill = r.nodes().get(0);
      CheckResult pool = prefill.check(ConfigCheck.POOL_VS_CONTEXT);
      assertThat(pool.verdict()).isEqualTo(CheckResult.Verdict.FAILED);
      assertThat(pool.observed()).isEqualTo("8192 < 16384");
      assertThat(pool.exploitable()).isTrue();
      assertThat(prefill.fact(FactName.POOL_TOKENS).observed()).extracting(Observation::source, Observation::raw)
          .contains(org.assertj.core.groups.Tuple.tuple("GET /server_info", "8192"),
              org.assertj.core.groups.Tuple.tuple("GET /metrics", "8192"));
      assertThat(prefill.fact(FactName.CONTEXT_LENGTH).observed()).extracting(Observation::source)
          .contains("GET /v1/models", "GET /metrics");
      assertThat(prefill.findings()).extracting(f -> f.kind().id())
          .contains("config_pool_below_context", "config_unpatched_engine", "config_missing_safeguard");

      // The decode server only has the older paths: the probe falls back and says so.
      NodeReport decode = r.nodes().get(1);
      assertThat(decode.fetches()).extracting(FetchRecord::path, FetchRecord::status)
          .startsWith(org.assertj.core.groups.Tuple.tuple("/server_info", 404), org.assertj.core.groups.Tuple.tuple("/get_server_info", 200));
      assertThat(decode.check(ConfigCheck.POOL_VS_CONTEXT).verdict()).isEqualTo(CheckResult.Verdict.OK);

      assertThat(r.outcome()).isEqualTo(Outcome.FAIL);
      assertThat(r.canary()).isNull();
      assertThat(d.generationRequests()).isZero();
    }
  }

  @Test
  void onAFixedReleaseTheSamePoolIsAWarningNotAFailure() throws Exception {
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.FIXED))) {
      ProbeOptions.Builder b = DoubleProbes.against(d);
      b.configOnly = true;
      ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);
      assertThat(r.nodes().get(0).check(ConfigCheck.POOL_VS_CONTEXT).exploitable()).isFalse();
      assertThat(r.nodes().get(0).check(ConfigCheck.KV_CANARY).verdict()).isEqualTo(CheckResult.Verdict.OK);
      assertThat(r.outcome()).isEqualTo(Outcome.PASS);

      b.fixedVersion = "0.6.0"; // a later fix the operator requires
      assertThat(Probe.run(b.build(), ProbeListener.NONE).outcome()).isEqualTo(Outcome.FAIL);
    }
  }

  @Test
  void aNodeThatIsNotThereMakesAConfigOnlyRunUnableToConclude() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    ProbeOptions.Builder b = ProbeOptions.builder(null);
    b.servers.add(new Endpoint("gone", URI.create("http://127.0.0.1:" + closed)));
    b.configOnly = true;
    ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);
    assertThat(r.nodes().get(0).reachable()).isFalse();
    assertThat(r.nodes().get(0).fetches()).hasSize(1); // asked nothing more once refused
    assertThat(r.outcome()).isEqualTo(Outcome.COULD_NOT_RUN);
    assertThat(r.outcome().exitCode()).isEqualTo(2);
  }
}
