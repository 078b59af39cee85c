package io.kvscope.gui.model;

import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.Source;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.TenantImpact;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Recounts tenant impact for a selection of findings with the report's definitions: only counted
 * cross-tenant leaks (confirmed or probable, source tenant other than the recipient), requests and
 * responses counted once however many findings name them, and a (response, source) pair's tokens
 * counted once (its largest attribution) when several findings cover the same pair.
 */
public final class ImpactTally {

  /** Shown for a source whose tenant the logs did not resolve. */
  public static final String UNKNOWN_TENANT = "(unknown)";

  private ImpactTally() {}

  public static Impact of(List<Finding> findings) {
    Map<Pair, Long> tokensByPair = new HashMap<>();
    Map<Pair, String[]> tenantsByPair = new HashMap<>();
    for (Finding f : findings) {
      if (!f.isCountedLeak() || f.requestId() == null) {
        continue;
      }
      String recipient = tenantOf(f.tenant());
      for (Source s : f.sources()) {
        String victim = tenantOf(s.tenant());
        if (victim.equals(recipient)) {
          continue;
        }
        Pair pair = new Pair(f.requestId(), s.requestId());
        tokensByPair.merge(pair, s.matchedTokens(), Math::max);
        tenantsByPair.put(pair, new String[] {victim, recipient});
      }
    }

    Map<String, Counts> victims = new TreeMap<>();
    Map<String, Counts> recipients = new TreeMap<>();
    Map<List<String>, Counts> cells = new TreeMap<>(Comparator.comparing((List<String> k) -> k.get(0))
        .thenComparing(k -> k.get(1)));
    tokensByPair.forEach((pair, tokens) -> {
      String[] t = tenantsByPair.get(pair);
      victims.computeIfAbsent(t[0], k -> new Counts()).add(pair.source(), pair.response(), tokens);
      recipients.computeIfAbsent(t[1], k -> new Counts()).add(pair.response(), pair.source(), tokens);
      cells.computeIfAbsent(List.of(t[0], t[1]), k -> new Counts()).add(pair.response(), pair.source(), tokens);
    });

    Set<String> names = new java.util.TreeSet<>(victims.keySet());
    names.addAll(recipients.keySet());
    List<TenantImpact> tenants = new ArrayList<>();
    for (String name : names) {
      Counts v = victims.getOrDefault(name, new Counts());
      Counts r = recipients.getOrDefault(name, new Counts());
      tenants.add(new TenantImpact(name,
          new TenantImpact.AsVictim(v.own.size(), v.other.size(), v.tokens),
          new TenantImpact.AsRecipient(r.own.size(), r.other.size(), r.tokens)));
    }
    List<MatrixCell> matrix = new ArrayList<>();
    cells.forEach((key, c) -> matrix.add(new MatrixCell(key.get(0), key.get(1), c.own.size(), c.tokens)));
    return new Impact(tenants, matrix);
  }

  private static String tenantOf(String tenant) {
    return Objects.requireNonNullElse(tenant, UNKNOWN_TENANT);
  }

  private record Pair(String response, String source) {}

  /** Distinct ids on the tenant's own side, on the other side, and tokens. */
  private static final class Counts {
    final Set<String> own = new HashSet<>();
    final Set<String> other = new HashSet<>();
    long tokens;

    void add(String ownId, String otherId, long pairTokens) {
      own.add(ownId);
      other.add(otherId);
      tokens += pairTokens;
    }
  }
}
