package io.kvscope.index.doc;

import io.kvscope.model.join.EngineFacts;
import io.kvscope.model.join.EngineFill;
import static io.kvscope.index.doc.Schema.*;

import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.NodeActivity;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.merge.RequestMerge;
import io.kvscope.ingest.merge.TextCopy;
import io.kvscope.ingest.record.Provenance;
import io.kvscope.ingest.record.RecordOrigin;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.ingest.record.VersionOrigin;
import io.kvscope.ingest.record.VersionRecord;
import io.kvscope.ingest.record.VersionSource;
import io.kvscope.model.join.RoomRule;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoubleField;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.Field.Store;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.LongField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import io.kvscope.model.fingerprint.FingerprintConfig;
import io.kvscope.model.fingerprint.Fingerprinter;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.index.fingerprint.FingerprintFields;
import io.kvscope.model.identifiers.Identifier;
import io.kvscope.model.identifiers.IdentifierExtractor;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.StoredFields;

/**
 * Turns ingested values into Lucene documents under {@link Schema}, and documents back into
 * values. Each document's {@link Schema#ID} is derived from its content, so writing the same record
 * twice (a re-run, a resumed file) replaces rather than adds.
 *
 * <p>A request record read from a file is identified by where it was read ({@code o:}), never by
 * its request id alone: two files never replace each other's records. Records of one request share
 * a {@link Schema#REQUEST_KEY}; the {@code join.RequestMerger} turns them into one request document
 * ({@code r:}) and keeps each as a {@link Schema#TYPE_REQUEST_SOURCE} document ({@code s:}).
 */
public final class Documents {

  private Documents() {}

  /** The document for any ingested value. */
  public static Document of(Ingested item) {
    return switch (item) {
      case RequestRecord r -> request(r);
      case EngineEvent e -> engineEvent(e);
      case ConfigEpoch c -> epoch(c);
      case NodeActivity a -> activity(a);
      case NodeAlias a -> alias(a);
      case VersionRecord v -> versionRecord(v);
    };
  }

  /** The stable identity of a value: equal for duplicates, distinct otherwise. */
  public static String idOf(Ingested item) {
    return switch (item) {
      case RequestRecord r -> requestDocumentId(r);
      case EngineEvent e -> "e:" + e.node() + ":" + (e.bootstrapHost() == null
          ? digest(e.kind(), e.role(), e.rid(), e.bootstrapRoom(), e.time(), e.inputLen(), e.requestedLen(), e.limit(),
              e.cachedLen(), e.outputLen(), e.transferMb(), e.transferMillis(), e.e2eLatencyMillis(), e.finishReason(),
              e.detail())
          : digest(e.kind(), e.role(), e.rid(), e.bootstrapRoom(), e.time(), e.inputLen(), e.requestedLen(), e.limit(),
              e.cachedLen(), e.outputLen(), e.transferMb(), e.transferMillis(), e.e2eLatencyMillis(), e.finishReason(),
              e.detail(), e.bootstrapHost()));
      case ConfigEpoch c -> "c:" + c.node() + ":" + c.start() + ":" + c.source();
      case NodeActivity a -> "h:" + a.node() + ":" + a.hourStart() + ":" + digest(a.sourceFile());
      // A user's alias is one per alias and file: giving it again with another node replaces it.
      case NodeAlias a -> "a:" + (a.origin() == AliasOrigin.USER ? digest(a.origin(), a.alias(), a.sourceFile())
          : digest(a.origin(), a.node(), a.alias()));
      case VersionRecord v -> "v:" + digest(v.node(), v.workload(), v.engine(), v.version(), v.image(), v.from(),
          v.to(), v.origin(), v.sourceFile(), v.sourceLine());
    };
  }

  /** The {@link Schema#DOC_TYPE} of the document for {@code item}. */
  public static String typeOf(Ingested item) {
    return switch (item) {
      case RequestRecord r -> TYPE_REQUEST;
      case EngineEvent e -> TYPE_ENGINE_EVENT;
      case ConfigEpoch c -> TYPE_EPOCH;
      case NodeActivity a -> TYPE_NODE_HOUR;
      case NodeAlias a -> TYPE_NODE_ALIAS;
      case VersionRecord v -> TYPE_VERSION_RECORD;
    };
  }

  /**
   * A cheap key that is equal whenever {@link #idOf} is (it hashes a part of what the id is made
   * of), for spreading documents over writer threads without reordering two that replace one
   * another.
   */
  public static int routeOf(Ingested item) {
    return switch (item) {
      case RequestRecord r -> RequestMerge.keyOf(r).hashCode(); // all records of a request on one writer
      case EngineEvent e -> java.util.Objects.hash(e.node(), e.rid());
      case ConfigEpoch c -> java.util.Objects.hashCode(c.node());
      case NodeActivity a -> java.util.Objects.hashCode(a.node());
      case NodeAlias a -> java.util.Objects.hashCode(a.alias());
      case VersionRecord v -> java.util.Objects.hashCode(v.node());
    };
  }

  /** Chars of text {@code item} holds (prompt and response), for bounding what waits in memory. */
  public static long textChars(Ingested item) {
    if (item instanceof RequestRecord r) {
      return 256L + length(r.promptText()) + length(r.responseText());
    }
    return 256L;
  }

  private static int length(String s) {
    return s == null ? 0 : s.length();
  }

  /**
   * A merged request is its key ({@code r:<key>}); a record as read is the place it was read and
   * the ids it names ({@code o:<digest>}), so that re-reading it replaces it and nothing else does.
   */
  public static String requestDocumentId(RequestRecord r) {
    return r.provenance() != null ? "r:" + RequestMerge.keyOf(r) : "o:" + recordDigest(r);
  }

  /** The {@link Schema#TYPE_REQUEST_SOURCE} document of a record as read: {@code s:<digest>}. */
  static String sourceDocumentId(RequestRecord r) {
    return "s:" + recordDigest(r);
  }

  private static String recordDigest(RequestRecord r) {
    return digest(r.sourceFile(), r.sourceLine(), r.requestId(), r.engineRid());
  }

  public static Document request(RequestRecord r) {
    return request(r, FingerprintFields.Hashes.of(r.promptText(), r.responseText(), new Fingerprinter(FINGERPRINTS)));
  }

  /** {@link #request(RequestRecord)} with the fingerprints of {@code r}'s texts computed before (under {@link #FINGERPRINTS}). */
  public static Document request(RequestRecord r, FingerprintFields.Hashes fingerprints) {
    Document doc = base(TYPE_REQUEST, requestDocumentId(r));
    String key = RequestMerge.keyOf(r);
    keyword(doc, REQUEST_KEY, key);
    if (r.provenance() == null) {
      keyword(doc, PENDING_KEY, key); // a record as read: the merge looks for others of its request
    }
    // The record's fields in the table's order, with what is derived from them in between: stored
    // fields keep the order they were added in, and that is the order search --json prints.
    indexed(doc, r, CanonicalField.REQUEST_ID, CanonicalField.ENGINE_INPUT_LEN);
    number(doc, TTFT_MS, r.ttftMillis());
    text(doc, PROMPT_TEXT, r.promptText(), fingerprints.promptWords());
    text(doc, RESPONSE_TEXT, r.responseText(), fingerprints.responseWords());
    identifiers(doc, IDENT_PROMPT, r.promptText());
    identifiers(doc, IDENT_RESPONSE, r.responseText());
    FingerprintFields.addTo(doc, fingerprints);
    indexed(doc, r, CanonicalField.SOURCE_FILE, CanonicalField.SOURCE_LINE);
    recordContext(doc, r);
    return doc;
  }

  /** The record's fields {@code from} to {@code to}, each indexed as its {@link Schema#kindOf kind} says. */
  private static void indexed(Document doc, RequestRecord r, CanonicalField from, CanonicalField to) {
    for (CanonicalField field : EnumSet.range(from, to)) {
      Object value = field.get(r);
      switch (Schema.kindOf(field)) {
        case KEYWORD -> keyword(doc, field.column(), (String) value);
        case LONG -> number(doc, field.column(), value == null ? null : ((Number) value).longValue());
        case TEXT -> text(doc, field.column(), (String) value);
        case DOUBLE -> throw new IllegalStateException("no request-record field is a double: " + field);
      }
    }
  }

  /** Origin, aliases, quoted error figures and merge provenance: searchable, stored. */
  private static void recordContext(Document doc, RequestRecord r) {
    keyword(doc, ORIGIN, r.origin() == null ? null : r.origin().name());
    r.aliases().forEach(alias -> keyword(doc, ALIAS, alias));
    number(doc, QUOTED_PROMPT_TOKENS, r.quotedPromptTokens());
    number(doc, QUOTED_LIMIT_TOKENS, r.quotedLimitTokens());
    Provenance p = r.provenance();
    if (p != null) {
      number(doc, MERGED_RECORDS, (long) p.records());
      p.sources().forEach(source -> keyword(doc, MERGE_SOURCE, source));
      p.conflicts().forEach(conflict -> keyword(doc, MERGE_CONFLICT, conflict));
      number(doc, MERGE_CONFLICTS, (long) p.conflictCount());
    }
  }

  /**
   * A record of a merged request, kept as read: every field stored under {@link #SOURCE_FIELD}
   * names (a field's index structure must be the same in every document, and these are found
   * through their request, never by a search), only its key indexed. A text equal to
   * {@code request}'s is stored there only and marked here.
   */
  public static Document source(RequestRecord r, RequestRecord request) {
    Document doc = base(TYPE_REQUEST_SOURCE, sourceDocumentId(r));
    keyword(doc, REQUEST_KEY, RequestMerge.keyOf(r));
    for (CanonicalField field : CanonicalField.values()) {
      Object value = field.get(r);
      if (field.type() == CanonicalField.Type.TEXT && value != null && value.equals(field.get(request))) {
        stored(doc, TEXT_IN_REQUEST, field.column());
      } else {
        stored(doc, field.column(), value instanceof Number n ? Long.valueOf(n.longValue()) : value);
      }
    }
    stored(doc, ORIGIN, r.origin() == null ? null : r.origin().name());
    r.aliases().forEach(alias -> stored(doc, ALIAS, alias));
    stored(doc, QUOTED_PROMPT_TOKENS, r.quotedPromptTokens());
    stored(doc, QUOTED_LIMIT_TOKENS, r.quotedLimitTokens());
    return doc;
  }

  /**
   * A text of a merged request that its kept text does not hold ({@code d:<digest>}, under the
   * request's key). A reply copy carries the response fingerprints and identifiers, so the joins
   * find it as a response received; its text is stored only, never indexed for phrase lookups, so
   * it is never found holding a passage: a reply copy is evidence of what a client may have
   * received, never of what another request held. A prompt copy carries the prompt fingerprints,
   * identifiers and its words under {@link Schema#PROMPT_TEXT} (indexed, not stored again): any of a
   * request's logged prompts may be the one it prefilled, so each is found holding a passage or an
   * identifier for its request.
   */
  public static Document textCopy(String requestKey, TextCopy copy) {
    Document doc = base(TYPE_TEXT_COPY, textCopyId(requestKey, copy));
    keyword(doc, REQUEST_KEY, requestKey);
    keyword(doc, COPY_OF, copy.field());
    keyword(doc, COPY_SOURCE, copy.where());
    keyword(doc, COPY_KEPT_FROM, copy.keptFrom());
    flag(doc, COPY_OUTRANKED, copy.outranked());
    doc.add(new StoredField(COPY_TEXT, copy.text()));
    if (copy.isReply()) {
      identifiers(doc, IDENT_RESPONSE, copy.text());
      FingerprintFields.addTo(doc, null, copy.text(), FINGERPRINTS);
    } else {
      doc.add(new Field(PROMPT_TEXT, copy.text(), TEXT_INDEXED));
      identifiers(doc, IDENT_PROMPT, copy.text());
      FingerprintFields.addTo(doc, copy.text(), null, FINGERPRINTS);
    }
    return doc;
  }

  public static String textCopyId(String requestKey, TextCopy copy) {
    return "d:" + digest(requestKey, copy.field(), copy.where());
  }

  /** Prefix of the stored-only fields of a {@link Schema#TYPE_REQUEST_SOURCE} document. */
  static final String SOURCE_FIELD = "source.";

  /**
   * A kept record back as read. A text marked {@link Schema#TEXT_IN_REQUEST} is taken from
   * {@code request}, the merged request's document (null: there is none, and the text stays absent).
   */
  public static RequestRecord readSource(Document source, Document request) {
    List<String> inRequest = List.of(source.getValues(SOURCE_FIELD + TEXT_IN_REQUEST));
    FieldValues stored = FieldValues.of(source);
    return readRecord(source, SOURCE_FIELD, field -> !inRequest.contains(field) ? stored.get(SOURCE_FIELD + field)
        : request == null ? null : Objects.requireNonNull(request.get(field), "merged request lost its " + field))
        .build();
  }

  private static void stored(Document doc, String field, Object value) {
    switch (value) {
      case null -> { }
      case Long number -> doc.add(new StoredField(SOURCE_FIELD + field, number));
      case String text -> doc.add(new StoredField(SOURCE_FIELD + field, text));
      default -> throw new IllegalArgumentException(field + " holds neither a long nor a string: " + value);
    }
  }

  /**
   * A linked request document back as the record its gateway logged: the fields a link filled from
   * the engine logs are left out, so linking it again cannot keep what an earlier, partial join
   * put there (a rid joined before the gateway record that claims it was written).
   */
  public static RequestRecord readGatewayRequest(Document doc) {
    return EngineFill.undo(readRequest(doc), java.util.Set.of(doc.getValues(ENGINE_FILLED)));
  }

  /** A request document back as its record (texts as stored, possibly absent). */
  public static RequestRecord readRequest(Document doc) {
    return readRecord(doc, "", FieldValues.of(doc)).provenance(readProvenance(doc)).build();
  }

  /** The table's fields through {@code values}, and the record's context stored under {@code prefix}. */
  private static RequestRecord.Builder readRecord(Document doc, String prefix, FieldValues values) {
    String origin = doc.get(prefix + ORIGIN);
    return readFields(values).origin(origin == null ? null : RecordOrigin.valueOf(origin))
        .aliases(List.of(doc.getValues(prefix + ALIAS)))
        .quotedPromptTokens(longValue(doc, prefix + QUOTED_PROMPT_TOKENS))
        .quotedLimitTokens(longValue(doc, prefix + QUOTED_LIMIT_TOKENS));
  }

  /** The record's table fields back from a document (texts only where {@code values} hold them). */
  public static RequestRecord.Builder readFields(FieldValues values) {
    RequestRecord.Builder record = new RequestRecord.Builder();
    for (CanonicalField field : CanonicalField.values()) {
      Object value = values.get(field.column());
      field.set(record, field.type() == CanonicalField.Type.INT && value != null ? ((Long) value).intValue() : value);
    }
    return record;
  }

  private static Provenance readProvenance(Document doc) {
    Long records = longValue(doc, MERGED_RECORDS);
    if (records == null) {
      return null;
    }
    Long conflicts = longValue(doc, MERGE_CONFLICTS);
    return new Provenance(records.intValue(), List.of(doc.getValues(MERGE_SOURCE)),
        List.of(doc.getValues(MERGE_CONFLICT)), conflicts == null ? 0 : conflicts.intValue());
  }

  public static Document engineEvent(EngineEvent e) {
    Document doc = base(TYPE_ENGINE_EVENT, idOf(e));
    keyword(doc, KIND, e.kind().name());
    keyword(doc, NODE, e.node());
    keyword(doc, ROLE, e.role().name());
    keyword(doc, ENGINE_RID, e.rid());
    number(doc, BOOTSTRAP_ROOM, e.bootstrapRoom());
    keyword(doc, JOIN_ROOM, e.bootstrapRoom() == null ? null : e.bootstrapRoom().toString());
    number(doc, TIME, e.time());
    number(doc, INPUT_LEN, e.inputLen());
    number(doc, REQUESTED_LEN, e.requestedLen());
    number(doc, LIMIT, e.limit());
    number(doc, CACHED_LEN, e.cachedLen());
    number(doc, OUTPUT_LEN, e.outputLen());
    decimal(doc, TRANSFER_MB, e.transferMb());
    decimal(doc, TRANSFER_MS, e.transferMillis());
    decimal(doc, E2E_LATENCY_MS, e.e2eLatencyMillis());
    keyword(doc, FINISH_REASON, e.finishReason());
    keyword(doc, DETAIL, e.detail());
    keyword(doc, BOOTSTRAP_HOST, e.bootstrapHost());
    keyword(doc, SOURCE_FILE, e.sourceFile());
    number(doc, SOURCE_LINE, e.sourceLine());
    return doc;
  }

  public static EngineEvent readEngineEvent(Document doc) {
    return EngineEventFields.of(doc);
  }

  /** The engine event document {@code doc} of {@code stored}, read without a {@link Document} between. */
  public static EngineEvent readEngineEvent(StoredFields stored, int doc) throws java.io.IOException {
    EngineEventFields fields = new EngineEventFields();
    stored.document(doc, fields);
    return fields.event();
  }

  public static Document epoch(ConfigEpoch c) {
    Document doc = base(TYPE_EPOCH, idOf(c));
    keyword(doc, NODE, c.node());
    keyword(doc, ROLE, c.role().name());
    number(doc, START_TIME, c.start());
    number(doc, POOL_TOKENS, c.poolTokens());
    number(doc, CONTEXT_LENGTH, c.contextLength());
    number(doc, PAGE_SIZE, c.pageSize() == null ? null : c.pageSize().longValue());
    keyword(doc, ENGINE_VERSION, c.engineVersion());
    if (c.engineVersion() == null && c.versionSource() != null && c.versionSource().origin() == VersionOrigin.ENGINE_LOG) {
      keyword(doc, DETAIL, c.versionSource().detail()); // the log named a version that is no release: say which
    }
    keyword(doc, MODEL, c.model());
    keyword(doc, SERVED_MODEL_NAME, c.servedModelName());
    keyword(doc, TRANSFER_BACKEND, c.transferBackend());
    flag(doc, KV_CANARY, c.kvCanary());
    flag(doc, KV_CHECKSUM, c.kvChecksum());
    flag(doc, DEFERRED_RELEASE, c.deferredRelease());
    keyword(doc, SOURCE, c.source());
    keyword(doc, SOURCE_FILE, c.sourceFile());
    number(doc, SOURCE_LINE, c.sourceLine());
    return doc;
  }

  public static ConfigEpoch readEpoch(FieldValues values) {
    Long pageSize = (Long) values.get(PAGE_SIZE);
    ConfigEpoch epoch = new ConfigEpoch(
        (String) values.get(NODE), NodeRole.valueOf((String) values.get(ROLE)), orZero((Long) values.get(START_TIME)),
        (Long) values.get(POOL_TOKENS), (Long) values.get(CONTEXT_LENGTH),
        pageSize == null ? null : pageSize.intValue(), (String) values.get(ENGINE_VERSION), (String) values.get(MODEL),
        (String) values.get(SERVED_MODEL_NAME), (String) values.get(TRANSFER_BACKEND), flagValue(values, KV_CANARY),
        flagValue(values, KV_CHECKSUM), flagValue(values, DEFERRED_RELEASE), (String) values.get(SOURCE),
        (String) values.get(SOURCE_FILE), orZero((Long) values.get(SOURCE_LINE)));
    String detail = (String) values.get(DETAIL);
    return detail == null ? epoch : epoch.withVersion(null, new VersionSource(VersionOrigin.ENGINE_LOG,
        detail, epoch.sourceFile(), epoch.sourceLine()));
  }

  public static Document activity(NodeActivity a) {
    Document doc = base(TYPE_NODE_HOUR, idOf(a));
    keyword(doc, NODE, a.node());
    keyword(doc, ROLE, a.role().name());
    number(doc, HOUR_START, a.hourStart());
    number(doc, LINES, a.lines());
    keyword(doc, SOURCE_FILE, a.sourceFile());
    number(doc, SOURCE_LINE, a.sourceLine());
    return doc;
  }

  public static NodeActivity readActivity(FieldValues values) {
    return new NodeActivity((String) values.get(NODE), NodeRole.valueOf((String) values.get(ROLE)),
        orZero((Long) values.get(HOUR_START)), orZero((Long) values.get(LINES)), (String) values.get(SOURCE_FILE),
        orZero((Long) values.get(SOURCE_LINE)));
  }

  public static Document alias(NodeAlias a) {
    Document doc = base(TYPE_NODE_ALIAS, idOf(a));
    keyword(doc, NODE, a.node());
    keyword(doc, ALIAS, a.alias());
    keyword(doc, ALIAS_ORIGIN, a.origin().name());
    keyword(doc, SOURCE_FILE, a.sourceFile());
    number(doc, SOURCE_LINE, a.sourceLine());
    return doc;
  }

  public static NodeAlias readAlias(FieldValues values) {
    return new NodeAlias((String) values.get(NODE), (String) values.get(ALIAS),
        AliasOrigin.valueOf((String) values.get(ALIAS_ORIGIN)), (String) values.get(SOURCE_FILE),
        orZero((Long) values.get(SOURCE_LINE)));
  }

  public static Document versionRecord(VersionRecord v) {
    Document doc = base(TYPE_VERSION_RECORD, idOf(v));
    keyword(doc, NODE, v.node());
    flag(doc, WORKLOAD, v.workload());
    keyword(doc, ENGINE, v.engine());
    keyword(doc, ENGINE_VERSION, v.version());
    keyword(doc, IMAGE, v.image());
    number(doc, VALID_FROM, v.from());
    number(doc, VALID_TO, v.to());
    keyword(doc, VERSION_ORIGIN, v.origin().name());
    keyword(doc, SOURCE_FILE, v.sourceFile());
    number(doc, SOURCE_LINE, v.sourceLine());
    return doc;
  }

  public static VersionRecord readVersionRecord(FieldValues values) {
    return new VersionRecord((String) values.get(NODE), Boolean.TRUE.equals(flagValue(values, WORKLOAD)),
        (String) values.get(ENGINE), (String) values.get(ENGINE_VERSION), (String) values.get(IMAGE),
        (Long) values.get(VALID_FROM), (Long) values.get(VALID_TO),
        VersionOrigin.valueOf((String) values.get(VERSION_ORIGIN)), (String) values.get(SOURCE_FILE),
        orZero((Long) values.get(SOURCE_LINE)));
  }

  /** A request document with the engine facts joined on (see {@link EngineFill}). */
  public static Document linkedRequest(RequestRecord original, EngineFacts facts) {
    return linkedRequest(original, facts,
        FingerprintFields.Hashes.of(original.promptText(), original.responseText(), new Fingerprinter(FINGERPRINTS)));
  }

  /**
   * {@link #linkedRequest(RequestRecord, EngineFacts)} with the fingerprints of {@code original}'s
   * texts computed before: a link fills engine facts, never a text.
   */
  public static Document linkedRequest(RequestRecord original, EngineFacts facts, FingerprintFields.Hashes fingerprints) {
    RequestRecord linked = EngineFill.onto(original, facts);
    Document doc = request(linked, fingerprints);
    for (String field : EngineFill.filled(original, linked)) {
      keyword(doc, ENGINE_FILLED, field);
    }
    number(doc, ENGINE_EVENTS, (long) facts.events());
    number(doc, REJECTED, facts.rejected() ? 1L : 0L);
    number(doc, REQUESTED_LEN, facts.requestedLen());
    number(doc, REJECTION_LIMIT, facts.rejectionLimit());
    decimal(doc, TRANSFER_MB, facts.transferMb());
    number(doc, TRANSFER_FAILURES, (long) facts.transferFailures());
    number(doc, CANARY_VIOLATIONS, (long) facts.canaryViolations());
    number(doc, CHECKSUM_MISMATCHES, (long) facts.checksumMismatches());
    if (facts.ambiguousRoom() != null) {
      number(doc, AMBIGUOUS_ROOM, facts.ambiguousRoom().room());
      number(doc, AMBIGUOUS_ROOM_RIDS, (long) facts.ambiguousRoom().rids());
      number(doc, AMBIGUOUS_ROOM_REQUESTS, (long) facts.ambiguousRoom().requests());
    }
    if (facts.prefillEpoch() != null) {
      number(doc, PREFILL_POOL_TOKENS, facts.prefillEpoch().poolTokens());
      number(doc, PREFILL_CONTEXT_LENGTH, facts.prefillEpoch().contextLength());
      keyword(doc, ENGINE_VERSION, facts.prefillEpoch().engineVersion());
    }
    if (facts.decodeEpoch() != null) {
      number(doc, DECODE_POOL_TOKENS, facts.decodeEpoch().poolTokens());
      number(doc, DECODE_CONTEXT_LENGTH, facts.decodeEpoch().contextLength());
      if (facts.prefillEpoch() == null) {
        keyword(doc, ENGINE_VERSION, facts.decodeEpoch().engineVersion());
      }
    }
    // A freshly ingested document has no signature, so only the facts need hashing.
    keyword(doc, LINK_SIGNATURE, linkSignature(facts));
    return doc;
  }

  /** The {@link Schema#LINK_SIGNATURE} of a request linked to {@code facts}. */
  public static String linkSignature(EngineFacts facts) {
    return digest(facts);
  }

  /** The engine facts a linked request document carries ({@link EngineFacts#NONE} if unlinked). */
  public static EngineFacts readFacts(Document doc) {
    FieldValues values = FieldValues.of(doc);
    return readFacts(readFields(values).build(), values);
  }

  /**
   * The engine facts of a linked request whose record was read from the same {@code values}: the
   * facts it shares with the record are taken from there, so each value is read once.
   */
  public static EngineFacts readFacts(RequestRecord record, FieldValues values) {
    Long events = (Long) values.get(ENGINE_EVENTS);
    if (events == null || events == 0) {
      return EngineFacts.NONE;
    }
    String version = (String) values.get(ENGINE_VERSION);
    return new EngineFacts(record.prefillNode(), record.decodeNode(), record.bootstrapRoom(),
        record.engineInputLen(), record.cachedTokens(), Long.valueOf(1).equals(values.get(REJECTED)),
        (Long) values.get(REQUESTED_LEN), (Long) values.get(REJECTION_LIMIT), (Double) values.get(TRANSFER_MB),
        intValue(values, TRANSFER_FAILURES), intValue(values, CANARY_VIOLATIONS), intValue(values, CHECKSUM_MISMATCHES),
        epochSummary(record.prefillNode(), (Long) values.get(PREFILL_POOL_TOKENS),
            (Long) values.get(PREFILL_CONTEXT_LENGTH), version),
        epochSummary(record.decodeNode(), (Long) values.get(DECODE_POOL_TOKENS),
            (Long) values.get(DECODE_CONTEXT_LENGTH), version),
        events.intValue(), ambiguousRoom(values));
  }

  private static RoomRule.Ambiguity ambiguousRoom(FieldValues values) {
    Long room = (Long) values.get(AMBIGUOUS_ROOM);
    return room == null ? null
        : new RoomRule.Ambiguity(room, intValue(values, AMBIGUOUS_ROOM_RIDS), intValue(values, AMBIGUOUS_ROOM_REQUESTS));
  }

  /** The part of an epoch a request document keeps: enough to explain its limit. */
  private static ConfigEpoch epochSummary(String node, Long pool, Long context, String version) {
    if (node == null || (pool == null && context == null)) {
      return null;
    }
    return new ConfigEpoch(node, null, 0, pool, context, null, version, null, null, null, null, null,
        null, "request", null, 0);
  }

  private static int intValue(FieldValues values, String field) {
    Long value = (Long) values.get(field);
    return value == null ? 0 : value.intValue();
  }
  /**
   * A document of {@code type} under {@code id}. The id is an exact term (replacing and deleting
   * find it) and stored, without the doc values a keyword keeps: nothing reads an id from them,
   * and a value unique to every document made them the dearest doc values of a flush (every id
   * hashed, sorted and written to a terms dictionary again).
   */
  public static Document base(String type, String id) {
    Document doc = new Document();
    doc.add(new KeywordField(DOC_TYPE, type, Store.YES));
    doc.add(new StringField(ID, id, Store.YES));
    return doc;
  }

  public static void keyword(Document doc, String field, String value) {
    if (value != null) {
      doc.add(new KeywordField(field, value, Store.YES));
    }
  }

  public static void number(Document doc, String field, Long value) {
    if (value != null) {
      doc.add(new LongField(field, value, Store.YES));
    }
  }

  static void decimal(Document doc, String field, Double value) {
    if (value != null && Double.isFinite(value)) {
      doc.add(new DoubleField(field, value, Store.YES));
    }
  }

  static void flag(Document doc, String field, Boolean value) {
    if (value != null) {
      keyword(doc, field, value.toString());
    }
  }

  private static final IdentifierExtractor IDENTIFIERS = new IdentifierExtractor();

  /**
   * The fingerprint scheme every request is indexed with (k = 8, T = 16 words; the fingerprint
   * package says why); recorded in each commit.
   */
  public static final FingerprintConfig FINGERPRINTS = FingerprintConfig.defaults();

  /** Identifier terms, indexed for the rare-identifier and canary self-joins, never stored. */
  static void identifiers(Document doc, String field, String text) {
    for (Identifier identifier : IDENTIFIERS.extract(text)) {
      doc.add(new StringField(field, identifier.term(), Store.NO));
    }
  }

  /**
   * Prompt and reply text: words with positions for search and the phrase checks, stored for
   * display and span verification, and without length norms. Nothing scores by length (search
   * sorts by time, the analyses only match), and these fields' norms are sparse (engine events
   * share the segments): Lucene's postings writer looked one up for every posting it wrote, a
   * tenth of an ingest's CPU. {@code IndexStore} refuses to add to an index built with them.
   */
  private static final FieldType TEXT_STORED = textType(true);
  /** The same words, not stored (a prompt copy's words under the request's field). */
  private static final FieldType TEXT_INDEXED = textType(false);

  private static FieldType textType(boolean stored) {
    FieldType type = new FieldType(stored ? TextField.TYPE_STORED : TextField.TYPE_NOT_STORED);
    type.setOmitNorms(true);
    type.freeze();
    return type;
  }

  static void text(Document doc, String field, String value) {
    if (value != null) {
      doc.add(new Field(field, value, TEXT_STORED));
    }
  }

  /** {@link #text(Document, String, String)} with the words {@code value} was cut into before, if any (of it). */
  private static void text(Document doc, String field, String value, TokenizedText words) {
    if (value != null && words != null && words.text() == value) {
      doc.add(WordTokens.field(field, value, words, TEXT_STORED));
    } else {
      text(doc, field, value);
    }
  }

  public static Long longValue(Document doc, String field) {
    IndexableField stored = doc.getField(field);
    if (stored == null || stored.numericValue() == null) {
      return null;
    }
    return stored.numericValue().longValue();
  }

  public static Double doubleValue(Document doc, String field) {
    IndexableField stored = doc.getField(field);
    if (stored == null || stored.numericValue() == null) {
      return null;
    }
    return stored.numericValue().doubleValue();
  }

  public static Boolean flagValue(Document doc, String field) {
    String value = doc.get(field);
    return value == null ? null : Boolean.valueOf(value);
  }

  private static Boolean flagValue(FieldValues values, String field) {
    String value = (String) values.get(field);
    return value == null ? null : Boolean.valueOf(value);
  }

  private static long orZero(Long value) {
    return value == null ? 0L : value;
  }

  /**
   * One SHA-256 per thread: every engine event's id and every linked request's signature is a
   * digest, and looking the algorithm up among the security providers for each cost more than
   * hashing the few values (the writer threads and the link call this at once, so not one shared).
   */
  private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException impossible) {
      throw new IllegalStateException("every JVM has SHA-256", impossible);
    }
  });

  /** A short, collision-resistant digest of the values' text forms (SHA-256, first 16 bytes). */
  public static String digest(Object... values) {
    MessageDigest sha = SHA_256.get();
    sha.reset(); // in case a value's text form threw half way through the last digest
    for (Object value : values) {
      sha.update(String.valueOf(value).getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0x1f);
    }
    byte[] hash = sha.digest(); // also resets it for the next digest
    return HexFormat.of().formatHex(hash, 0, 16);
  }
}
