package io.kvscope.probe.canary;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.identifiers.CanaryMarker;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PromptTextTest {

  @Test
  void everyPageWorthOfThePromptHoldsAMarkerAndTheLengthIsAsAsked() {
    MarkerLedger ledger = new MarkerLedger(new Markers("RUNTAG01", new SplittableRandom(1)));
    PromptText.Built p = PromptText.build("fill-01", "RUNTAG01", 20_000, CanaryRun.DENSE_MARKER_EVERY, ledger, 42);
    assertThat(p.text().length()).isBetween(19_900, 20_100);
    assertThat(p.markers()).isEqualTo(Markers.find(p.text()).size()).isEqualTo(ledger.issued());
    assertThat(ledger.classify("fill-01", p.text())).allMatch(c -> c.match() == MarkerLedger.Match.OWN);
    // Any window of twice the spacing (a 64-token page is 256 characters) sees a marker begin.
    String body = p.text().substring(p.text().indexOf('\n') + 1, p.text().lastIndexOf('\n'));
    for (int at = 0; at + 2 * CanaryRun.DENSE_MARKER_EVERY + 40 < body.length(); at += 97) {
      assertThat(body.substring(at, at + 2 * CanaryRun.DENSE_MARKER_EVERY + 40)).contains(CanaryMarker.PREFIX);
    }
    assertThat(p.text()).containsOnlyOnce("kvscope probe run RUNTAG01, request fill-01");
  }

  @Test
  void twoPromptsShareNoTextPastTheirHeadSoNoPrefixCacheServesOneFromTheOther() {
    MarkerLedger ledger = new MarkerLedger(new Markers("RUNTAG01", new SplittableRandom(1)));
    String a = PromptText.build("x", "RUNTAG01", 2_000, 160, ledger, 1).text();
    String b = PromptText.build("x", "RUNTAG01", 2_000, 160, ledger, 2).text();
    int common = 0;
    while (common < Math.min(a.length(), b.length()) && a.charAt(common) == b.charAt(common)) {
      common++;
    }
    assertThat(common).isLessThan(a.indexOf('\n') + 1 + CanaryMarker.PREFIX.length() + Markers.TAG_CHARS + 1);
  }
}
