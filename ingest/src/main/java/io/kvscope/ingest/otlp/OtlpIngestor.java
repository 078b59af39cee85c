package io.kvscope.ingest.otlp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.LineParser;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import io.kvscope.ingest.json.JsonHead;
import io.kvscope.ingest.json.JsonLines;
import io.kvscope.ingest.json.JsonSupport;
import java.io.IOException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * OTLP/JSON files as the OpenTelemetry file exporter writes them: one export batch a line, traces
 * ({@code resourceSpans}) or logs ({@code resourceLogs}). GenAI model-call spans and
 * {@code gen_ai.client.inference.operation.details} log events become request records, SGLang
 * stage spans engine events; other spans and log records (HTTP plumbing, agents, tools, plain
 * logs) are counted as skipped. A bad line, or a bad span within a good line, is reported with the
 * line number and the rest goes on.
 */
public final class OtlpIngestor implements Ingestor {

  private final JsonFactory json = JsonSupport.newFactory();
  private final ObjectMapper mapper = new ObjectMapper(JsonSupport.newFactory());
  private final BatchReader batches = new BatchReader(json);
  private final GenAiSpans genAi = new GenAiSpans(mapper);

  @Override
  public String name() {
    return "otlp";
  }

  @Override
  public String description() {
    return "OpenTelemetry OTLP/JSON trace and log lines (GenAI model calls and events, SGLang request-stage spans)";
  }

  @Override
  public int detect(Sniff sniff, IngestOptions options) {
    for (String line : JsonHead.lines(sniff, 3)) {
      Set<String> keys = JsonHead.topLevelKeys(json, line);
      if (keys.contains("resourceSpans") || keys.contains("resource_spans") || keys.contains("resourceLogs")
          || keys.contains("resource_logs")) {
        return 90;
      }
    }
    return 0;
  }

  @Override
  public void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    JsonLines.forEach(file, sink, batches(options, file.name(), stem(file.path().getFileName().toString()), sink));
  }

  @Override
  public Optional<LineParser> lineParser(IngestOptions options) {
    return Optional.of((batch, sink) -> JsonLines.forEach(batch, sink,
        batches(options, batch.fileName(), stem(lastSegment(batch.fileName())), sink)));
  }

  /**
   * Reads each line of {@code fileName} as one export batch into {@code sink}; an engine span that
   * names no node is put on {@code fallbackNode}.
   */
  private JsonLines.Reader batches(IngestOptions options, String fileName, String fallbackNode, RecordSink sink) {
    // emit() judges each span and log record apart: one bad span spoils no other.
    return (line, number) -> emit(batches.read(line), options, fallbackNode, fileName, number, line, sink);
  }

  private void emit(Batch batch, IngestOptions options, String fallbackNode, String fileName,
      long number, String line, RecordSink sink) {
    EngineSpans engine = new EngineSpans(batch.spans());
    Map<String, Integer> httpStatusBelow = httpStatusByParent(batch.spans());
    for (ResourceSpans resourceSpans : batch.spans()) {
      for (Span span : resourceSpans.spans()) {
        if (span.problem() != null) {
          sink.malformed(new BadInput(fileName, number, spanLabel(span) + ": " + span.problem()), line);
          continue;
        }
        try {
          if (engine.isEngineSpan(span)) {
            sink.accept(engine.toEvent(span, resourceSpans.resource(), options.nodeName(), fallbackNode,
                fileName, number));
          } else if (GenAiSpans.isModelCall(span)) {
            sink.accept(genAi.toRecord(span, resourceSpans.resource(), options.tenantKeys(),
                    span.spanId() == null ? null : httpStatusBelow.get(span.spanId()))
                .sourceFile(fileName).sourceLine(number).build());
          } else {
            sink.skipped();
          }
        } catch (IllegalArgumentException e) {
          sink.malformed(new BadInput(fileName, number, spanLabel(span) + ": " + e.getMessage()), line);
        }
      }
    }
    for (ResourceLogs resourceLogs : batch.logs()) {
      for (LogRecord record : resourceLogs.records()) {
        String label = "log record" + (record.spanId() == null ? "" : " of span " + record.spanId());
        if (record.problem() != null) {
          sink.malformed(new BadInput(fileName, number, label + ": " + record.problem()), line);
          continue;
        }
        try {
          if (GenAiSpans.isModelCall(record)) {
            sink.accept(genAi.toRecord(record, resourceLogs.resource(), options.tenantKeys())
                .sourceFile(fileName).sourceLine(number).build());
          } else {
            sink.skipped();
          }
        } catch (IllegalArgumentException e) {
          sink.malformed(new BadInput(fileName, number, label + ": " + e.getMessage()), line);
        }
      }
    }
  }

  /**
   * The HTTP status of each span's HTTP child in this batch: OpenAI-client instrumentations leave
   * {@code http.response.status_code} off the GenAI span, and an HTTP client instrumentation below
   * it records the request that actually went out.
   */
  private static Map<String, Integer> httpStatusByParent(List<ResourceSpans> spans) {
    Map<String, Integer> status = new HashMap<>();
    for (ResourceSpans resourceSpans : spans) {
      for (Span span : resourceSpans.spans()) {
        if (span.parentSpanId() == null || span.problem() != null || GenAiSpans.isModelCall(span)) {
          continue;
        }
        JsonNode code = span.attribute("http.response.status_code");
        if (code == null) {
          code = span.attribute("http.status_code");
        }
        Long value = code == null ? null : AttributeValues.wholeOrNull(code);
        if (value != null && value >= 100 && value <= 599) {
          status.putIfAbsent(span.parentSpanId(), value.intValue());
        }
      }
    }
    return status;
  }

  private static String spanLabel(Span span) {
    return "span " + (span.spanId() == null ? "(no id)" : span.spanId());
  }

  private static String stem(String fileName) {
    int dot = fileName.indexOf('.');
    return dot > 0 ? fileName.substring(0, dot) : fileName;
  }

  /** The file name in a path or URL as a batch names its file ({@code s3a://logs/otel.jsonl} -> {@code otel.jsonl}). */
  private static String lastSegment(String name) {
    return name.substring(name.lastIndexOf('/') + 1);
  }

  @Override
  public boolean resumableByLine() {
    return true;
  }
}
