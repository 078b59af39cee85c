package io.kvscope.ingest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.kvscope.ingest.arrow.ArrowIngestor;
import io.kvscope.ingest.json.JsonSupport;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Recognises, by content, the files kvscope itself writes: they are results, never evidence. A
 * findings.arrow read as request records would replace the real requests (one document per id)
 * and erase the leaks; a report or bundle read as a log would count its numbers as traffic. So an
 * ingest skips them before any format is detected, whatever they are named and wherever they sit
 * (an analysis written into a folder inside the incident folder is the common case).
 *
 * <p>Every writer marks what it writes with one of the marks below, and the marks are checked
 * here: the Arrow schema metadata key {@link #ARROW_MARK}, the version field a JSON output
 * starts with, the first line of a Markdown, CSV or quarantine file, the generator tag of an HTML
 * report. findings.arrow files written before the mark existed are known by their columns.
 */
public final class KvscopeOutputs {

  /** Schema metadata key of every Arrow file kvscope writes; the value names the output. */
  public static final String ARROW_MARK = "kvscope.output";
  /** The field every report.json and bundle notification.json starts with. */
  public static final String REPORT_VERSION_FIELD = "report_version";
  /** The field the generator's truth.json starts with. */
  public static final String TRUTH_VERSION_FIELD = "truth_version";
  /** The field the workbench's JSON exports start with. */
  public static final String EXPORT_FIELD = "kvscope_export";
  /** The first line of report.md. */
  public static final String REPORT_MARKDOWN_TITLE = "# kvscope incident report";
  /** How the first line of a bundle's notification.md starts. */
  public static final String NOTIFICATION_MARKDOWN_TITLE = "# Data exposure notification for ";
  /** The tag in the head of report.html. */
  public static final String HTML_GENERATOR_TAG = "<meta name=\"generator\" content=\"kvscope\">";
  /** How the header row of every CSV kvscope writes starts (findings.csv and the workbench exports). */
  public static final List<String> CSV_HEADERS = List.of("id,kind,confidence,request_id,",
      "tenant,victim_requests,");
  /** The fields each quarantine line starts with. */
  static final List<String> QUARANTINE_FIELDS = List.of("file", "line", "reason");
  /** The first columns of findings.arrow, for files written before {@link #ARROW_MARK}. */
  static final List<String> FINDINGS_ARROW_COLUMNS = List.of("id", "kind", "confidence", "counted");
  /**
   * Columns only findings.arrow has (a file of request records has none of them): a findings table
   * whose mark and a column name lost a few bytes to damage is still known by the rest, never read
   * as request records. The findings table's own declaration lives in the analysis module, which
   * this module cannot see: a test there keeps the two in step.
   */
  public static final List<String> FINDINGS_ONLY_COLUMNS = List.of("kind", "confidence", "counted", "evidence", "spans",
      "source_request_id", "source_attribution", "source_matched_tokens", "finding_matched_tokens", "source_count");
  /** How many of {@link #FINDINGS_ONLY_COLUMNS} may be missing or damaged. */
  private static final int DAMAGED_COLUMNS_TOLERATED = 3;

  private static final JsonFactory JSON = JsonSupport.newFactory();

  private KvscopeOutputs() {}

  /** Which of kvscope's outputs {@code sniff} is (e.g. {@code report.json}), or empty for anything else. */
  public static Optional<String> recognise(Sniff sniff) {
    byte[] head = sniff.head();
    if (head.length == 0) {
      return Optional.empty();
    }
    Optional<String> arrow = arrowOutput(head);
    if (arrow.isPresent()) {
      return arrow;
    }
    String first = sniff.firstLine();
    if (first.startsWith(REPORT_MARKDOWN_TITLE)) {
      return Optional.of("report.md");
    }
    if (first.startsWith(NOTIFICATION_MARKDOWN_TITLE)) {
      return Optional.of("bundle notification.md");
    }
    if (CSV_HEADERS.stream().anyMatch(first::startsWith)) {
      return Optional.of("findings or tenants CSV");
    }
    if (first.startsWith("<!DOCTYPE html") && sniff.text().contains(HTML_GENERATOR_TAG)) {
      return Optional.of("report.html or a bundle's notification.html");
    }
    return sniff.startsWith('{') ? jsonOutput(sniff.text()) : Optional.empty();
  }

  /** report.json, notification.json, truth.json, a workbench export, a quarantine file or findings.ndjson. */
  private static Optional<String> jsonOutput(String text) {
    try (JsonParser parser = JSON.createParser(text)) {
      if (parser.nextToken() != JsonToken.START_OBJECT || parser.nextToken() != JsonToken.FIELD_NAME) {
        return Optional.empty();
      }
      String field = parser.currentName();
      switch (field) {
        case REPORT_VERSION_FIELD -> {
          return Optional.of("report.json or a bundle's notification.json");
        }
        case TRUTH_VERSION_FIELD -> {
          return Optional.of("truth.json of the generator");
        }
        case EXPORT_FIELD -> {
          return Optional.of("workbench export");
        }
        default -> { }
      }
      if (leadingFields(text, QUARANTINE_FIELDS)) {
        return Optional.of("quarantine file of an index");
      }
      // A findings.ndjson line starts with the findings table's first columns, as findings.arrow does.
      return leadingFields(text, FINDINGS_ARROW_COLUMNS) ? Optional.of("findings.ndjson") : Optional.empty();
    } catch (IOException notJson) {
      return Optional.empty();
    }
  }

  /** Whether the first JSON object of {@code text} starts with exactly these fields, in order. */
  private static boolean leadingFields(String text, List<String> fields) throws IOException {
    try (JsonParser parser = JSON.createParser(text)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      for (String field : fields) {
        if (parser.nextToken() != JsonToken.FIELD_NAME || !field.equals(parser.currentName())) {
          return false;
        }
        parser.nextToken();
        parser.skipChildren();
      }
      return true;
    }
  }

  /** An Arrow file or stream whose schema carries the mark (or the findings columns). */
  private static Optional<String> arrowOutput(byte[] head) {
    Schema schema = ArrowIngestor.headSchema(head).orElse(null);
    if (schema == null) {
      return Optional.empty();
    }
    Map<String, String> metadata = schema.getCustomMetadata();
    if (metadata != null && metadata.containsKey(ARROW_MARK)) {
      return Optional.of(metadata.get(ARROW_MARK) + ".arrow");
    }
    List<String> names = schema.getFields().stream().map(Field::getName).toList();
    boolean findingsColumns = names.size() > FINDINGS_ARROW_COLUMNS.size()
        && names.subList(0, FINDINGS_ARROW_COLUMNS.size()).equals(FINDINGS_ARROW_COLUMNS) && names.contains("evidence");
    long findingsOnly = FINDINGS_ONLY_COLUMNS.stream().filter(names::contains).count();
    return findingsColumns || findingsOnly >= FINDINGS_ONLY_COLUMNS.size() - DAMAGED_COLUMNS_TOLERATED
        ? Optional.of("findings.arrow") : Optional.empty();
  }
}
