package io.kvscope.ingest.litellm;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.CollectingSink;
import io.kvscope.ingest.Fixtures;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.TestFiles;
import io.kvscope.ingest.TestFiles.Packing;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LiteLLM's standard output with {@code LITELLM_PRINT_STANDARD_LOGGING_PAYLOAD}: payloads printed
 * by {@code emit_standard_logging_payload} as {@code json.dumps(payload, indent=4)} among uvicorn
 * access lines, LiteLLM's own log lines and JSON log lines (fixture {@code litellm-stdout.log},
 * printed with Python's own {@code json.dumps}).
 */
class LiteLlmStdoutIngestorTest {

  @TempDir Path dir;

  private final LiteLlmStdoutIngestor ingestor = new LiteLlmStdoutIngestor();

  private Path stdout() throws IOException {
    return Files.writeString(dir.resolve("litellm-proxy.out"), Fixtures.text("litellm-stdout.log"));
  }

  private CollectingSink parse(Path file, long resumeAfter) throws IOException {
    CollectingSink sink = new CollectingSink();
    ingestor.parse(new InputFile(file, file.toString(), resumeAfter), IngestOptions.defaults(), sink);
    return sink;
  }

  @Test
  void isRecognisedAsItsOwnFormatNotAsJsonLines() throws IOException {
    Path file = stdout();

    assertThat(Ingestors.discover().detect(new InputFile(file), IngestOptions.defaults()))
        .map(Ingestor::name).contains("litellm-stdout");
    assertThat(new LiteLlmIngestor().detect(new InputFile(file).sniff(), IngestOptions.defaults())).isZero();
    Path jsonLines = TestFiles.writeLines(dir.resolve("payloads.jsonl"),
        List.of(Fixtures.line("litellm-tool-calls.json")), Packing.PLAIN);
    assertThat(ingestor.detect(new InputFile(jsonLines).sniff(), IngestOptions.defaults())).isZero();
  }

  @Test
  void readsEachPrintedPayloadAsTheJsonLineItWouldHaveBeen() throws IOException {
    CollectingSink sink = parse(stdout(), 0);

    assertThat(sink.records()).extracting(RequestRecord::requestId)
        .containsExactly("chatcmpl-3f9e8d7c6b5a49382716a5b4c3d2e1f0", "7d3f2a9c-51e4-4b8e-9f0a-2c6d1e8b4a57");
    assertThat(sink.records()).extracting(RequestRecord::sourceLine).containsExactly(4L, 165L);
    // the same records the JSON-lines reader makes of the same payloads
    CollectingSink lines = new CollectingSink();
    Path jsonLines = TestFiles.writeLines(dir.resolve("same.jsonl"),
        List.of(Fixtures.line("litellm-tool-calls.json"), Fixtures.line("litellm-failure.json")), Packing.PLAIN);
    new LiteLlmIngestor().parse(new InputFile(jsonLines), IngestOptions.defaults(), lines);
    assertThat(sink.records()).usingRecursiveFieldByFieldElementComparatorIgnoringFields("sourceFile", "sourceLine")
        .isEqualTo(lines.records());
    // a payload cut by the next one, one cut by the end of the file; the other lines are not payloads
    assertThat(sink.badLines()).containsExactly(273L, 286L);
    assertThat(sink.bad.get(0).reason()).contains("cut short by the next one");
    assertThat(sink.bad.get(1).reason()).contains("cut short at the end");
    assertThat(sink.skipped).as("uvicorn, LiteLLM and JSON log lines").isEqualTo(6);
  }

  /**
   * {@code --detailed_debug} prints each request body it receives, indented like a payload
   * (BerriAI/litellm, {@code verbose_proxy_logger.debug("Request received by LiteLLM:\\n{}"
   * .format(json.dumps(data, indent=4)))}): a prompt, never a logged call. Counted as bad with its
   * reason, never a record, in the printed log and in a JSON-lines file alike.
   */
  @Test
  void aRequestBodyTheProxyEchoesIsNoRecord() throws IOException {
    String body = """
        {
            "model": "chat-1m",
            "messages": [
                {
                    "role": "user",
                    "content": "Summarise the attached contract for the board."
                }
            ],
            "user": "user-38d308",
            "litellm_call_id": "0b6f9a57-3c1e-4f2a-9d1b-7a2c5e8f4d31",
            "metadata": {
                "user_api_key_org_id": "juniper-retail"
            }
        }
        """;
    Path file = Files.writeString(dir.resolve("litellm-debug.out"), Fixtures.text("litellm-stdout.log")
        + "17:52:40 - LiteLLM Proxy:DEBUG: proxy_server.py:3875 - Request received by LiteLLM:\n" + body);

    CollectingSink sink = parse(file, 0);

    assertThat(sink.records()).extracting(RequestRecord::requestId)
        .containsExactly("chatcmpl-3f9e8d7c6b5a49382716a5b4c3d2e1f0", "7d3f2a9c-51e4-4b8e-9f0a-2c6d1e8b4a57");
    assertThat(sink.bad).last().satisfies(bad -> assertThat(bad.reason()).contains("a request body")
        .contains("not a logged call"));

    CollectingSink lines = new CollectingSink();
    Path jsonLines = TestFiles.writeLines(dir.resolve("bodies.jsonl"),
        List.of(Fixtures.line("litellm-tool-calls.json"), body.replace("\n", "")), Packing.PLAIN);
    new LiteLlmIngestor().parse(new InputFile(jsonLines), IngestOptions.defaults(), lines);
    assertThat(lines.records()).hasSize(1);
    assertThat(lines.badLines()).containsExactly(2L);
    assertThat(lines.bad.getFirst().reason()).contains("a request body");
  }

  @Test
  void resumesAtTheFirstLineOfTheLastPayloadRead() throws IOException {
    Path file = stdout();

    assertThat(parse(file, 164).records()).extracting(RequestRecord::sourceLine).containsExactly(165L);
    // resumed inside a payload: its rest is not mistaken for one
    CollectingSink inside = parse(file, 100);
    assertThat(inside.records()).extracting(RequestRecord::sourceLine).containsExactly(165L);
    assertThat(inside.badLines()).containsExactly(273L, 286L);
  }
}
