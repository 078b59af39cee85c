package io.kvscope.probe;

import io.kvscope.probe.enginedouble.EngineDouble;
import java.time.Duration;

/** Probe options aimed at an engine double, fast enough for the unit test suite. */
final class DoubleProbes {

  private DoubleProbes() {}

  static ProbeOptions.Builder against(EngineDouble d) {
    ProbeOptions.Builder b = ProbeOptions.builder(d.routerUri());
    b.servers.add(new Endpoint("prefill-0", d.prefillUri()));
    b.servers.add(new Endpoint("decode-0", d.decodeUri()));
    b.fillRequests = 8;
    b.normalRequests = 4;
    b.overLengthRequests = 2;
    b.ratePerSecond = ProbeOptions.HARD_RATE;
    b.requestTimeout = Duration.ofSeconds(20);
    return b;
  }
}
