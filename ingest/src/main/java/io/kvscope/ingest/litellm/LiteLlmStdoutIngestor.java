package io.kvscope.ingest.litellm;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.LineReader;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import io.kvscope.ingest.json.JsonHead;
import io.kvscope.ingest.json.JsonSupport;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A LiteLLM process's standard output with {@code LITELLM_PRINT_STANDARD_LOGGING_PAYLOAD} set:
 * each payload printed by {@code emit_standard_logging_payload} as {@code json.dumps(payload,
 * indent=4)}, so one payload spans many lines (a {@code {} alone at the start of a line, fields
 * indented by four spaces, a {@code }} alone), between whatever else the process prints (uvicorn
 * access lines, LiteLLM's own logging, JSON log lines). Blocks and one-line objects that are
 * payloads become records, numbered by the line they start on; everything else is skipped.
 *
 * <p>Resumable by line: a resumed read starts at the first line of the last block already read
 * and skips what it meets before the next block's opening line.
 */
public final class LiteLlmStdoutIngestor implements Ingestor {

  /** A top-level field of an {@code indent=4} object: exactly four spaces, then the quoted name. */
  private static final Pattern TOP_LEVEL_FIELD = Pattern.compile("^ {4}\"((?:[^\"\\\\]|\\\\.)*)\": ");

  private final JsonFactory json = JsonSupport.newFactory();

  @Override
  public String name() {
    return "litellm-stdout";
  }

  @Override
  public String description() {
    return "LiteLLM standard output with LITELLM_PRINT_STANDARD_LOGGING_PAYLOAD (indent=4 payloads among other lines)";
  }

  @Override
  public int detect(Sniff sniff, IngestOptions options) {
    String text = sniff.text();
    int best = 0;
    int at = 0;
    while (at < text.length() && best == 0) {
      int open = blockStart(text, at);
      if (open < 0) {
        break;
      }
      best = LiteLlmIngestor.score(topLevelKeys(text, open)) > 0 ? 85 : 0;
      at = open + 1;
    }
    return best;
  }

  /** Where the next line consisting of {@code {} alone starts, or -1. */
  private static int blockStart(String text, int from) {
    int at = from;
    while (at < text.length()) {
      int end = text.indexOf('\n', at);
      int lineEnd = end < 0 ? text.length() : end;
      if (lineEnd - at <= 2 && stripCr(text.substring(at, lineEnd)).equals("{")) {
        return at;
      }
      if (end < 0) {
        return -1;
      }
      at = end + 1;
    }
    return -1;
  }

  /** The field names at indentation four in the block opening at {@code open}, up to its end or the head's. */
  private static Set<String> topLevelKeys(String text, int open) {
    Set<String> keys = new LinkedHashSet<>();
    int at = text.indexOf('\n', open) + 1;
    while (at > 0 && at < text.length()) {
      int end = text.indexOf('\n', at);
      String line = stripCr(text.substring(at, end < 0 ? text.length() : Math.min(end, at + 256)));
      if (line.equals("}")) {
        break;
      }
      Matcher m = TOP_LEVEL_FIELD.matcher(line);
      if (m.find()) {
        keys.add(m.group(1));
      }
      if (end < 0) {
        break;
      }
      at = end + 1;
    }
    return keys;
  }

  private static String stripCr(String s) {
    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
  }

  @Override
  public void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    PayloadReader reader = new PayloadReader(json, new TenantPaths(options.tenantKeys()));
    Block block = null;
    try (LineReader lines = file.lines(sink)) {
      String line;
      while ((line = lines.next()) != null) {
        long number = lines.lineNumber();
        if (block != null && line.equals("{")) {
          // A payload starts before the last one closed: that one was cut (a restart, a crash).
          sink.malformed(new BadInput(file.name(), block.startLine, "printed payload cut short by the next one"),
              block.text());
          block = null;
        }
        if (block != null) {
          block.append(line);
          if (line.equals("}")) {
            emit(reader, file, block.startLine, block.text(), sink);
            block = null;
          } else if (block.length() > LineReader.MAX_LINE_CHARS) {
            sink.malformed(new BadInput(file.name(), block.startLine, "printed payload longer than "
                + LineReader.MAX_LINE_CHARS + " characters; skipped"), null);
            block = null;
          }
        } else if (line.equals("{")) {
          block = new Block(number);
          block.append(line);
        } else if (line.startsWith("{") && line.endsWith("}")) {
          emit(reader, file, number, line, sink); // a payload printed on one line, or a JSON log line
        } else {
          sink.skipped();
        }
      }
    }
    if (block != null) {
      sink.malformed(new BadInput(file.name(), block.startLine, "printed payload cut short at the end of the file"),
          block.text());
    }
  }

  /**
   * A JSON object that is a payload becomes a record; a request body the proxy echoed is counted as
   * bad with its reason (it holds a prompt, never a logged call); any other (a JSON log line) is skipped.
   */
  private void emit(PayloadReader reader, InputFile file, long line, String text, RecordSink sink) {
    boolean payload = LiteLlmIngestor.score(JsonHead.topLevelKeys(json, text)) > 0;
    try {
      sink.accept(reader.read(text).sourceFile(file.name()).sourceLine(line).build());
    } catch (JsonProcessingException e) {
      sink.malformed(new BadInput(file.name(), line, "printed payload: " + JsonSupport.reason(e)), text);
    } catch (PayloadProblem | IllegalArgumentException e) {
      if (payload || PayloadReader.REQUEST_BODY.equals(e.getMessage())) {
        sink.malformed(new BadInput(file.name(), line, "printed payload: " + e.getMessage()), text);
      } else {
        sink.skipped();
      }
    } catch (IOException e) {
      sink.malformed(new BadInput(file.name(), line, "printed payload: " + io.kvscope.ingest.FailureWords.of(e)), text);
    }
  }

  @Override
  public boolean resumableByLine() {
    return true;
  }

  /** The lines of one printed payload so far. */
  private static final class Block {
    final long startLine;
    private final StringBuilder text = new StringBuilder();

    Block(long startLine) {
      this.startLine = startLine;
    }

    void append(String line) {
      text.append(line).append('\n');
    }

    int length() {
      return text.length();
    }

    String text() {
      return text.toString();
    }
  }
}
