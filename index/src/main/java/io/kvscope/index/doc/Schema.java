package io.kvscope.index.doc;

import io.kvscope.ingest.record.CanonicalField;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;

/**
 * The index schema, in one place. Every document has a {@link #DOC_TYPE} and a stable {@link #ID};
 * the other fields depend on the type. Names are the canonical snake_case names of the records, so
 * {@code kvscope search 'tenant:acme AND prompt_tokens:[681280 TO *]'} reads like the report.
 *
 * <p>Field kinds decide how a field is indexed:
 * <ul>
 *   <li>{@link Kind#KEYWORD}: exact term + sorted-set doc values (fast joins and facets) + stored;
 *   <li>{@link Kind#LONG}/{@link Kind#DOUBLE}: points (range queries) + doc values + stored;
 *   <li>{@link Kind#TEXT}: analyzed for full-text search and stored (compressed by the codec) for
 *       display and span verification.
 * </ul>
 */
public final class Schema {

  /** How a field is indexed. */
  public enum Kind { KEYWORD, LONG, DOUBLE, TEXT }

  /** One field: its name, kind, and what it means. */
  public record Field(String name, Kind kind, String meaning) {}

  /** Document types. */
  public static final String TYPE_REQUEST = "request";
  /** One record of a request made of several, kept as read (see {@code join.RequestMerger}). */
  public static final String TYPE_REQUEST_SOURCE = "request_source";
  /** A text of a merged request its kept text does not hold (see {@code join.RequestMerger}). */
  public static final String TYPE_TEXT_COPY = "text_copy";
  public static final String TYPE_ENGINE_EVENT = "engine_event";
  public static final String TYPE_EPOCH = "epoch";
  public static final String TYPE_NODE_HOUR = "node_hour";
  public static final String TYPE_CHECKPOINT = "checkpoint";
  public static final String TYPE_NODE_CLOCK = "node_clock";
  public static final String TYPE_NODE_ALIAS = "node_alias";
  public static final String TYPE_VERSION_RECORD = "version_record";

  public static final String DOC_TYPE = "doc_type";
  public static final String ID = "_id";

  // Canonical request record: names, kinds and meanings come from CanonicalField. Engine events reuse
  // engine_rid, bootstrap_room and the source fields so that one terms walk over engine_rid sees both
  // sides of a request.
  public static final String REQUEST_ID = CanonicalField.REQUEST_ID.column();
  public static final String ENGINE_RID = CanonicalField.ENGINE_RID.column();
  public static final String TENANT = CanonicalField.TENANT.column();
  public static final String MODEL = CanonicalField.MODEL.column();
  public static final String DEPLOYMENT = CanonicalField.DEPLOYMENT.column();
  public static final String PREFILL_NODE = CanonicalField.PREFILL_NODE.column();
  public static final String DECODE_NODE = CanonicalField.DECODE_NODE.column();
  public static final String BOOTSTRAP_ROOM = CanonicalField.BOOTSTRAP_ROOM.column();
  public static final String START_TIME = CanonicalField.START_TIME.column();
  public static final String FIRST_TOKEN_TIME = CanonicalField.FIRST_TOKEN_TIME.column();
  public static final String END_TIME = CanonicalField.END_TIME.column();
  public static final String STATUS_CODE = CanonicalField.STATUS_CODE.column();
  public static final String FINISH_REASON = CanonicalField.FINISH_REASON.column();
  public static final String PROMPT_TOKENS = CanonicalField.PROMPT_TOKENS.column();
  public static final String PROMPT_CHARS = CanonicalField.PROMPT_CHARS.column();
  public static final String CACHED_TOKENS = CanonicalField.CACHED_TOKENS.column();
  public static final String COMPLETION_TOKENS = CanonicalField.COMPLETION_TOKENS.column();
  public static final String ENGINE_INPUT_LEN = CanonicalField.ENGINE_INPUT_LEN.column();
  public static final String PROMPT_TEXT = CanonicalField.PROMPT_TEXT.column();
  public static final String RESPONSE_TEXT = CanonicalField.RESPONSE_TEXT.column();
  public static final String SOURCE_FILE = CanonicalField.SOURCE_FILE.column();
  public static final String SOURCE_LINE = CanonicalField.SOURCE_LINE.column();

  // Who wrote a request record, the other ids it is known by, what an error quoted.
  public static final String ORIGIN = "origin";
  public static final String ALIAS = "alias";
  public static final String QUOTED_PROMPT_TOKENS = "quoted_prompt_tokens";
  public static final String QUOTED_LIMIT_TOKENS = "quoted_limit_tokens";

  // Merging the records of one request (see RequestMerger).
  public static final String REQUEST_KEY = "request_key";
  public static final String PENDING_KEY = "pending_key";
  public static final String MERGED_RECORDS = "merged_records";
  public static final String MERGE_SOURCE = "merge_source";
  public static final String MERGE_CONFLICT = "merge_conflict";
  public static final String MERGE_CONFLICTS = "merge_conflicts";
  public static final String TEXT_IN_REQUEST = "text_in_request";
  public static final String COPY_OF = "copy_of";
  public static final String COPY_TEXT = "copy_text";
  public static final String COPY_SOURCE = "copy_source";
  public static final String COPY_KEPT_FROM = "copy_kept_from";
  public static final String COPY_OUTRANKED = "copy_outranked";

  // Identifiers extracted at index time (see io.kvscope.model.identifiers): "category:value" terms.
  public static final String IDENT_PROMPT = "ident_prompt";
  public static final String IDENT_RESPONSE = "ident_response";

  // Joined engine facts on request documents (written by the Linker).
  public static final String TTFT_MS = "ttft_ms";
  public static final String ENGINE_EVENTS = "engine_events";
  public static final String REJECTED = "rejected";
  public static final String REQUESTED_LEN = "requested_len";
  public static final String REJECTION_LIMIT = "rejection_limit";
  public static final String TRANSFER_MB = "transfer_mb";
  public static final String TRANSFER_FAILURES = "transfer_failures";
  public static final String CANARY_VIOLATIONS = "canary_violations";
  public static final String CHECKSUM_MISMATCHES = "checksum_mismatches";
  public static final String AMBIGUOUS_ROOM = "ambiguous_room";
  public static final String AMBIGUOUS_ROOM_RIDS = "ambiguous_room_rids";
  public static final String AMBIGUOUS_ROOM_REQUESTS = "ambiguous_room_requests";
  public static final String PREFILL_POOL_TOKENS = "prefill_pool_tokens";
  public static final String PREFILL_CONTEXT_LENGTH = "prefill_context_length";
  public static final String DECODE_POOL_TOKENS = "decode_pool_tokens";
  public static final String DECODE_CONTEXT_LENGTH = "decode_context_length";
  public static final String ENGINE_VERSION = "engine_version";
  public static final String LINK_SIGNATURE = "link_signature";
  /** The record fields a link filled from the engine logs, where the gateway had none. */
  public static final String ENGINE_FILLED = "engine_filled";

  // Engine events.
  public static final String KIND = "kind";
  public static final String NODE = "node";
  public static final String ROLE = "role";
  public static final String TIME = "time";
  public static final String INPUT_LEN = "input_len";
  public static final String LIMIT = "limit";
  public static final String CACHED_LEN = "cached_len";
  public static final String OUTPUT_LEN = "output_len";
  public static final String TRANSFER_MS = "transfer_ms";
  public static final String E2E_LATENCY_MS = "e2e_latency_ms";
  public static final String DETAIL = "detail";
  public static final String JOIN_ROOM = "join_room";
  public static final String BOOTSTRAP_HOST = "bootstrap_host";

  // Config epochs.
  public static final String POOL_TOKENS = "pool_tokens";
  public static final String CONTEXT_LENGTH = "context_length";
  public static final String PAGE_SIZE = "page_size";
  public static final String SERVED_MODEL_NAME = "served_model_name";
  public static final String TRANSFER_BACKEND = "transfer_backend";
  public static final String KV_CANARY = "kv_canary";
  public static final String KV_CHECKSUM = "kv_checksum";
  public static final String DEFERRED_RELEASE = "deferred_release";
  public static final String SOURCE = "source";

  // Node aliases (their other name is in ALIAS) and deployment version records.
  public static final String ALIAS_ORIGIN = "alias_origin";
  public static final String ENGINE = "engine";
  public static final String IMAGE = "image";
  public static final String WORKLOAD = "workload";
  public static final String VALID_FROM = "valid_from";
  public static final String VALID_TO = "valid_to";
  public static final String VERSION_ORIGIN = "version_origin";

  // Node clocks (written by the Linker).
  public static final String SKEW_MS = "skew_ms";

  // Node activity.
  public static final String HOUR_START = "hour_start";
  public static final String LINES = "lines";

  // File checkpoints.
  public static final String PATH = "path";
  public static final String SIZE = "size";
  public static final String MODIFIED = "modified";
  public static final String HEAD_HASH = "head_hash";
  public static final String FORMAT = "format";
  public static final String LINES_DONE = "lines_done";
  public static final String COMPLETE = "complete";
  public static final String RECORDS = "records";
  public static final String BAD_RECORDS = "bad_records";
  public static final String SHA256 = "sha256";

  /** Every field with its kind and meaning: the schema's documentation and the query parser's guide. */
  public static final List<Field> FIELDS = Stream.of(List.of(
      f(DOC_TYPE, Kind.KEYWORD, "document type: request, request_source, text_copy, engine_event, epoch, node_hour, node_clock, "
          + "node_alias, version_record, checkpoint"),
      f(ID, Kind.KEYWORD, "stable identity; re-ingesting the same record replaces, never adds")),
      request(CanonicalField.REQUEST_ID, CanonicalField.RESPONSE_TEXT), List.of(
      f(IDENT_PROMPT, Kind.KEYWORD, "identifiers in the prompt (a request's or a prompt copy's), as category:value (indexed only)"),
      f(IDENT_RESPONSE, Kind.KEYWORD, "identifiers in the response, as category:value (indexed only)")),
      request(CanonicalField.SOURCE_FILE, CanonicalField.SOURCE_LINE), List.of(
      f(ORIGIN, Kind.KEYWORD, "who wrote the record: GATEWAY or TRACE (a merged request: the highest)"),
      f(ALIAS, Kind.KEYWORD, "another name of what the document is about: a request's other ids, as kind:value "
          + "(trace_id:..., litellm_call_id:..., request_id:...); a node_alias's other name of the node (address, pod "
          + "name, scrape target, bootstrap host)"),
      f(QUOTED_PROMPT_TOKENS, Kind.LONG, "prompt length an error returned to the client quoted (over-length rejections)"),
      f(QUOTED_LIMIT_TOKENS, Kind.LONG, "limit an error returned to the client quoted (context length or max input)"),
      f(REQUEST_KEY, Kind.KEYWORD, "what the records of one request share: engine rid, else request id"),
      f(PENDING_KEY, Kind.KEYWORD, "request_key of a record not yet merged with the others of its request"),
      f(MERGED_RECORDS, Kind.LONG, "records merged into this request (absent: one record)"),
      f(MERGE_SOURCE, Kind.KEYWORD, "each merged record as origin file:line"),
      f(MERGE_CONFLICT, Kind.KEYWORD, "a disagreement between merged records: field, kept and other value, where"),
      f(MERGE_CONFLICTS, Kind.LONG, "how many disagreements the merge found"),
      f(TEXT_IN_REQUEST, Kind.KEYWORD, "request_source (stored as source.*): texts equal to the request's, stored there only"),
      f(COPY_OF, Kind.KEYWORD, "text_copy: which text of its request it is a copy of (prompt_text or response_text)"),
      f(COPY_TEXT, Kind.TEXT, "text_copy: the copy's text (stored; a prompt copy's words are indexed under prompt_text, so it holds passages for its request)"),
      f(COPY_SOURCE, Kind.KEYWORD, "text_copy: the record it was read from, as origin file:line"),
      f(COPY_KEPT_FROM, Kind.KEYWORD, "text_copy: the record the request's kept text was read from"),
      f(COPY_OUTRANKED, Kind.KEYWORD, "text_copy: true when its record ranks below the kept text's (a trace's copy)"),
      f(TTFT_MS, Kind.LONG, "time to first token (ms)"),
      f(ENGINE_EVENTS, Kind.LONG, "engine log events joined to this request (by rid, the prefill side through the bootstrap room)"),
      f(REJECTED, Kind.LONG, "1 when an engine logged an over-length rejection for this request"),
      f(REQUESTED_LEN, Kind.LONG, "prompt length the rejection quoted"),
      f(REJECTION_LIMIT, Kind.LONG, "limit the rejection quoted"),
      f(TRANSFER_MB, Kind.DOUBLE, "KV data transferred prefill -> decode (MB)"),
      f(TRANSFER_FAILURES, Kind.LONG, "bootstrap/transfer failures logged for this request"),
      f(CANARY_VIOLATIONS, Kind.LONG, "kv canary violations logged for this request"),
      f(CHECKSUM_MISMATCHES, Kind.LONG, "KV checksum mismatches logged for this request"),
      f(AMBIGUOUS_ROOM, Kind.LONG, "a bootstrap room its lines name that named no one pair (the smallest of several)"),
      f(AMBIGUOUS_ROOM_RIDS, Kind.LONG, "rids logged with that room, the request's own included (10 means 10 or more)"),
      f(AMBIGUOUS_ROOM_REQUESTS, Kind.LONG, "of the room's other rids, those another request claims as its own"),
      f(PREFILL_POOL_TOKENS, Kind.LONG, "KV pool of the prefill node's epoch at the time"),
      f(PREFILL_CONTEXT_LENGTH, Kind.LONG, "context length of the prefill node's epoch"),
      f(DECODE_POOL_TOKENS, Kind.LONG, "KV pool of the decode node's epoch at the time"),
      f(DECODE_CONTEXT_LENGTH, Kind.LONG, "context length of the decode node's epoch"),
      f(ENGINE_VERSION, Kind.KEYWORD, "engine version of the serving epoch"),
      f(LINK_SIGNATURE, Kind.KEYWORD, "hash of the joined facts (skip unchanged rewrites)"),
      f(ENGINE_FILLED, Kind.KEYWORD, "record fields the engine logs filled where the gateway had none (a re-link starts without them)"),
      f(KIND, Kind.KEYWORD, "engine event kind (RECEIVED, FINISHED, TIME_STATS, REJECTED, ...)"),
      f(NODE, Kind.KEYWORD, "engine node"),
      f(ROLE, Kind.KEYWORD, "PREFILL, DECODE, UNIFIED or UNKNOWN"),
      f(TIME, Kind.LONG, "engine event time (node clock, UTC ms)"),
      f(INPUT_LEN, Kind.LONG, "tokens prefilled per the event"),
      f(LIMIT, Kind.LONG, "limit a rejection quoted"),
      f(CACHED_LEN, Kind.LONG, "cached tokens per the event"),
      f(OUTPUT_LEN, Kind.LONG, "output tokens per the event"),
      f(TRANSFER_MS, Kind.DOUBLE, "KV transfer duration (ms)"),
      f(E2E_LATENCY_MS, Kind.DOUBLE, "engine end-to-end latency (ms)"),
      f(DETAIL, Kind.KEYWORD, "the log line's own words for faults and rejections"),
      f(JOIN_ROOM, Kind.KEYWORD, "an engine event's bootstrap room as an exact term: joins a prefill rid to its request"),
      f(BOOTSTRAP_HOST, Kind.KEYWORD, "prefill peer a PD request named (SGLang bootstrap_host)"),
      f(POOL_TOKENS, Kind.LONG, "KV pool size in tokens"),
      f(CONTEXT_LENGTH, Kind.LONG, "context length"),
      f(PAGE_SIZE, Kind.LONG, "KV page size in tokens"),
      f(SERVED_MODEL_NAME, Kind.KEYWORD, "served model name"),
      f(TRANSFER_BACKEND, Kind.KEYWORD, "disaggregation transfer backend"),
      f(KV_CANARY, Kind.KEYWORD, "kv canary enabled (true/false)"),
      f(KV_CHECKSUM, Kind.KEYWORD, "KV checksum enabled (true/false)"),
      f(DEFERRED_RELEASE, Kind.KEYWORD, "deferred KV release enabled (true/false)"),
      f(SOURCE, Kind.KEYWORD, "evidence an epoch came from: sglang-log, vllm-log, prometheus, prometheus-file-time"),
      f(ALIAS_ORIGIN, Kind.KEYWORD, "where an alias was learned: USER, ENGINE_ARGS, KUBERNETES, SERVER_INFO, "
          + "PROMETHEUS, BOOTSTRAP_HOST"),
      f(ENGINE, Kind.KEYWORD, "engine a version record names: sglang or vllm"),
      f(IMAGE, Kind.KEYWORD, "container image a version was read from"),
      f(WORKLOAD, Kind.KEYWORD, "true when a version record covers a workload's pods"),
      f(VALID_FROM, Kind.LONG, "start of what a version record covers (UTC ms, wall clock)"),
      f(VALID_TO, Kind.LONG, "end of what a version record covers (UTC ms, wall clock)"),
      f(VERSION_ORIGIN, Kind.KEYWORD, "kind of deployment record: MANIFEST, POD_STATUS, POD_SPEC, "
          + "WORKLOAD_TEMPLATE, SERVER_INFO"),
      f(SKEW_MS, Kind.LONG, "node clock minus gateway clock (ms), learned from joined requests"),
      f(HOUR_START, Kind.LONG, "UTC hour a node_hour counts"),
      f(LINES, Kind.LONG, "log lines the node wrote in that hour"),
      f(PATH, Kind.KEYWORD, "checkpointed file (absolute path)"),
      f(SIZE, Kind.LONG, "file size at checkpoint"),
      f(MODIFIED, Kind.LONG, "file modification time at checkpoint"),
      f(HEAD_HASH, Kind.KEYWORD, "hash of the file's first bytes at checkpoint"),
      f(FORMAT, Kind.KEYWORD, "format the file was read as"),
      f(LINES_DONE, Kind.LONG, "lines of the file committed"),
      f(COMPLETE, Kind.KEYWORD, "true once the whole file is committed"),
      f(RECORDS, Kind.LONG, "records read from the file"),
      f(BAD_RECORDS, Kind.LONG, "bad records (lines) of the file, quarantined"),
      f(SHA256, Kind.KEYWORD, "SHA-256 of the file's bytes, taken as it was read")))
      .flatMap(List::stream).toList();

  private static final Map<String, Field> BY_NAME =
      FIELDS.stream().collect(Collectors.toMap(Field::name, Function.identity(), (a, b) -> a));

  private Schema() {}

  private static Field f(String name, Kind kind, String meaning) {
    return new Field(name, kind, meaning);
  }

  /** The request-record fields {@code from} to {@code to}, in the table's order. */
  private static List<Field> request(CanonicalField from, CanonicalField to) {
    return EnumSet.range(from, to).stream().map(c -> f(c.column(), kindOf(c), c.meaning())).toList();
  }

  /** How a request-record field is indexed: a number is a long, a short string a keyword. */
  public static Kind kindOf(CanonicalField field) {
    return switch (field.type()) {
      case STRING -> Kind.KEYWORD;
      case TEXT -> Kind.TEXT;
      case LONG, INT, TIME -> Kind.LONG;
    };
  }

  /** The kind of {@code field}, or {@link Kind#TEXT} for names outside the schema. */
  public static Kind kindOf(String field) {
    Field spec = BY_NAME.get(field);
    return spec == null ? Kind.TEXT : spec.kind();
  }

  public static boolean isKnown(String field) {
    return BY_NAME.containsKey(field);
  }

  /** Fields holding a UTC time in epoch milliseconds. */
  public static boolean isTime(String field) {
    return field.endsWith("_time") || field.equals(TIME) || field.equals(HOUR_START);
  }

  /** Full-text fields: what a bare word in a query searches. */
  public static final List<String> TEXT_FIELDS = List.of(PROMPT_TEXT, RESPONSE_TEXT);

  /**
   * Cuts text fields into the leak model's words ({@link WordTokens}) and leaves keyword fields
   * whole, so that a query for {@code tenant:Acme-Corp} matches exactly what was indexed.
   */
  public static Analyzer analyzer() {
    Map<String, Analyzer> perField = FIELDS.stream()
        .filter(field -> field.kind() == Kind.TEXT)
        .collect(Collectors.toMap(Field::name, field -> WordTokens.analyzer()));
    return new PerFieldAnalyzerWrapper(new KeywordAnalyzer(), perField);
  }
}
