package io.kvscope.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.store.Redaction;
import io.kvscope.index.doc.Schema;
import io.kvscope.ingest.Printable;
import io.kvscope.ingest.json.PrintableJson;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.queryparser.classic.ParseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "search",
    mixinStandardHelpOptions = true,
    description = {
        "Find requests (or, with doc_type:..., engine events, epochs) in Lucene query syntax. Times are UTC, "
            + "in the forms --since takes ('2026-08-27 10:00' quoted inside a range): a date alone is that whole "
            + "day. A bare word searches prompt and response text, cut into words as the leak analysis cuts them "
            + "(case ignored; an e-mail address, key or version such as john.doe@example.com is one word, found "
            + "whole and not by a part); a pasted id (request id, engine rid, trace or "
            + "call id) also finds its request. An unknown field is an error. Prompt and response text are "
            + "redacted unless --reveal.",
        "%nExamples:",
        "  kvscope search 'tenant:acme AND prompt_tokens:[681280 TO *]'",
        "  kvscope search 'start_time:[2026-08-27 TO 2026-09-10] AND engine_input_len:1'",
        "  kvscope search 'start_time:2026-08-27 AND engine_input_len:1'",
        "  kvscope search 'start_time:[\"2026-08-27 10:00\" TO 2026-08-27T12:00]'",
        "  kvscope search chatcmpl-9f1c6e2b88",
        "  kvscope search 'doc_type:epoch AND node:sglang-decode-a0'"
    })
final class SearchCommand implements Callable<Integer> {

  @Parameters(paramLabel = "QUERY", arity = "0..1",
      description = "Lucene query; fields are the canonical names (list them with --fields).")
  String query;

  @Option(names = "--fields", description = "List the searchable fields with their kinds and meanings, and exit.")
  boolean fields;

  @Mixin
  IndexOption index;

  @Option(names = {"-n", "--limit"}, paramLabel = "N", defaultValue = "20", description = "Rows to show (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(names = "--json", description = "One JSON object per match instead of a table (times as ISO-8601 UTC, "
      + "like the table).")
  boolean json;

  @Option(names = "--reveal", description = "Show prompt and response text (sensitive).")
  boolean reveal;

  @Override
  public Integer call() throws Exception {
    if (fields) {
      Schema.FIELDS.forEach(f -> System.out.printf("%-24s %-8s %s%n", f.name(), f.kind().name().toLowerCase(), f.meaning()));
      return ExitCodes.OK;
    }
    if (query == null) {
      System.err.println("kvscope search: give a QUERY (or --fields to list what can be searched)");
      return ExitCodes.ERROR;
    }
    try (IndexSearch search = IndexSearch.open(index.path)) {
      IndexSearch.Result result;
      try {
        result = search.search(query, limit);
      } catch (ParseException badQuery) {
        System.err.println("kvscope search: cannot parse the query: " + Printable.text(badQuery.getMessage()));
        return ExitCodes.ERROR;
      }
      // On stderr: stdout stays the matches alone, for --json and for pipes.
      result.notes().forEach(note -> System.err.println("kvscope search: " + Printable.text(note)));
      if (json) {
        printJson(result.documents(), search.redaction(), System.out);
      } else {
        printTable(result.documents(), search.redaction(), System.out);
        System.out.printf("%,d match%s%s%n", result.total(), result.total() == 1 ? "" : "es",
            result.total() > result.documents().size() ? " (showing " + result.documents().size() + "; use --limit)" : "");
      }
    }
    return ExitCodes.OK;
  }

  private static final String[] REQUEST_COLUMNS = {
      Schema.START_TIME, Schema.REQUEST_ID, Schema.TENANT, Schema.STATUS_CODE, Schema.PROMPT_TOKENS,
      Schema.ENGINE_INPUT_LEN, Schema.PREFILL_NODE, Schema.DECODE_NODE, Schema.PREFILL_POOL_TOKENS,
      Schema.PREFILL_CONTEXT_LENGTH, Schema.PROMPT_TEXT};

  private void printTable(List<Document> documents, Redaction redaction, PrintStream out) {
    if (documents.isEmpty()) {
      return;
    }
    boolean requests = documents.stream().allMatch(d -> Schema.TYPE_REQUEST.equals(d.get(Schema.DOC_TYPE)));
    if (!requests) {
      documents.forEach(d -> out.println(keyValues(d, redaction)));
      return;
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"start", "request_id", "tenant", "status", "prompt_tok", "engine_in", "prefill",
        "decode", "pool", "context", "prompt"});
    for (Document doc : documents) {
      String[] row = new String[REQUEST_COLUMNS.length];
      for (int i = 0; i < row.length; i++) {
        row[i] = cell(doc, REQUEST_COLUMNS[i], redaction);
      }
      rows.add(row);
    }
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(String.format("%-" + widths[i] + "s", row[i]));
        if (i < row.length - 1) {
          line.append("  ");
        }
      }
      out.println(line.toString().stripTrailing());
    }
  }

  private String cell(Document doc, String field, Redaction redaction) {
    if (Schema.kindOf(field) == Schema.Kind.TEXT) {
      String text = doc.get(field);
      if (!reveal || text == null) {
        return redaction.mask(text);
      }
      String flat = text.replaceAll("\\s+", " ");
      return Printable.text(flat.length() <= 60 ? flat : flat.substring(0, 60) + "...");
    }
    String value = doc.get(field);
    if (value == null) {
      return "-";
    }
    if (Schema.isTime(field)) {
      return Instant.ofEpochMilli(Long.parseLong(value)).toString();
    }
    return Printable.text(value);
  }

  private String keyValues(Document doc, Redaction redaction) {
    StringBuilder line = new StringBuilder();
    for (IndexableField field : doc.getFields()) {
      if (field.name().equals(Schema.ID)) {
        continue;
      }
      if (!line.isEmpty()) {
        line.append(' ');
      }
      line.append(field.name()).append('=').append(cell(doc, field.name(), redaction));
    }
    return line.toString();
  }

  private void printJson(List<Document> documents, Redaction redaction, PrintStream out) throws java.io.IOException {
    JsonGenerator json = PrintableJson.configure(new JsonFactory().createGenerator(out));
    json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
    for (Document doc : documents) {
      json.writeStartObject();
      for (IndexableField field : doc.getFields()) {
        if (field.numericValue() != null && Schema.isTime(field.name())) {
          json.writeStringField(field.name(), Instant.ofEpochMilli(field.numericValue().longValue()).toString());
        } else if (field.numericValue() != null) {
          json.writeFieldName(field.name());
          Number n = field.numericValue();
          if (n instanceof Double || n instanceof Float) {
            json.writeNumber(n.doubleValue());
          } else {
            json.writeNumber(n.longValue());
          }
        } else if (Schema.kindOf(field.name()) == Schema.Kind.TEXT) {
          json.writeStringField(field.name(), redaction.show(field.stringValue(), reveal));
        } else {
          json.writeStringField(field.name(), field.stringValue());
        }
      }
      json.writeEndObject();
      json.writeRaw('\n');
    }
    json.flush();
  }
}
