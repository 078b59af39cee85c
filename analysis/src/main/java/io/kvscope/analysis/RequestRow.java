package io.kvscope.analysis;

import io.kvscope.model.finding.Tenants;
import io.kvscope.model.join.EngineFacts;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.RequestRecord;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A request's numbers and names, read from doc values without touching its (large, compressed)
 * text. This is what most analyzers need; text is fetched only for the few that must read it.
 *
 * @param doc the Lucene document number in the reader it came from
 * @param record the request's fields, without its texts, origin, aliases or merge provenance
 * @param facts what the engines logged about it ({@link EngineFacts#NONE} when nothing was joined)
 */
public record RequestRow(int doc, RequestRecord record, EngineFacts facts) {

  /**
   * The longest prompt this request's serving nodes could really hold at the time: the smallest
   * known of their KV pools and context lengths. Null when no engine epoch is known.
   */
  public Long servingLimit() {
    return epochs().flatMap(e -> Stream.of(e.poolTokens(), e.contextLength())).filter(Objects::nonNull)
        .min(Long::compare).orElse(null);
  }

  /** The KV pool of the prefill node's epoch, else of the decode node's. */
  public Long poolTokens() {
    return firstKnown(ConfigEpoch::poolTokens);
  }

  /** The context length of the prefill node's epoch, else of the decode node's. */
  public Long contextLength() {
    return firstKnown(ConfigEpoch::contextLength);
  }

  private Long firstKnown(Function<ConfigEpoch, Long> value) {
    return epochs().map(value).filter(Objects::nonNull).findFirst().orElse(null);
  }

  /** The serving nodes' epochs at the time, prefill first. */
  private Stream<ConfigEpoch> epochs() {
    return Stream.of(facts.prefillEpoch(), facts.decodeEpoch()).filter(Objects::nonNull);
  }

  /** The node that names this request in findings: prefill, else decode. */
  public String servingNode() {
    return record.prefillNode() != null ? record.prefillNode() : record.decodeNode();
  }

  /** Who the request belongs to; requests without a tenant are grouped as {@link Tenants#UNKNOWN}. */
  public String tenantOrUnknown() {
    return Tenants.nameOf(record.tenant());
  }
}
