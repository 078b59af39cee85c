package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plain file's spans are read by the parsing task after the reading task passed them: a log that
 * grew in between (a live gateway still writing) is read as it was, and one rewritten or cut short
 * under a span is refused rather than parsed as other lines.
 */
class FanOutSpanTest {

  private static final HadoopFiles.Settings LOCAL = HadoopFiles.Settings.of(new Configuration());

  @Test
  void aLogThatGrewIsReadAsItWasAndOneRewrittenIsRefused(@TempDir Path dir) throws IOException {
    Path log = dir.resolve("litellm.jsonl");
    List<String> written = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      String line = "{\"id\": \"req-" + i + "\", \"model\": \"m\", \"text\": \"" + "word ".repeat(i % 17) + "\"}";
      written.add(line);
      text.append(line).append(i % 3 == 0 ? "\r\n" : "\n");
    }
    Files.writeString(log, text, StandardCharsets.UTF_8);
    PlannedFile file = PlannedFile.listed(log.toUri().toString(), log.toString(), Files.size(log))
        .detected("litellm");
    List<FanOut.Span> spans = new ArrayList<>();
    FanOut.read(file, LOCAL, 2_000, piece -> {
      if (piece instanceof FanOut.Span span) {
        spans.add(span);
      }
    });
    assertThat(spans).hasSizeGreaterThan(3);
    assertThat(lines(spans)).isEqualTo(written);

    Files.writeString(log, "{\"id\": \"written later\"}\n", StandardOpenOption.APPEND);
    assertThat(lines(spans)).as("grown since it was read").isEqualTo(written);

    byte[] bytes = Files.readAllBytes(log);
    FanOut.Span second = spans.get(1);
    int inside = (int) (second.from() + second.to()) / 2;
    bytes[inside] = (byte) (bytes[inside] == 'x' ? 'y' : 'x');
    Files.write(log, bytes);
    assertThatThrownBy(() -> second.lines(LOCAL)).isInstanceOf(IOException.class).hasMessageContaining("changed");
    assertThat(spans.get(0).lines(LOCAL)).as("a span before the change").isNotEmpty();

    Files.write(log, java.util.Arrays.copyOf(bytes, (int) second.from()));
    assertThatThrownBy(() -> second.lines(LOCAL)).isInstanceOf(IOException.class);
  }

  private static List<String> lines(List<FanOut.Span> spans) throws IOException {
    List<String> lines = new ArrayList<>();
    for (FanOut.Span span : spans) {
      lines.addAll(span.lines(LOCAL));
    }
    return lines;
  }
}
