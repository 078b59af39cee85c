package io.kvscope.ingest.litellm;

import com.fasterxml.jackson.core.JsonFactory;
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
import java.util.Optional;
import java.util.Set;

/**
 * LiteLLM {@code StandardLoggingPayload} JSONL: one payload a line, each a {@link
 * io.kvscope.ingest.record.RequestRecord}. A line that is not JSON or has no {@code id} is reported
 * with its number and the file goes on; fields kvscope does not use are skipped unread.
 */
public final class LiteLlmIngestor implements Ingestor {

  /** Fields only LiteLLM's payload has; two of them make a confident match. */
  private static final Set<String> DISTINCTIVE = Set.of(
      "call_type", "model_group", "completionStartTime", "api_base", "hidden_params",
      "model_map_information", "error_information", "saved_cache_cost", "response_cost",
      "model_parameters", "requester_ip_address", "custom_llm_provider", "cache_hit");

  private final JsonFactory json = JsonSupport.newFactory();

  @Override
  public String name() {
    return "litellm";
  }

  @Override
  public String description() {
    return "LiteLLM StandardLoggingPayload JSON lines (gateway requests with prompts and responses)";
  }

  @Override
  public int detect(Sniff sniff, IngestOptions options) {
    int best = 0;
    for (String line : JsonHead.lines(sniff, 3)) {
      best = Math.max(best, score(JsonHead.topLevelKeys(json, line)));
    }
    return best;
  }

  /** How much {@code keys}, a JSON object's top-level fields, look like a payload's (0 = not at all). */
  static int score(Set<String> keys) {
    long distinctive = keys.stream().filter(DISTINCTIVE::contains).count();
    if (keys.contains("call_type") && (keys.contains("model_group") || keys.contains("startTime")
        || keys.contains("messages") || keys.contains("response"))) {
      return 90;
    }
    if (distinctive >= 2) {
      return 80;
    }
    if (keys.contains("id") && keys.contains("messages") && keys.contains("response")) {
      return 40; // OpenAI-shaped, possibly LiteLLM with fields trimmed
    }
    return 0;
  }

  @Override
  public void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    JsonLines.forEach(file, sink, payloads(options, file.name(), sink));
  }

  @Override
  public Optional<LineParser> lineParser(IngestOptions options) {
    return Optional.of((batch, sink) -> JsonLines.forEach(batch, sink, payloads(options, batch.fileName(), sink)));
  }

  /** Reads each line of {@code fileName} as one payload into {@code sink}. */
  private JsonLines.Reader payloads(IngestOptions options, String fileName, RecordSink sink) {
    PayloadReader reader = new PayloadReader(json, new TenantPaths(options.tenantKeys()));
    // IllegalArgumentException also comes from the record's own checks (negative counts, odd status).
    return (line, number) -> {
      try {
        sink.accept(reader.read(line).sourceFile(fileName).sourceLine(number).build());
      } catch (PayloadProblem e) {
        throw new IllegalArgumentException(e.getMessage());
      }
    };
  }

  @Override
  public boolean resumableByLine() {
    return true;
  }
}
