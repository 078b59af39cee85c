package io.kvscope.analysis.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.databind.util.StdConverter;
import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.impact.Window;
import io.kvscope.ingest.json.IsoInstantDeserializer;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * How report.json maps to the records of {@code analysis.impact} and {@code analysis.finding}: a
 * record's components in snake_case, in declaration order unless a mix-in below says otherwise
 * (the file's order predates some components); enums by their {@code id()}; instants as
 * {@link Instant#toString()}.
 */
final class ReportMapping {

  static final ObjectMapper MAPPER = mapper();

  private ReportMapping() {}

  private static ObjectMapper mapper() {
    return JsonMapper.builder()
        .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .addMixIn(Report.class, ReportMixIn.class)
        .addMixIn(Summary.class, SummaryMixIn.class)
        .addMixIn(MatrixCell.class, MatrixCellMixIn.class)
        .addMixIn(TenantImpact.AsVictim.class, AsVictimMixIn.class)
        .addMixIn(TenantImpact.AsRecipient.class, AsRecipientMixIn.class)
        .addMixIn(Finding.class, FindingMixIn.class)
        .addMixIn(Source.class, SourceMixIn.class)
        .addMixIn(FindingKind.class, IdMixIn.class)
        .addMixIn(Confidence.class, IdMixIn.class)
        .addMixIn(Attribution.class, IdMixIn.class)
        .addMixIn(Window.Kind.class, IdMixIn.class)
        .addModule(new SimpleModule()
            .addSerializer(Instant.class, ToStringSerializer.instance)
            .addDeserializer(Instant.class, new IsoInstantDeserializer())
            .setDeserializerModifier(new Before11()))
        // Absent arrays and objects read as empty, as the records do not take null for them.
        .withConfigOverride(List.class, o -> o.setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY)))
        .withConfigOverride(Map.class, o -> o.setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY)))
        // A newer 1.x writer may add fields.
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        // The file is flushed once, at its end, not after each finding.
        .disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE)
        .build();
  }

  private abstract static class ReportMixIn {
    @JsonSerialize(using = SortedValues.class)
    abstract Map<String, Long> dataCategories();

    @JsonSerialize(using = SortedValues.class)
    @JsonDeserialize(contentUsing = ReadValue.class)
    @JsonSetter(contentNulls = Nulls.SKIP) // a report's parameters hold no null
    abstract Map<String, Object> parameters();
  }

  @JsonPropertyOrder({"leaked_responses", "leaked_responses_own_tenant_also_held", "source_requests",
      "source_requests_possible", "victim_tenants", "victim_tenants_possible"})
  private interface SummaryMixIn {}

  @JsonPropertyOrder({"source_tenant", "recipient_tenant", "responses", "responses_possible"})
  private interface MatrixCellMixIn {}

  @JsonPropertyOrder({"requests", "requests_possible", "recipients", "recipients_possible", "tokens"})
  private interface AsVictimMixIn {}

  @JsonPropertyOrder({"responses", "sources", "sources_possible"})
  private interface AsRecipientMixIn {}

  @JsonDeserialize(converter = TypedEvidence.class)
  private abstract static class FindingMixIn {
    @JsonSerialize(using = EvidenceValues.class)
    @JsonDeserialize(using = ReadOther.class)
    abstract Evidence evidence();

    @JsonIgnore
    abstract boolean isCountedLeak();
  }

  @JsonPropertyOrder({"request_id", "engine_rid", "tenant", "matched_tokens", "attribution"})
  private interface SourceMixIn {}

  private abstract static class IdMixIn {
    @JsonValue
    abstract String id();
  }

  /** Evidence key by key, in the file's order, as JSON-ready values (a record's as the report reads it back). */
  static Map<String, Object> fields(Evidence evidence) {
    return evidence instanceof Evidence.Other other ? other.fields() : JsonValues.readObject(MAPPER.valueToTree(evidence));
  }

  /**
   * Evidence as {@link JsonValues} writes its fields (an Integer as a long, NaN as null, in order);
   * through the run's {@link RenderedEvidence} when the writer carries one as an attribute.
   */
  private static final class EvidenceValues extends JsonSerializer<Evidence> {
    @Override
    public void serialize(Evidence value, JsonGenerator g, SerializerProvider provider) throws IOException {
      JsonValues.write(g, provider.getAttribute(RenderedEvidence.class) instanceof RenderedEvidence run ? run.fields(value) : fields(value));
    }
  }

  /** Evidence as it stands in the file; {@link TypedEvidence} then reads it as its kind's record. */
  private static final class ReadOther extends StdDeserializer<Evidence> {
    ReadOther() {
      super(Evidence.class);
    }

    @Override
    public Evidence deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      return new Evidence.Other(JsonValues.readObject(ctxt.readTree(p)));
    }
  }

  /**
   * A finding's evidence as the record its kind writes, when that record writes back exactly what
   * was read; else as read (a plug-in's evidence, or a shape this version does not write).
   */
  private static final class TypedEvidence extends StdConverter<Finding, Finding> {
    @Override
    public Finding convert(Finding f) {
      if (!(f.evidence() instanceof Evidence.Other read)) {
        return f;
      }
      try {
        Evidence typed = MAPPER.convertValue(read.fields(), recordOf(f.kind()));
        return JsonValues.compact(fields(typed)).equals(JsonValues.compact(read.fields())) ? f.withEvidence(typed) : f;
      } catch (IllegalArgumentException e) {
        return f;
      }
    }

    private static Class<? extends Evidence> recordOf(FindingKind kind) {
      return switch (kind) {
        case CROSS_TENANT_OVERLAP, SAME_TENANT_REUSE -> Evidence.Overlap.class;
        case RARE_IDENTIFIER_LEAK, CANARY_LEAK -> Evidence.Identifier.class; // kvscope probe's canary leaks stay as read
        case OVER_LENGTH_ACCEPTED -> Evidence.OverLength.class;
        case PREFILL_UNDERRUN -> Evidence.Underrun.class;
        case TIMING_ANOMALY -> Evidence.Timing.class;
        case CONFIG_POOL_BELOW_CONTEXT, CONFIG_UNPATCHED_ENGINE, CONFIG_ENGINE_VERSION_UNKNOWN,
            CONFIG_MISSING_SAFEGUARD -> Evidence.Config.class;
      };
    }
  }

  /** Parameters and data categories: as {@link Values}, keys sorted so the same run prints the same. */
  private static final class SortedValues extends JsonSerializer<Map<String, ?>> {
    @Override
    public void serialize(Map<String, ?> value, JsonGenerator g, SerializerProvider provider) throws IOException {
      JsonValues.writeSorted(g, value);
    }
  }

  /** A free-form value as {@link JsonValues} reads it: integers as Long (BigInteger past it), decimals as Double. */
  private static final class ReadValue extends StdDeserializer<Object> {
    ReadValue() {
      super(Object.class);
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      return JsonValues.read(ctxt.readTree(p));
    }
  }

  /**
   * Reports before 1.1 named every source as certain: a source without an attribution is
   * {@code sole}, and a count without its {@code _possible} twin has the twin's value.
   */
  private static final class Before11 extends BeanDeserializerModifier {
    private static final String POSSIBLE = "_possible";

    @Override
    public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription bean,
        JsonDeserializer<?> deserializer) {
      List<String> possibleCounts = bean.findProperties().stream().map(BeanPropertyDefinition::getName)
          .filter(name -> name.endsWith(POSSIBLE)).toList();
      boolean source = bean.getBeanClass() == Source.class;
      return possibleCounts.isEmpty() && !source ? deserializer : new Defaults(deserializer, possibleCounts, source);
    }

    private static final class Defaults extends DelegatingDeserializer {
      private final List<String> possibleCounts;
      private final boolean source;

      Defaults(JsonDeserializer<?> delegate, List<String> possibleCounts, boolean source) {
        super(delegate);
        this.possibleCounts = possibleCounts;
        this.source = source;
      }

      @Override
      protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
        return new Defaults(delegate, possibleCounts, source);
      }

      @Override
      public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        JsonNode node = ctxt.readTree(p);
        if (node instanceof ObjectNode object) {
          for (String possible : possibleCounts) {
            if (!object.has(possible)) {
              object.set(possible, object.get(possible.substring(0, possible.length() - POSSIBLE.length())));
            }
          }
          if (source && !object.hasNonNull("attribution")) {
            object.put("attribution", Attribution.SOLE.id());
          }
        }
        try (JsonParser tree = node.traverse(p.getCodec())) {
          tree.nextToken();
          return _delegatee.deserialize(tree, ctxt);
        }
      }
    }
  }
}
