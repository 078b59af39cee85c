package io.kvscope.ingest.merge;

import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.Provenance;
import io.kvscope.ingest.record.RecordOrigin;
import io.kvscope.ingest.record.RequestRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The merge rules, field by field, in one place ({@code docs/formats.md}, "Merging records of one
 * request", says the same in words). Every field is a <em>claim</em> decided by the same order of
 * precedence, except where a line below says otherwise:
 *
 * <ol>
 *   <li>the highest {@link RecordOrigin} that has a value wins: the gateway over a trace;
 *   <li>among records of that origin, the value most of them give;
 *   <li>then a fixed tie-break per field (counts: the largest; names and ids: the smallest).
 * </ol>
 *
 * <table>
 *   <caption>Fields decided otherwise</caption>
 *   <tr><td>prompt and response text</td><td>the longest text of the highest origin that agrees with
 *       that origin's longest (one is a prefix or suffix of the other); every other text the kept one
 *       does not hold (another text, or a longer one) is a conflict and a {@link TextCopy}</td></tr>
 *   <tr><td>start and end time</td><td>from one record: the top-ranked one that has a start</td></tr>
 *   <tr><td>first token time</td><td>the shortest time to first token any record measured (on its own
 *       clock), added to the start above</td></tr>
 *   <tr><td>prompt chars</td><td>the length of the kept prompt text, when there is one</td></tr>
 *   <tr><td>aliases</td><td>every id of every record, the request ids that lost included</td></tr>
 *   <tr><td>source file and line</td><td>of the record whose request id won</td></tr>
 * </table>
 *
 * <p>Disagreements on the tenant, engine rid, status, finish reason, token counts and texts are
 * conflicts: kept in the result's {@link Provenance} with the losing value and where it came from.
 * Model and deployment names are not compared (a gateway names the model group, a trace the model
 * it asked for), nor are times (each vantage point has its own clock).
 */
final class MergeRules {

  /** The same records always come in the same order, whatever order they were read in. */
  private static final Comparator<RequestRecord> ORDER = Comparator
      .comparingInt((RequestRecord r) -> -rank(r))
      .thenComparing(RequestRecord::sourceFile, Comparator.nullsLast(Comparator.naturalOrder()))
      .thenComparingLong(RequestRecord::sourceLine)
      .thenComparing(RequestRecord::requestId);

  private static final int MAX_ALIASES = 64;
  private static final int MAX_QUOTED_CHARS = 64;
  /** Distinct other texts kept per field: a request claimed by a flood of forged copies stays small. */
  static final int MAX_COPIES = 8;

  private MergeRules() {}

  static RequestRecord merge(List<RequestRecord> records) {
    List<RequestRecord> ordered = records.stream().sorted(ORDER).toList();
    List<String> conflicts = new ArrayList<>();

    Claim<String> requestId = claim(ordered, RequestRecord::requestId, Comparator.naturalOrder());
    Claim<String> engineRid = claim(ordered, RequestRecord::engineRid, Comparator.naturalOrder());
    Claim<String> tenant = claim(ordered, RequestRecord::tenant, Comparator.naturalOrder());
    Claim<Integer> status = claim(ordered, RequestRecord::statusCode, Comparator.naturalOrder());
    Claim<String> finish = claim(ordered, RequestRecord::finishReason, Comparator.naturalOrder());
    Claim<Long> promptTokens = claim(ordered, RequestRecord::promptTokens, Comparator.reverseOrder());
    Claim<Long> completionTokens = claim(ordered, RequestRecord::completionTokens, Comparator.reverseOrder());
    Claim<Long> cachedTokens = claim(ordered, RequestRecord::cachedTokens, Comparator.reverseOrder());
    conflicts(conflicts, "engine_rid", ordered, RequestRecord::engineRid, engineRid);
    conflicts(conflicts, "tenant", ordered, RequestRecord::tenant, tenant);
    conflicts(conflicts, "status_code", ordered, RequestRecord::statusCode, status);
    conflicts(conflicts, "finish_reason", ordered, RequestRecord::finishReason, finish);
    conflicts(conflicts, "prompt_tokens", ordered, RequestRecord::promptTokens, promptTokens);
    conflicts(conflicts, "completion_tokens", ordered, RequestRecord::completionTokens, completionTokens);
    conflicts(conflicts, "cached_tokens", ordered, RequestRecord::cachedTokens, cachedTokens);
    String prompt = text(conflicts, "prompt_text", ordered, RequestRecord::promptText);
    String response = text(conflicts, "response_text", ordered, RequestRecord::responseText);

    RequestRecord timing = ordered.stream().filter(r -> r.startTime() != null)
        .min(Comparator.comparingInt((RequestRecord r) -> -rank(r)).thenComparing(RequestRecord::startTime)
            .thenComparing(ORDER))
        .orElse(null);
    Long start = timing == null ? null : timing.startTime();
    Long end = timing != null && timing.endTime() != null ? timing.endTime()
        : value(claim(ordered, RequestRecord::endTime, Comparator.reverseOrder()));
    Long ttft = ordered.stream().map(RequestRecord::ttftMillis).filter(t -> t != null && t >= 0)
        .min(Long::compare).orElse(null);
    Long firstToken = start != null ? (ttft == null ? null : start + ttft)
        : value(claim(ordered, RequestRecord::firstTokenTime, Comparator.naturalOrder()));

    RequestRecord lead = requestId.from();
    return RequestRecord.builder(requestId.value())
        .engineRid(engineRid.value())
        .tenant(tenant.value())
        .model(value(claim(ordered, RequestRecord::model, Comparator.naturalOrder())))
        .deployment(value(claim(ordered, RequestRecord::deployment, Comparator.naturalOrder())))
        .prefillNode(value(claim(ordered, RequestRecord::prefillNode, Comparator.naturalOrder())))
        .decodeNode(value(claim(ordered, RequestRecord::decodeNode, Comparator.naturalOrder())))
        .bootstrapRoom(value(claim(ordered, RequestRecord::bootstrapRoom, Comparator.naturalOrder())))
        .startTime(start)
        .firstTokenTime(firstToken)
        .endTime(end)
        .statusCode(status.value())
        .finishReason(finish.value())
        .promptTokens(promptTokens.value())
        .promptChars(prompt != null ? Long.valueOf(prompt.length())
            : value(claim(ordered, RequestRecord::promptChars, Comparator.reverseOrder())))
        .cachedTokens(cachedTokens.value())
        .completionTokens(completionTokens.value())
        .engineInputLen(value(claim(ordered, RequestRecord::engineInputLen, Comparator.naturalOrder())))
        .promptText(prompt)
        .responseText(response)
        .sourceFile(lead.sourceFile())
        .sourceLine(lead.sourceLine())
        .origin(ordered.getFirst().origin())
        .aliases(aliases(ordered, requestId.value()))
        .quotedPromptTokens(value(claim(ordered, RequestRecord::quotedPromptTokens, Comparator.reverseOrder())))
        .quotedLimitTokens(value(claim(ordered, RequestRecord::quotedLimitTokens, Comparator.naturalOrder())))
        .provenance(new Provenance(records.size(), ordered.stream().map(MergeRules::where).toList(), conflicts,
            conflicts.size()))
        .build();
  }

  /** A value and the first record (in {@link #ORDER}) that gave it; both null when none did. */
  private record Claim<T>(T value, RequestRecord from) {}

  private static <T> T value(Claim<T> claim) {
    return claim.value();
  }

  /**
   * The claim rule: the highest origin with a value, then the value most of its records give, then
   * the first value in {@code tieBreak}.
   */
  private static <T> Claim<T> claim(List<RequestRecord> ordered, Function<RequestRecord, T> field,
      Comparator<? super T> tieBreak) {
    Integer topRank = null;
    Map<T, Integer> votes = new LinkedHashMap<>();
    Map<T, RequestRecord> firstFrom = new LinkedHashMap<>();
    for (RequestRecord record : ordered) {
      T value = field.apply(record);
      if (value == null) {
        continue;
      }
      if (topRank == null) {
        topRank = rank(record);
      } else if (rank(record) < topRank) {
        break; // ordered by rank: the rest rank lower
      }
      votes.merge(value, 1, Integer::sum);
      firstFrom.putIfAbsent(value, record);
    }
    if (votes.isEmpty()) {
      return new Claim<>(null, ordered.getFirst());
    }
    T best = votes.entrySet().stream()
        .max(Comparator.<Map.Entry<T, Integer>>comparingInt(Map.Entry::getValue)
            .thenComparing(Map.Entry::getKey, tieBreak.reversed()))
        .orElseThrow().getKey();
    return new Claim<>(best, firstFrom.get(best));
  }

  /** One conflict line per value other than the kept one, naming where it came from. */
  private static <T> void conflicts(List<String> out, String field, List<RequestRecord> ordered,
      Function<RequestRecord, T> value, Claim<T> kept) {
    if (kept.value() == null) {
      return;
    }
    Map<T, RequestRecord> others = new LinkedHashMap<>();
    for (RequestRecord record : ordered) {
      T v = value.apply(record);
      if (v != null && !v.equals(kept.value())) {
        others.putIfAbsent(v, record);
      }
    }
    others.forEach((v, record) -> out.add(field + ": kept " + describe(kept.value()) + " (" + where(kept.from())
        + "), also " + describe(v) + " (" + where(record) + ")"));
  }

  /**
   * The text rule: among the records of the highest origin that has a text, start from the longest
   * and keep the longest of that origin that agrees with it. A record of a lower origin never
   * replaces or extends it (a trace may be written by the client: its longer copy of an earlier
   * reply would plant text there). Every distinct text the kept one does not hold, of any origin,
   * is a copy kept beside it ({@link TextCopy}), at most {@value #MAX_COPIES} a field.
   *
   * @return the kept record and one record per other text, in {@link #ORDER}; null when no record has the text
   */
  private static TextClaim textClaim(List<RequestRecord> ordered, Function<RequestRecord, String> text) {
    List<RequestRecord> candidates = ordered.stream().filter(r -> text.apply(r) != null).toList();
    if (candidates.isEmpty()) {
      return null;
    }
    int top = rank(candidates.getFirst());
    Comparator<RequestRecord> longestFirst = Comparator
        .comparingInt((RequestRecord r) -> -text.apply(r).length())
        .thenComparing(text, Comparator.naturalOrder())
        .thenComparing(ORDER);
    List<RequestRecord> topRank = candidates.stream().filter(r -> rank(r) == top).toList();
    String primaryText = text.apply(topRank.stream().min(longestFirst).orElseThrow());
    RequestRecord kept = topRank.stream().filter(r -> agree(text.apply(r), primaryText)).min(longestFirst).orElseThrow();
    String keptText = text.apply(kept);
    Map<String, RequestRecord> others = new LinkedHashMap<>();
    for (RequestRecord record : candidates) {
      String other = text.apply(record);
      if (!holds(keptText, other) && (others.containsKey(other) || others.size() < MAX_COPIES)) {
        others.putIfAbsent(other, record);
      }
    }
    return new TextClaim(kept, keptText, List.copyOf(others.values()));
  }

  /** The kept text of a field, the record it came from and the records of every other text. */
  private record TextClaim(RequestRecord kept, String keptText, List<RequestRecord> others) {}

  /** The kept text, and a conflict line for every copy it does not hold. */
  private static String text(List<String> conflicts, String field, List<RequestRecord> ordered,
      Function<RequestRecord, String> text) {
    TextClaim claim = textClaim(ordered, text);
    if (claim == null) {
      return null;
    }
    for (RequestRecord record : claim.others()) {
      String other = text.apply(record);
      conflicts.add(field + ": kept " + chars(claim.keptText()) + " (" + where(claim.kept()) + "), also " + chars(other)
          + (agree(other, claim.keptText()) ? " that goes on past it (" : " that is not part of it (") + where(record)
          + ")");
    }
    return claim.keptText();
  }

  /** The copies of the prompt and the reply the kept texts do not hold (see {@link #textClaim}). */
  static List<TextCopy> copies(List<RequestRecord> records) {
    List<RequestRecord> ordered = records.stream().sorted(ORDER).toList();
    List<TextCopy> copies = new ArrayList<>();
    for (CanonicalField field : List.of(CanonicalField.PROMPT_TEXT, CanonicalField.RESPONSE_TEXT)) {
      Function<RequestRecord, String> text = r -> (String) field.get(r);
      TextClaim claim = textClaim(ordered, text);
      if (claim != null) {
        claim.others().forEach(r -> copies.add(new TextCopy(field.column(), text.apply(r), where(r), where(claim.kept()),
            rank(r) < rank(claim.kept()))));
      }
    }
    return copies;
  }

  /** True when {@code kept} holds {@code other} whole: equal, or its start or its end. */
  private static boolean holds(String kept, String other) {
    return kept.startsWith(other) || kept.endsWith(other);
  }

  /** Two copies of one text: equal, or one the start or the end of the other (a cut or a last message). */
  static boolean agree(String a, String b) {
    String longer = a.length() >= b.length() ? a : b;
    String shorter = longer == a ? b : a;
    return longer.startsWith(shorter) || longer.endsWith(shorter);
  }

  /** Every id of every record except the one kept as request_id, each as {@code kind:value}. */
  private static List<String> aliases(List<RequestRecord> ordered, String requestId) {
    TreeSet<String> aliases = new TreeSet<>();
    for (RequestRecord record : ordered) {
      aliases.addAll(record.aliases());
      if (!record.requestId().equals(requestId)) {
        aliases.add("request_id:" + record.requestId());
      }
    }
    return aliases.stream().limit(MAX_ALIASES).toList();
  }

  private static int rank(RequestRecord record) {
    return record.origin() == null ? -1 : record.origin().rank();
  }

  /** {@code gateway gateway/litellm.jsonl:12}. */
  static String where(RequestRecord record) {
    String origin = record.origin() == null ? "unknown" : record.origin().name().toLowerCase(Locale.ROOT);
    return origin + " " + Objects.requireNonNullElse(record.sourceFile(), "?") + ":" + record.sourceLine();
  }

  private static String describe(Object value) {
    if (value instanceof String s) {
      return "'" + (s.length() > MAX_QUOTED_CHARS ? s.substring(0, MAX_QUOTED_CHARS) + "..." : s) + "'";
    }
    return String.valueOf(value);
  }

  private static String chars(String text) {
    return String.format(Locale.ROOT, "%,d chars", text.length());
  }
}
