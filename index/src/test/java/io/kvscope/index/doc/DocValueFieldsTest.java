package io.kvscope.index.doc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.index.nodes.Epochs;
import io.kvscope.index.nodes.NodeClocks;
import io.kvscope.index.nodes.NodeIdentity;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.NodeActivity;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.record.VersionOrigin;
import io.kvscope.ingest.record.VersionRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The small documents the analysis reads whole (epochs, node hours, aliases, version records, node
 * clocks) read from doc values are the ones written and the ones their stored fields give: on an
 * index of several segments, with deleted documents and large stored texts between them.
 */
class DocValueFieldsTest {

  private static final List<String> NODES = List.of("sglang-prefill-a0", "sglang-prefill-a1", "sglang-decode-a0",
      "10.20.1.10:30000");

  @TempDir Path tmp;

  @Test
  void smallDocumentsReadFromDocValuesAreTheOnesWrittenAndTheStoredOnes() throws IOException {
    Random random = new Random(17);
    List<Ingested> kept = new ArrayList<>();
    NodeClocks.Learner clocks = new NodeClocks.Learner();
    Path dir = tmp.resolve("index");
    try (IndexStore store = IndexStore.open(dir)) {
      for (int segment = 0; segment < 4; segment++) {
        List<Ingested> written = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
          String node = NODES.get(random.nextInt(NODES.size()));
          long time = 1_788_000_000_000L + segment * 86_400_000L + i * 60_000L;
          Document copy = Documents.base(Schema.TYPE_TEXT_COPY, "copy-" + segment + "-" + i);
          Documents.text(copy, Schema.COPY_TEXT, "word ".repeat(200 + random.nextInt(4_000)) + i);
          store.put(copy); // stored texts between the small documents, in the same blocks
          Ingested item = switch (i % 4) {
            case 0 -> epoch(random, node, time, segment * 100 + i);
            case 1 -> new NodeActivity(node, NodeRole.values()[random.nextInt(NodeRole.values().length)],
                (segment * 100L + i) * NodeActivity.HOUR_MS, random.nextInt(5_000), "logs/" + node + ".log",
                segment * 100 + i); // one document per node and hour: each hour its own
            case 2 -> new NodeAlias(node, "10.20." + segment + "." + i + (random.nextBoolean() ? ":30000" : ""),
                AliasOrigin.values()[random.nextInt(AliasOrigin.values().length)], "deploy/pods.json", i);
            default -> new VersionRecord(node, random.nextBoolean(), random.nextBoolean() ? "sglang" : null,
                random.nextBoolean() ? "0.5." + random.nextInt(30) : null, random.nextBoolean() ? "lmsys/sglang:v0.5" : null,
                random.nextBoolean() ? time : null, random.nextBoolean() ? time + 3_600_000L : null,
                VersionOrigin.values()[random.nextInt(VersionOrigin.values().length)], "deploy/manifest.yaml",
                segment * 100 + i);
          };
          store.put(document(item));
          written.add(item);
          clocks.observe(node, "req-" + segment + "-" + i, time + random.nextInt(900), time);
        }
        for (int i = 0; i < written.size(); i += 7) {
          store.delete(Documents.idOf(written.get(i))); // deleted where they were written
        }
        for (int i = 0; i < written.size(); i++) {
          if (i % 7 != 0) {
            kept.add(written.get(i));
          }
        }
        if (segment == 3) {
          clocks.documents().forEach(doc -> {
            try {
              store.put(doc);
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          });
        }
        store.commit();
      }
    }
    try (FSDirectory directory = FSDirectory.open(dir); DirectoryReader reader = DirectoryReader.open(directory)) {
      assertThat(reader.leaves()).hasSizeGreaterThan(2);
      assertThat(reader.numDeletedDocs()).isPositive();

      List<ConfigEpoch> epochs = read(reader, Schema.TYPE_EPOCH, Documents::readEpoch);
      List<NodeActivity> hours = read(reader, Schema.TYPE_NODE_HOUR, Documents::readActivity);
      List<NodeAlias> aliases = read(reader, Schema.TYPE_NODE_ALIAS, Documents::readAlias);
      List<VersionRecord> versions = read(reader, Schema.TYPE_VERSION_RECORD, Documents::readVersionRecord);
      assertThat(epochs).containsExactlyInAnyOrderElementsOf(ofType(kept, ConfigEpoch.class));
      assertThat(hours).containsExactlyInAnyOrderElementsOf(ofType(kept, NodeActivity.class));
      assertThat(aliases).containsExactlyInAnyOrderElementsOf(ofType(kept, NodeAlias.class));
      assertThat(versions).containsExactlyInAnyOrderElementsOf(ofType(kept, VersionRecord.class));

      NodeIdentity identity = NodeIdentity.of(aliases, epochs);
      NodeClocks loaded = NodeClocks.load(reader, identity);
      assertThat(loaded.skews()).isNotEmpty();
      Epochs fromDocValues = Epochs.load(reader);
      Epochs fromStored = Epochs.of(epochs, aliases, versions, hours, loaded);
      assertThat(fromDocValues.all()).isNotEmpty().containsExactlyElementsOf(fromStored.all());
      assertThat(fromDocValues.setAside()).isEqualTo(fromStored.setAside());
      assertThat(fromDocValues.clocks().skews()).isEqualTo(loaded.skews());
      assertThat(NodeIdentity.load(reader).canonical("10.20.1.10:30000")).isEqualTo(identity.canonical("10.20.1.10:30000"));
    }
  }

  @Test
  void aDocumentIsReadForwardOnlyAndAFieldAsOftenAsAsked() throws IOException {
    Path dir = tmp.resolve("index");
    try (IndexStore store = IndexStore.open(dir)) {
      for (int i = 0; i < 3; i++) {
        store.put(Documents.activity(new NodeActivity("node-" + i, NodeRole.DECODE, i * NodeActivity.HOUR_MS, 10 + i,
            "n.log", i)));
      }
      store.commit();
    }
    try (FSDirectory directory = FSDirectory.open(dir); DirectoryReader reader = DirectoryReader.open(directory)) {
      DocValueFields values = new DocValueFields(reader.leaves().getFirst().reader());
      List<Object> seen = new ArrayList<>();
      values.at(1);
      seen.add(values.get(Schema.NODE));
      seen.add(values.get(Schema.NODE));
      seen.add(values.get(Schema.LINES));
      seen.add(values.get(Schema.PROMPT_TEXT));
      assertThat(seen).containsExactly("node-1", "node-1", 11L, null);
      assertThatThrownBy(() -> values.at(0)).isInstanceOf(IllegalArgumentException.class);
      assertThat(values.at(2).get(Schema.NODE)).isEqualTo("node-2");
    }
  }

  /** The documents of {@code type} read both ways: their doc values must give what their stored fields give. */
  private static <T> List<T> read(DirectoryReader reader, String type, Function<FieldValues, T> as) throws IOException {
    List<T> viaDocValues = new ArrayList<>();
    TypedDocs.forEachValues(reader, type, (values, doc) -> viaDocValues.add(as.apply(values)));
    List<T> viaStored = new ArrayList<>();
    TypedDocs.forEach(reader, type, doc -> viaStored.add(as.apply(FieldValues.of(doc))));
    assertThat(viaDocValues).as(type).isNotEmpty().containsExactlyElementsOf(viaStored);
    return viaDocValues;
  }

  private static <T> List<T> ofType(List<Ingested> items, Class<T> type) {
    return items.stream().filter(type::isInstance).map(type::cast).toList();
  }

  private static Document document(Ingested item) {
    return switch (item) {
      case ConfigEpoch e -> Documents.epoch(e);
      case NodeActivity a -> Documents.activity(a);
      case NodeAlias a -> Documents.alias(a);
      case VersionRecord v -> Documents.versionRecord(v);
      default -> throw new IllegalArgumentException(item.toString());
    };
  }

  /** Epochs of every shape the logs give: versions readable, unreadable and absent, flags set and not, snapshots. */
  private static ConfigEpoch epoch(Random random, String node, long start, int line) {
    String version = switch (random.nextInt(3)) {
      case 0 -> "0.5." + random.nextInt(30);
      case 1 -> "latest"; // no release: the epoch says what the log named
      default -> null;
    };
    Boolean[] flags = {null, true, false};
    boolean snapshot = random.nextInt(4) == 0;
    return new ConfigEpoch(node, snapshot ? NodeRole.UNKNOWN : NodeRole.values()[random.nextInt(NodeRole.values().length)],
        start, 600_000L + random.nextInt(200_000), random.nextBoolean() ? 1_048_576L : null,
        random.nextBoolean() ? 16 : null, snapshot ? null : version, random.nextBoolean() ? "Qwen/Qwen3-8B" : null,
        random.nextBoolean() ? "qwen3" : null, random.nextBoolean() ? "mooncake" : null, flags[random.nextInt(3)],
        flags[random.nextInt(3)], flags[random.nextInt(3)], snapshot ? ConfigEpoch.PROMETHEUS : "sglang-log",
        "logs/" + node + ".log", line);
  }
}
