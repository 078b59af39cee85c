package io.kvscope.ingest.deployment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.LineReader;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import io.kvscope.ingest.json.Times;
import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.VersionOrigin;
import io.kvscope.ingest.record.VersionRecord;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * kvscope's deployment manifest: a CSV file an operator writes to say which engine release each node
 * ran and when, and which other names a node goes by. The header names the columns (any order):
 * <pre>
 * # kvscope deployment manifest (times UTC)
 * node,from,to,version,engine,aliases
 * sglang-prefill-a0,2026-08-20T00:00:00Z,2026-09-09T15:10:00Z,0.5.19,sglang,10.20.1.10:30000 10.20.1.10
 * sglang-prefill-a0,2026-09-09T15:10:00Z,,0.5.22,sglang,
 * </pre>
 * {@code node} is required; {@code from}/{@code to} are ISO-8601 times or dates (UTC when no zone
 * is given), empty for "since ever"/"still"; {@code version} is the release ({@code v} prefix
 * optional; empty or {@code unknown} claims nothing), {@code image} may stand in for it (its tag
 * names the release); {@code aliases} lists other names of the node (addresses, pod names),
 * separated by spaces or semicolons. A row may carry only aliases. Lines starting with {@code #} are
 * comments. Detected by its header.
 */
public final class DeploymentManifestIngestor implements Ingestor {

  private static final Set<String> COLUMNS = Set.of("node", "from", "to", "version", "engine", "image", "aliases");

  private final CsvMapper mapper = new CsvMapper();

  @Override
  public String name() {
    return "deployment-manifest";
  }

  @Override
  public String description() {
    return "kvscope deployment manifest (CSV: node, from, to, version, engine, image, aliases)";
  }

  @Override
  public int detect(Sniff sniff, IngestOptions options) {
    List<String> header = header(sniff.text());
    if (header == null || !header.contains("node") || !COLUMNS.containsAll(header)) {
      return 0;
    }
    return header.contains("version") || header.contains("image") || header.contains("aliases") ? 95 : 0;
  }

  /** The column names of the first line that is neither blank nor a comment, lower-cased. */
  private static List<String> header(String head) {
    for (String line : head.lines().limit(50).toList()) {
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      return Arrays.stream(l.split(",", -1)).map(c -> c.strip().toLowerCase(Locale.ROOT)).toList();
    }
    return null;
  }

  @Override
  public void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    ObjectReader csv = mapper.readerFor(String[].class).with(CsvParser.Feature.TRIM_SPACES);
    List<String> columns = null;
    try (LineReader lines = file.lines(sink)) {
      String line;
      while ((line = lines.next()) != null) {
        long number = lines.lineNumber();
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
          sink.skipped();
          continue;
        }
        if (trimmed.chars().filter(c -> c == '"').count() % 2 != 0) {
          // A quoted cell with a line break in it: the manifest is read one line at a time.
          sink.malformed(new BadInput(file.name(), number, "manifest row is not CSV: a quoted cell runs over a line "
              + "break (write each row on one line)"), line);
          continue;
        }
        String[] cells;
        try {
          cells = csv.readValue(trimmed);
        } catch (JsonProcessingException e) {
          sink.malformed(new BadInput(file.name(), number, "manifest row is not CSV"), line);
          continue;
        }
        if (columns == null) {
          columns = Arrays.stream(cells).map(c -> c == null ? "" : c.strip().toLowerCase(Locale.ROOT)).toList();
          continue;
        }
        Map<String, String> row = new HashMap<>();
        for (int i = 0; i < Math.min(columns.size(), cells.length); i++) {
          row.put(columns.get(i), cells[i]);
        }
        row(row, file.name(), number, sink);
      }
    }
  }

  private static void row(Map<String, String> row, String file, long line, RecordSink sink) {
    String node = value(row, "node");
    if (node == null) {
      sink.malformed(new BadInput(file, line, "manifest row without a node"), null);
      return;
    }
    Long from;
    Long to;
    try {
      from = time(value(row, "from"));
      to = time(value(row, "to"));
    } catch (IllegalArgumentException badTime) {
      sink.malformed(new BadInput(file, line, "manifest row with a from/to that is not an ISO-8601 time or date"), null);
      return;
    }
    if (from != null && to != null && to < from) {
      sink.malformed(new BadInput(file, line, "manifest row ends ('to') before it starts ('from')"), null);
      return;
    }
    String aliases = value(row, "aliases");
    if (aliases != null) {
      for (String alias : aliases.split("[\\s;|]+")) {
        if (!alias.isBlank() && !alias.equals(node)) {
          sink.accept(new NodeAlias(node, alias, AliasOrigin.USER, file, line));
        }
      }
    }
    ImageReference image = ImageReference.parse(value(row, "image"));
    String version = value(row, "version");
    if (version != null && (version.equalsIgnoreCase("unknown") || version.equals("-"))) {
      version = null;
    }
    if (version != null && version.matches("[vV]\\d.*")) {
      version = version.substring(1);
    }
    if (version == null && image != null) {
      version = image.version();
    }
    if (version == null && image == null) {
      if (aliases == null) {
        sink.skipped();
      }
      return; // aliases only: no word on the version
    }
    String engine = value(row, "engine");
    if (engine == null && image != null) {
      engine = image.engine();
    }
    sink.accept(new VersionRecord(node, false, engine == null ? null : engine.toLowerCase(Locale.ROOT), version,
        image == null ? null : image.reference(), from, to, VersionOrigin.MANIFEST, file, line));
  }

  private static String value(Map<String, String> row, String column) {
    String v = row.get(column);
    return v == null || v.isBlank() ? null : v.strip();
  }

  /** ISO-8601 instant or local time (UTC), or a date (its UTC midnight). */
  private static Long time(String text) {
    if (text == null) {
      return null;
    }
    if (text.length() == 10 && text.charAt(4) == '-' && text.charAt(7) == '-') {
      return java.time.LocalDate.parse(text).atStartOfDay(java.time.ZoneOffset.UTC).toInstant().toEpochMilli();
    }
    return Times.fromIso(text);
  }

  @Override
  public boolean carriesRequests() {
    return false;
  }
}
