package io.kvscope.samples.text;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A corpus of real questions with real models' answers, one JSON object a line, plain or zstd:
 * {@code {"id", "set", "topic", "turns": [...], "answers": {"model": [reply per turn]}}}. Read at
 * generation time and never copied anywhere but into the generated incident. A line that is not
 * such an object, or whose answers do not cover every turn, is skipped and counted.
 */
public final class CorpusFile {

  /** One corpus line: the user's turns and, per model (sorted by name), one reply per turn. */
  public record Entry(String id, String set, String topic, List<String> turns, Map<String, List<String>> answers) {}

  private final Path path;
  private final List<Entry> entries;
  private final int skipped;

  private CorpusFile(Path path, List<Entry> entries, int skipped) {
    this.path = path;
    this.entries = List.copyOf(entries);
    this.skipped = skipped;
  }

  /** Reads the whole corpus (a few megabytes); fails when no usable line is in it. */
  public static CorpusFile read(Path path) throws IOException {
    ObjectMapper mapper = new ObjectMapper(JsonFactory.builder().build());
    List<Entry> entries = new ArrayList<>();
    int skipped = 0;
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(open(path), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        Entry entry = parse(mapper, line);
        if (entry == null) {
          skipped++;
        } else {
          entries.add(entry);
        }
      }
    }
    if (entries.isEmpty()) {
      throw new IOException(path + ": no corpus line with turns and answers (expected JSON lines with"
          + " \"turns\" and \"answers\")");
    }
    return new CorpusFile(path, entries, skipped);
  }

  private static InputStream open(Path path) throws IOException {
    InputStream in = new BufferedInputStream(Files.newInputStream(path));
    in.mark(4);
    byte[] magic = in.readNBytes(4);
    in.reset();
    boolean zstd = magic.length == 4 && (magic[0] & 0xff) == 0x28 && (magic[1] & 0xff) == 0xb5
        && (magic[2] & 0xff) == 0x2f && (magic[3] & 0xff) == 0xfd;
    return zstd ? new ZstdInputStream(in) : in;
  }

  private static Entry parse(ObjectMapper mapper, String line) {
    JsonNode node;
    try (JsonParser parser = mapper.createParser(line)) {
      node = mapper.readTree(parser);
    } catch (IOException notJson) {
      return null;
    }
    if (node == null || !node.isObject() || !node.path("turns").isArray() || !node.path("answers").isObject()) {
      return null;
    }
    List<String> turns = new ArrayList<>();
    node.path("turns").forEach(t -> turns.add(t.asText("")));
    if (turns.isEmpty() || turns.stream().anyMatch(String::isBlank)) {
      return null;
    }
    Map<String, List<String>> answers = new TreeMap<>();
    node.path("answers").properties().forEach(e -> {
      List<String> replies = new ArrayList<>();
      e.getValue().forEach(r -> replies.add(r.asText("")));
      if (replies.size() >= turns.size() && replies.stream().limit(turns.size()).noneMatch(String::isBlank)) {
        answers.put(e.getKey(), List.copyOf(replies.subList(0, turns.size())));
      }
    });
    if (answers.isEmpty()) {
      return null;
    }
    return new Entry(node.path("id").asText(""), node.path("set").asText(""), node.path("topic").asText(""),
        List.copyOf(turns), answers);
  }

  public Path path() {
    return path;
  }

  /** Usable lines, in file order. */
  public List<Entry> entries() {
    return entries;
  }

  /** Lines skipped as unusable (not JSON, no turns, no model answering every turn). */
  public int skipped() {
    return skipped;
  }
}
