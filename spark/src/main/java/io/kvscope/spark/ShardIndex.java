package io.kvscope.spark;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.join.BootstrapHosts;
import io.kvscope.index.store.CaseKey;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.NodeAlias;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * The driver's end of the shards: one kvscope index of them all, which the analysis, {@code kvscope
 * search} and {@code kvscope gui} open as they open an ingest's. It adds what the single-machine
 * ingest learns after its files are read: the node names the requests reveal ({@link BootstrapHosts})
 * and each node's clock, as stage 7 learned them.
 */
final class ShardIndex {

  /** The index folder under the job's output folder. */
  static final String FOLDER = "index";

  private ShardIndex() {}

  /**
   * Builds the index at {@code index} from {@code shards} (names under {@code out/shards}). An index
   * an earlier run left there is emptied first, keeping its case key, so that a case's redacted
   * values stay the same from run to run.
   */
  static void build(Configuration hadoop, String out, List<String> shards, ReachStage.Nodes nodes, Path index)
      throws IOException {
    emptyEarlierIndex(index);
    org.apache.hadoop.fs.Path folder = new org.apache.hadoop.fs.Path(out + "/" + ShardStage.FOLDER);
    FileSystem fs = folder.getFileSystem(hadoop);
    Path copies = null;
    List<Directory> directories = new ArrayList<>();
    try (IndexStore store = IndexStore.open(index)) {
      for (String shard : shards) {
        org.apache.hadoop.fs.Path remote = new org.apache.hadoop.fs.Path(folder, shard);
        Path local;
        if ("file".equals(fs.getScheme())) {
          local = Path.of(fs.makeQualified(remote).toUri());
        } else { // a shard on a remote file system is read from a local copy
          copies = copies == null ? Files.createTempDirectory("kvscope-shards-") : copies;
          local = copies.resolve(shard);
          fs.copyToLocalFile(false, remote, new org.apache.hadoop.fs.Path(local.toUri()), true);
        }
        directories.add(FSDirectory.open(local));
      }
      store.addIndexes(directories.toArray(Directory[]::new));
      store.commit();
      List<NodeAlias> learned;
      try (DirectoryReader reader = store.openReader()) {
        learned = BootstrapHosts.learn(reader);
      }
      for (NodeAlias alias : learned) {
        store.put(Documents.of(alias));
      }
      for (Document clock : nodes.learned().documents()) {
        store.put(clock);
      }
      store.commit();
    } finally {
      for (Directory directory : directories) {
        directory.close();
      }
      if (copies != null) {
        Stages.deleteTree(copies);
      }
    }
  }

  /** Whether {@code out} is on this machine's file system, where the index can be written beside the shards. */
  static boolean local(String out) {
    String scheme = java.net.URI.create(out.replace('\\', '/').replace(" ", "%20")).getScheme();
    return scheme == null || scheme.equals("file") || scheme.length() == 1; // a Windows drive letter
  }

  /** Where the index of the job's output folder {@code out} goes (when {@link #local}). */
  static Path folderOf(String out) {
    return (out.startsWith("file:") ? Path.of(java.net.URI.create(out)) : Path.of(out)).resolve(FOLDER);
  }

  private static void emptyEarlierIndex(Path index) throws IOException {
    if (!Files.isDirectory(index) || !IndexStore.isKvscopeIndex(index)) {
      return; // new, or not an index: IndexStore.open refuses a folder with anything else in it
    }
    try (Stream<Path> entries = Files.list(index)) {
      for (Path entry : entries.filter(p -> !p.getFileName().toString().equals(CaseKey.FILE_NAME)).toList()) {
        Stages.deleteTree(entry);
      }
    }
  }
}
