package io.kvscope.samples.truth;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Maps {@link GroundTruth} to and from {@code truth.json} by hand: the schema is the contract. */
final class TruthJson {

  private static final DateTimeFormatter ISO =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private TruthJson() {}

  static String iso(Instant t) {
    return t == null ? null : ISO.format(t);
  }

  // ---- writing ----

  static void write(GroundTruth t, Path file) throws IOException {
    boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    Files.deleteIfExists(file);
    if (posix) {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      write(t, out);
    }
  }

  static void write(GroundTruth t, OutputStream out) throws IOException {
    DefaultPrettyPrinter pp = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"));
    try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
      g.setPrettyPrinter(pp);
      g.writeStartObject();
      g.writeNumberField("truth_version", t.version());
      GeneratorInfo gi = t.generator();
      g.writeObjectFieldStart("generator");
      g.writeNumberField("seed", gi.seed());
      g.writeStringField("scale", gi.scale());
      g.writeStringField("mode", gi.mode());
      g.writeNumberField("tenants", gi.tenants());
      g.writeNumberField("requests", gi.requests());
      g.writeNumberField("litellm_records", gi.litellmRecords());
      g.writeNumberField("otlp_spans", gi.otlpSpans());
      g.writeNumberField("chars_per_token", Math.round(gi.charsPerToken() * 1000) / 1000.0);
      g.writeNumberField("page_size", gi.pageSize());
      g.writeStringField("fixed_engine_version", gi.fixedEngineVersion());
      g.writeStringField("canary_pattern", gi.canaryPattern());
      g.writeStringField("texts", gi.texts());
      g.writeEndObject();
      g.writeObjectFieldStart("period");
      g.writeStringField("start", iso(t.periodStart()));
      g.writeStringField("end", iso(t.periodEnd()));
      g.writeEndObject();
      g.writeArrayFieldStart("nodes");
      for (NodeTruth n : t.nodes()) {
        g.writeStartObject();
        g.writeStringField("node", n.node());
        g.writeStringField("deployment", n.deployment());
        g.writeStringField("role", n.role());
        g.writeNumberField("clock_skew_ms", n.clockSkewMs());
        g.writeStringField("file", n.file());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("config_epochs");
      for (ConfigEpochTruth c : t.configEpochs()) {
        g.writeStartObject();
        g.writeStringField("node", c.node());
        g.writeStringField("start", iso(c.start()));
        g.writeStringField("cause", c.cause());
        g.writeStringField("engine_version", c.engineVersion());
        g.writeNumberField("context_length", c.contextLength());
        g.writeNumberField("pool_tokens", c.poolTokens());
        g.writeNumberField("page_size", c.pageSize());
        g.writeBooleanField("kv_canary", c.kvCanary());
        g.writeBooleanField("kv_checksum", c.kvChecksum());
        g.writeBooleanField("vulnerable", c.vulnerable());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("windows");
      for (WindowTruth w : t.windows()) {
        g.writeStartObject();
        g.writeStringField("kind", w.kind());
        g.writeStringField("node", w.node());
        g.writeStringField("deployment", w.deployment());
        g.writeStringField("start", iso(w.start()));
        g.writeStringField("end", iso(w.end()));
        g.writeStringField("reason", w.reason());
        g.writeStringField("closed_by", w.closedBy());
        g.writeEndObject();
      }
      g.writeEndArray();
      leaks(g, "leaked_responses", t.leakedResponses());
      leaks(g, "same_tenant_reuse", t.sameTenantReuse());
      g.writeArrayFieldStart("over_length_accepted");
      for (OverLengthTruth o : t.overLengthAccepted()) {
        g.writeStartObject();
        g.writeStringField("request_id", o.requestId());
        g.writeStringField("engine_rid", o.engineRid());
        g.writeStringField("tenant", o.tenant());
        g.writeStringField("deployment", o.deployment());
        g.writeStringField("prefill_node", o.prefillNode());
        g.writeStringField("decode_node", o.decodeNode());
        g.writeStringField("time", iso(o.time()));
        g.writeNumberField("prompt_tokens", o.promptTokens());
        g.writeNumberField("prompt_chars", o.promptChars());
        g.writeNumberField("reported_prompt_tokens", o.reportedPromptTokens());
        g.writeNumberField("effective_limit", o.effectiveLimit());
        g.writeNumberField("status_code", o.statusCode());
        g.writeStringField("leak", o.leak());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("prefill_underruns");
      for (UnderrunTruth u : t.prefillUnderruns()) {
        g.writeStartObject();
        g.writeStringField("request_id", u.requestId());
        g.writeStringField("engine_rid", u.engineRid());
        g.writeStringField("prefill_node", u.prefillNode());
        g.writeStringField("decode_node", u.decodeNode());
        g.writeStringField("time", iso(u.time()));
        g.writeNumberField("prompt_tokens", u.promptTokens());
        g.writeNumberField("engine_input_len", u.engineInputLen());
        g.writeNumberField("reserved_pages", u.reservedPages());
        g.writeNumberField("transferred_pages", u.transferredPages());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("rejected");
      for (RejectionTruth r : t.rejected()) {
        g.writeStartObject();
        g.writeStringField("request_id", r.requestId());
        g.writeStringField("engine_rid", r.engineRid());
        g.writeStringField("tenant", r.tenant());
        g.writeStringField("channel", r.channel());
        g.writeStringField("time", iso(r.time()));
        g.writeNumberField("prompt_tokens", r.promptTokens());
        g.writeNumberField("status_code", r.statusCode());
        g.writeStringField("reason", r.reason());
        g.writeNumberField("limit", r.limit());
        g.writeBooleanField("over_pool", r.overPool());
        g.writeStringField("prefill_node", r.prefillNode());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("coverage_gaps");
      for (GapTruth c : t.coverageGaps()) {
        g.writeStartObject();
        g.writeStringField("node", c.node());
        g.writeStringField("start", iso(c.start()));
        g.writeStringField("end", iso(c.end()));
        g.writeStringField("kind", c.kind());
        g.writeNumberField("dropped_lines", c.droppedLines());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("duplicates");
      for (DuplicateTruth d : t.duplicates()) {
        g.writeStartObject();
        g.writeStringField("file", d.file());
        g.writeStringField("original_file", d.originalFile());
        g.writeStringField("start", iso(d.start()));
        g.writeStringField("end", iso(d.end()));
        g.writeNumberField("lines", d.lines());
        g.writeEndObject();
      }
      g.writeEndArray();
      strings(g, "victim_tenants", t.victimTenants());
      strings(g, "recipient_tenants", t.recipientTenants());
      SummaryTruth s = t.summary();
      g.writeObjectFieldStart("summary");
      g.writeNumberField("leaked_responses", s.leakedResponses());
      g.writeNumberField("source_requests", s.sourceRequests());
      g.writeNumberField("victim_tenants", s.victimTenants());
      g.writeNumberField("recipient_tenants", s.recipientTenants());
      g.writeNumberField("over_length_accepted", s.overLengthAccepted());
      g.writeNumberField("prefill_underruns", s.prefillUnderruns());
      g.writeStringField("first_exposure", iso(s.firstExposure()));
      g.writeStringField("last_exposure", iso(s.lastExposure()));
      g.writeEndObject();
      g.writeArrayFieldStart("files");
      for (FileTruth f : t.files()) {
        g.writeStartObject();
        g.writeStringField("path", f.path());
        g.writeStringField("format", f.format());
        g.writeStringField("codec", f.codec());
        g.writeNumberField("bytes", f.bytes());
        g.writeNumberField("raw_bytes", f.rawBytes());
        g.writeNumberField("lines", f.lines());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
      g.writeRaw('\n');
    }
  }

  private static void strings(JsonGenerator g, String name, List<String> values) throws IOException {
    g.writeArrayFieldStart(name);
    for (String v : values) {
      g.writeString(v);
    }
    g.writeEndArray();
  }

  private static void leaks(JsonGenerator g, String name, List<LeakTruth> leaks) throws IOException {
    g.writeArrayFieldStart(name);
    for (LeakTruth l : leaks) {
      g.writeStartObject();
      g.writeStringField("request_id", l.requestId());
      g.writeStringField("engine_rid", l.engineRid());
      g.writeStringField("tenant", l.tenant());
      g.writeStringField("deployment", l.deployment());
      g.writeStringField("prefill_node", l.prefillNode());
      g.writeStringField("decode_node", l.decodeNode());
      g.writeStringField("time", iso(l.time()));
      g.writeStringField("end_time", iso(l.endTime()));
      g.writeNumberField("prompt_tokens", l.promptTokens());
      g.writeNumberField("reported_prompt_tokens", l.reportedPromptTokens());
      g.writeNumberField("reserved_pages", l.reservedPages());
      g.writeNumberField("stale_pages", l.stalePages());
      g.writeNumberField("stale_owners", l.staleOwners());
      sources(g, "sources", l.sources());
      sources(g, "same_tenant_sources", l.sameTenantSources());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private static void sources(JsonGenerator g, String name, List<SourceTruth> sources) throws IOException {
    g.writeArrayFieldStart(name);
    for (SourceTruth s : sources) {
      g.writeStartObject();
      g.writeStringField("request_id", s.requestId());
      g.writeStringField("engine_rid", s.engineRid());
      g.writeStringField("tenant", s.tenant());
      g.writeStringField("time", iso(s.time()));
      g.writeStringField("part", s.part());
      g.writeStringField("kind", s.kind());
      if (s.category() == null) {
        g.writeNullField("category");
      } else {
        g.writeStringField("category", s.category());
      }
      g.writeNumberField("matched_tokens", s.matchedTokens());
      g.writeNumberField("words", s.words());
      g.writeNumberField("response_start", s.responseStart());
      g.writeNumberField("response_end", s.responseEnd());
      g.writeNumberField("source_message_index", s.sourceMessageIndex());
      g.writeNumberField("source_start", s.sourceStart());
      g.writeNumberField("source_end", s.sourceEnd());
      g.writeArrayFieldStart("holders");
      for (HolderTruth h : s.holders()) {
        g.writeStartObject();
        g.writeStringField("request_id", h.requestId());
        g.writeStringField("tenant", h.tenant());
        g.writeStringField("time", iso(h.time()));
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  // ---- reading ----

  static GroundTruth read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return read(in);
    }
  }

  static GroundTruth read(InputStream in) throws IOException {
    JsonNode root = new ObjectMapper().readTree(in);
    int version = root.path("truth_version").asInt();
    if (version != GroundTruth.VERSION) {
      throw new IOException("unsupported truth_version " + version + " (expected " + GroundTruth.VERSION + ")");
    }
    JsonNode gi = root.path("generator");
    GeneratorInfo generator = new GeneratorInfo(gi.path("seed").asLong(), text(gi, "scale"), text(gi, "mode"),
        gi.path("tenants").asInt(), gi.path("requests").asLong(), gi.path("litellm_records").asLong(),
        gi.path("otlp_spans").asLong(), gi.path("chars_per_token").asDouble(), gi.path("page_size").asInt(),
        text(gi, "fixed_engine_version"), text(gi, "canary_pattern"), text(gi, "texts"));
    JsonNode s = root.path("summary");
    SummaryTruth summary = new SummaryTruth(s.path("leaked_responses").asLong(), s.path("source_requests").asLong(),
        s.path("victim_tenants").asLong(), s.path("recipient_tenants").asLong(),
        s.path("over_length_accepted").asLong(), s.path("prefill_underruns").asLong(),
        time(s, "first_exposure"), time(s, "last_exposure"));
    return new GroundTruth(version, generator, time(root.path("period"), "start"), time(root.path("period"), "end"),
        list(root, "nodes", n -> new NodeTruth(text(n, "node"), text(n, "deployment"), text(n, "role"),
            n.path("clock_skew_ms").asLong(), text(n, "file"))),
        list(root, "config_epochs", c -> new ConfigEpochTruth(text(c, "node"), time(c, "start"), text(c, "cause"),
            text(c, "engine_version"), c.path("context_length").asLong(), c.path("pool_tokens").asLong(),
            c.path("page_size").asInt(), c.path("kv_canary").asBoolean(), c.path("kv_checksum").asBoolean(),
            c.path("vulnerable").asBoolean())),
        list(root, "windows", w -> new WindowTruth(text(w, "kind"), text(w, "node"), text(w, "deployment"),
            time(w, "start"), time(w, "end"), text(w, "reason"), text(w, "closed_by"))),
        list(root, "leaked_responses", TruthJson::leak),
        list(root, "same_tenant_reuse", TruthJson::leak),
        list(root, "over_length_accepted", o -> new OverLengthTruth(text(o, "request_id"), text(o, "engine_rid"),
            text(o, "tenant"), text(o, "deployment"), text(o, "prefill_node"), text(o, "decode_node"),
            time(o, "time"), o.path("prompt_tokens").asLong(), o.path("prompt_chars").asLong(),
            o.path("reported_prompt_tokens").asLong(), o.path("effective_limit").asLong(),
            o.path("status_code").asInt(), text(o, "leak"))),
        list(root, "prefill_underruns", u -> new UnderrunTruth(text(u, "request_id"), text(u, "engine_rid"),
            text(u, "prefill_node"), text(u, "decode_node"), time(u, "time"), u.path("prompt_tokens").asLong(),
            u.path("engine_input_len").asLong(), u.path("reserved_pages").asInt(),
            u.path("transferred_pages").asInt())),
        list(root, "rejected", r -> new RejectionTruth(text(r, "request_id"), text(r, "engine_rid"),
            text(r, "tenant"), text(r, "channel"), time(r, "time"), r.path("prompt_tokens").asLong(),
            r.path("status_code").asInt(), text(r, "reason"), r.path("limit").asLong(),
            r.path("over_pool").asBoolean(), text(r, "prefill_node"))),
        list(root, "coverage_gaps", c -> new GapTruth(text(c, "node"), time(c, "start"), time(c, "end"),
            text(c, "kind"), c.path("dropped_lines").asLong())),
        list(root, "duplicates", d -> new DuplicateTruth(text(d, "file"), text(d, "original_file"),
            time(d, "start"), time(d, "end"), d.path("lines").asInt())),
        list(root, "victim_tenants", JsonNode::asText),
        list(root, "recipient_tenants", JsonNode::asText),
        summary,
        list(root, "files", f -> new FileTruth(text(f, "path"), text(f, "format"), text(f, "codec"),
            f.path("bytes").asLong(), f.path("raw_bytes").asLong(), f.path("lines").asLong())));
  }

  private static LeakTruth leak(JsonNode l) {
    return new LeakTruth(text(l, "request_id"), text(l, "engine_rid"), text(l, "tenant"), text(l, "deployment"),
        text(l, "prefill_node"), text(l, "decode_node"), time(l, "time"), time(l, "end_time"),
        l.path("prompt_tokens").asLong(), l.path("reported_prompt_tokens").asLong(), l.path("reserved_pages").asInt(),
        l.path("stale_pages").asInt(), l.path("stale_owners").asInt(), list(l, "sources", TruthJson::source),
        list(l, "same_tenant_sources", TruthJson::source));
  }

  private static SourceTruth source(JsonNode s) {
    return new SourceTruth(text(s, "request_id"), text(s, "engine_rid"), text(s, "tenant"), time(s, "time"),
        text(s, "part"), text(s, "kind"), text(s, "category"), s.path("matched_tokens").asInt(),
        s.path("words").asInt(), s.path("response_start").asInt(), s.path("response_end").asInt(),
        s.path("source_message_index").asInt(), s.path("source_start").asInt(), s.path("source_end").asInt(),
        list(s, "holders", h -> new HolderTruth(text(h, "request_id"), text(h, "tenant"), time(h, "time"))));
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static Instant time(JsonNode n, String field) {
    String v = text(n, field);
    return v == null ? null : Instant.parse(v);
  }

  private static <T> List<T> list(JsonNode n, String field, Function<JsonNode, T> map) {
    List<T> out = new ArrayList<>();
    for (JsonNode e : n.path(field)) {
      out.add(map.apply(e));
    }
    return out;
  }
}
