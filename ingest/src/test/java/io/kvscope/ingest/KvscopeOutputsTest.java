package io.kvscope.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.arrow.CanonicalArrowWriter;
import io.kvscope.ingest.record.RequestRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KvscopeOutputsTest {

  @TempDir Path dir;

  private Optional<String> recognise(String name, String content) throws Exception {
    Path file = Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    return KvscopeOutputs.recognise(new InputFile(file).sniff());
  }

  @Test
  void kvscopesOwnShapesAreRecognisedWhateverTheirName() throws Exception {
    assertThat(recognise("a.log", "{\n  \"report_version\" : \"1.0\",\n  \"generated_at\" : null\n}\n")).isPresent();
    assertThat(recognise("b.jsonl", "{\"truth_version\":3,\"generator\":{}}")).isPresent();
    assertThat(recognise("c.txt", "{\"kvscope_export\":\"selection\",\"filter\":{}}")).isPresent();
    assertThat(recognise("d.jsonl", "{\"file\":\"gw.jsonl\",\"line\":7,\"reason\":\"not valid JSON\",\"raw\":\"{\\\"id\\\"\"}\n"))
        .isPresent();
    assertThat(recognise("e.md", "# kvscope incident report\n\nGenerated ...")).isPresent();
    assertThat(recognise("f.md", "# Data exposure notification for `acme`\n")).isPresent();
    assertThat(recognise("g.csv", "id,kind,confidence,request_id,engine_rid,tenant,time\r\n")).isPresent();
    assertThat(recognise("h.html", "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        + KvscopeOutputs.HTML_GENERATOR_TAG + "\n")).isPresent();
  }

  @Test
  void evidenceIsNotRecognised() throws Exception {
    assertThat(recognise("litellm.jsonl", "{\"id\":\"chatcmpl-1\",\"call_type\":\"acompletion\",\"report_version\":\"1\"}")).isEmpty();
    assertThat(recognise("spans.json", "{\"resourceSpans\":[]}")).isEmpty();
    assertThat(recognise("node.log", "[2026-08-27 10:00:00 TP0] server_args=ServerArgs(...)\n")).isEmpty();
    assertThat(recognise("custom.jsonl", "{\"file\":\"x\",\"reason\":\"y\"}")).isEmpty();
    assertThat(recognise("notes.md", "# Incident notes\n")).isEmpty();
    assertThat(recognise("page.html", "<!DOCTYPE html>\n<title>kvscope incident report</title>")).isEmpty();
    // Canonical request records in Arrow are an input format, not an output.
    Path arrow = dir.resolve("records.arrow");
    try (CanonicalArrowWriter out = new CanonicalArrowWriter(arrow)) {
      out.write(RequestRecord.builder("req-1").tenant("acme").sourceFile("x").sourceLine(1).build());
    }
    assertThat(KvscopeOutputs.recognise(new InputFile(arrow).sniff())).isEmpty();
  }
}
