package io.kvscope.samples.sim;

import io.kvscope.samples.random.Rng;
import io.kvscope.samples.text.TenantVoices;
import java.util.ArrayList;
import java.util.List;

/** Creates the tenant population: identities, channels, activity weights, bulk and canary users. */
final class Tenants {

  private Tenants() {}

  static List<Tenant> create(long seed, int count) {
    int combos = TenantVoices.combinations();
    if (count < 8 || count > combos) {
      throw new IllegalArgumentException("tenant count must be 8.." + combos + ", was " + count);
    }
    Rng rng = Rng.derive(seed, Rng.key("tenants"));
    List<Tenant> out = new ArrayList<>(count);
    boolean[] used = new boolean[combos];
    int bulkCount = Math.max(4, count / 10);
    int canaryCount = Math.max(3, count / 12);
    for (int i = 0; i < count; i++) {
      int combo;
      do {
        combo = rng.nextInt(combos);
      } while (used[combo]);
      used[combo] = true;
      TenantVoices.Made made = TenantVoices.make(i, combo, rng);
      double u = rng.nextDouble();
      Channel channel = u < 0.72 ? Channel.LITELLM_ORG : u < 0.85 ? Channel.LITELLM_END_USER : Channel.OTLP;
      // Activity follows a Zipf-like law over a random rank.
      double weight = 1.0 / StrictMath.pow(1 + rng.nextInt(count), 0.9);
      boolean bulk = i < bulkCount;
      boolean canary = i >= bulkCount && i < bulkCount + canaryCount;
      if (bulk) {
        // Tenants who paste whole archives are heavy users in general.
        weight = Math.max(weight, 0.3);
      }
      if (canary) {
        // Security-minded customers who seed canaries are large accounts.
        weight = Math.max(weight, 0.2);
      }
      String team = "team-" + made.prefix() + "-" + rng.hex(4);
      String service = rng.chance(0.5) ? "agent-gateway" : "batch-runner";
      String ip = "10.64." + rng.nextInt(250) + "." + (1 + rng.nextInt(250));
      out.add(new Tenant(i, made.id(), made.voice(), channel, weight, bulk, canary, team,
          made.prefix() + "-prod", rng.hex(64), "svc-" + made.prefix(), ip, service, made.systemPrompt()));
    }
    return out;
  }
}
