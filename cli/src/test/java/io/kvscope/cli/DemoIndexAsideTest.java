package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.store.IndexStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvscope demo} run again over an index an earlier kvscope built: the old one is kept aside, a new one built. */
class DemoIndexAsideTest {

  @TempDir Path dir;

  @Test
  void anIndexThisKvscopeCannotAddToIsMovedAsideWhole() throws Exception {
    Path index = dir.resolve("index");
    // As builds before this one wrote the texts: with Lucene's length norms.
    try (IndexWriter writer = new IndexWriter(FSDirectory.open(index), new IndexWriterConfig())) {
      Document doc = new Document();
      doc.add(new TextField("prompt_text", "an earlier demo's prompt", Field.Store.YES));
      writer.addDocument(doc);
      writer.commit();
    }
    List<String> files = names(index);
    ByteArrayOutputStream said = new ByteArrayOutputStream();

    DemoCommand.setAsideIfIncompatible(index, new PrintStream(said, true, StandardCharsets.UTF_8));

    assertThat(index).doesNotExist();
    List<Path> aside;
    try (Stream<Path> siblings = Files.list(dir)) {
      aside = siblings.filter(p -> p.getFileName().toString().startsWith("index-older-")).toList();
    }
    assertThat(aside).hasSize(1);
    assertThat(names(aside.getFirst())).isEqualTo(files);
    assertThat(said.toString(StandardCharsets.UTF_8)).contains("kept at " + aside.getFirst());
    try (IndexStore fresh = IndexStore.open(index)) {
      assertThat(fresh.path()).isEqualTo(index);
    }

    ByteArrayOutputStream again = new ByteArrayOutputStream();
    DemoCommand.setAsideIfIncompatible(index, new PrintStream(again, true, StandardCharsets.UTF_8));
    assertThat(index).isDirectory();
    assertThat(again.toString(StandardCharsets.UTF_8)).as("an index this kvscope built stays").isEmpty();
  }

  private static List<String> names(Path folder) throws Exception {
    try (Stream<Path> files = Files.list(folder)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
