package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway kvscope has never seen, mapped from docs/mapping.md alone: the example mapping is taken
 * from the page as printed, the log lines are written in the shape its pointers describe, and every
 * mapped field must arrive in the index where a search finds it.
 */
class MappingDocTest {

  /** The page, read from the source tree (tests run in the module folder). */
  private static final Path PAGE = Path.of("..", "docs", "mapping.md");

  @Test
  void theDocumentedExampleMapsACustomGatewayFieldByField(@TempDir Path tmp) throws Exception {
    String page = Files.readString(PAGE);
    String section = page.substring(page.indexOf("## The file"));
    String mapping = section.substring(section.indexOf("```json\n") + 8, section.indexOf("```", section.indexOf("```json\n") + 8));
    Path mappingFile = Files.writeString(tmp.resolve("my-gateway.json"), mapping);
    Path logs = Files.createDirectories(tmp.resolve("logs"));
    // Two lines in the shape the example's pointers describe: ids, tenant, times in ms (the example's unit),
    // status, token counts, chat messages as the prompt, text as the reply.
    Files.write(logs.resolve("gateway.jsonl"), List.of(
        line("gw-1", "chatcmpl-0a1b2c3d", "acme", 1787824800125L, 200, 12, "Where is my parcel 4411?", "On its way."),
        line("gw-2", "chatcmpl-9f8e7d6c", "globex", 1787824860250L, 429, 30, "Summarise the memo.", "")));
    Path index = tmp.resolve("index");

    CliTestSupport.Run ingest = CliTestSupport.run("ingest", logs.toString(), "--index", index.toString(),
        "--mapping", mappingFile.toString());

    assertThat(ingest.exitCode()).as(ingest.err()).isZero();
    assertThat(ingest.out()).containsPattern("custom-jsonl\\s+2 records");
    assertThat(search(index, "request_id:gw-1 AND engine_rid:0a1b2c3d AND tenant:acme AND status_code:200"
        + " AND prompt_tokens:12 AND completion_tokens:5")).contains("1 match");
    assertThat(search(index, "start_time:[2026-08-27T10:00:00Z TO 2026-08-27T10:00:01Z]")).contains("1 match")
        .contains("gw-1");
    assertThat(search(index, "end_time:[2026-08-27T10:01:01Z TO 2026-08-27T10:01:02Z] AND status_code:429"))
        .contains("1 match").contains("gw-2");
    CliTestSupport.Run revealed = CliTestSupport.run("search", "--index", index.toString(), "request_id:gw-1", "--reveal");
    assertThat(revealed.out()).contains("Where is my parcel 4411?");
    assertThat(search(index, "response_text:\"its way\" AND request_id:gw-1")).contains("1 match");
  }

  private static String search(Path index, String query) {
    CliTestSupport.Run run = CliTestSupport.run("search", "--index", index.toString(), query);
    assertThat(run.exitCode()).as(run.err()).isZero();
    return run.out();
  }

  private static String line(String id, String responseId, String org, long startMs, int status, int in, String prompt,
      String reply) {
    return "{\"req\":{\"id\":\"" + id + "\"},\"upstream\":{\"response_id\":\"" + responseId + "\"},\"auth\":{\"org\":\""
        + org + "\"},\"timing\":{\"start\":" + startMs + ",\"end\":" + (startMs + 1000) + "},\"http\":{\"status\":" + status
        + "},\"usage\":{\"in\":" + in + ",\"out\":5},\"body\":{\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt
        + "\"}]},\"reply\":{\"text\":\"" + reply + "\"}}";
  }
}
