package io.kvscope.gui.view;

import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.gui.data.StoredRequest;
import io.kvscope.analysis.report.TraceLinks;
import io.kvscope.model.join.EngineFacts;
import io.kvscope.index.store.Redaction;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The engine facts of a finding's request and of one of its sources, side by side: which node and
 * config epoch served it, what the gateway said vs what the engine prefilled, and the time to first
 * token vs what the analyzer expected. Text appears only as length and hash.
 */
public final class RequestFacts {

  private RequestFacts() {}

  public static List<FactRow> rows(Finding finding, StoredRequest recipient, StoredRequest source, Redaction redaction) {
    List<FactRow> rows = new ArrayList<>();
    add(rows, "Request", recipient, source, r -> r.record().requestId(), false);
    add(rows, "Tenant", recipient, source, r -> r.record().tenant(), false);
    add(rows, "Start", recipient, source, r -> Formats.millis(r.record().startTime()), false);
    add(rows, "Status", recipient, source, r -> status(r.record()), false);
    add(rows, "Prefill node", recipient, source, r -> r.facts().prefillNode() != null ? r.facts().prefillNode()
        : r.record().prefillNode(), false);
    add(rows, "Decode node", recipient, source, r -> r.facts().decodeNode() != null ? r.facts().decodeNode()
        : r.record().decodeNode(), false);
    add(rows, "Prefill pool / context", recipient, source, r -> epoch(r.facts().prefillEpoch()),
        poolBelowContext(recipient == null ? null : recipient.facts().prefillEpoch()));
    add(rows, "Decode pool / context", recipient, source, r -> epoch(r.facts().decodeEpoch()),
        poolBelowContext(recipient == null ? null : recipient.facts().decodeEpoch()));
    add(rows, "Engine version", recipient, source, r -> version(r.facts()), false);
    add(rows, "Prompt tokens", recipient, source, r -> Formats.count(r.record().promptTokens()), false);
    add(rows, "Prompt chars", recipient, source, r -> Formats.count(r.record().promptChars()), false);
    add(rows, "Engine input length", recipient, source, r -> Formats.count(r.record().engineInputLen()),
        recipient != null && underrun(recipient.record()));
    add(rows, "Cached tokens", recipient, source, r -> Formats.count(r.record().cachedTokens()), false);
    add(rows, "Rejected by engine", recipient, source, RequestFacts::rejection,
        recipient != null && recipient.facts().rejected() && recipient.record().succeeded());
    add(rows, "KV transferred", recipient, source, r -> r.facts().transferMb() == null ? "-"
        : String.format(Locale.ROOT, "%.1f MB", r.facts().transferMb()), false);
    add(rows, "TTFT observed", recipient, source, r -> r.record().ttftMillis() == null ? "-"
        : Formats.count(r.record().ttftMillis()) + " ms", false);
    rows.add(new FactRow("TTFT expected", expectedTtft(finding.evidence()), "", false));
    add(rows, "Completion tokens", recipient, source, r -> Formats.count(r.record().completionTokens()), false);
    add(rows, "Prompt", recipient, source, r -> redaction.mask(r.record().promptText()), false);
    add(rows, "Response", recipient, source, r -> redaction.mask(r.record().responseText()), false);
    add(rows, "Trace id", recipient, source, r -> TraceLinks.traceIdOf(r.record().aliases()), false);
    add(rows, "Logged at", recipient, source, r -> r.record().sourceFile() == null ? "-"
        : r.record().sourceFile() + ":" + r.record().sourceLine(), false);
    return rows;
  }

  private static void add(List<FactRow> rows, String fact, StoredRequest recipient, StoredRequest source,
      Function<StoredRequest, String> value, boolean warning) {
    rows.add(new FactRow(fact, recipient == null ? "not in index" : nonNull(value.apply(recipient)),
        source == null ? "" : nonNull(value.apply(source)), warning));
  }

  private static String nonNull(String s) {
    return s == null ? "-" : s;
  }

  private static String status(RequestRecord r) {
    String code = r.statusCode() == null ? "-" : r.statusCode().toString();
    return r.finishReason() == null ? code : code + " (" + r.finishReason() + ")";
  }

  private static String epoch(ConfigEpoch e) {
    if (e == null) {
      return "-";
    }
    if (e.poolTokens() == null || e.contextLength() == null) {
      return Formats.count(e.poolTokens()) + " / " + Formats.count(e.contextLength());
    }
    // The comparison is the point: "681,280 < 1,048,576" reads as the incident's precondition.
    return Formats.count(e.poolTokens()) + (e.poolBelowContext() ? " < " : " \u2265 ") + Formats.count(e.contextLength());
  }

  private static boolean poolBelowContext(ConfigEpoch e) {
    return e != null && e.poolBelowContext();
  }

  private static String version(EngineFacts f) {
    ConfigEpoch e = f.prefillEpoch() != null ? f.prefillEpoch() : f.decodeEpoch();
    return e == null ? "-" : e.engineVersion() == null ? "unknown" : e.engineVersion();
  }

  /** The engine prefilled (far) less than the gateway says the prompt had. */
  private static boolean underrun(RequestRecord r) {
    return r.engineInputLen() != null && r.promptTokens() != null && r.engineInputLen() * 2 < r.promptTokens();
  }

  private static String rejection(StoredRequest r) {
    EngineFacts f = r.facts();
    if (!f.rejected()) {
      return f.events() == 0 ? "no engine logs" : "no";
    }
    return "yes: " + Formats.count(f.requestedLen()) + " > " + Formats.count(f.rejectionLimit()) + " tokens";
  }

  /** The timing analyzer's expected time to first token. */
  static String expectedTtft(Evidence evidence) {
    return evidence instanceof Evidence.Timing t ? Formats.count(t.expectedTtftMs()) + " ms" : "-";
  }
}
