package io.kvscope.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;

/**
 * One of the requests' shards (stage 9) opened in a task, for the texts of the requests it holds,
 * stored as the index stores them. A shard on a remote file system is read from a local
 * owner-only copy, which closing deletes.
 */
final class ShardTexts implements AutoCloseable {

  private final Path copy;
  private final FSDirectory directory;
  private final DirectoryReader reader;
  private final RequestDocs requests;

  private ShardTexts(Path copy, FSDirectory directory, DirectoryReader reader) throws IOException {
    this.copy = copy;
    this.directory = directory;
    this.reader = reader;
    this.requests = new RequestDocs(reader);
  }

  /** The requests' shard {@code shard} (a partition of stage 9) of the job's output folder {@code out}. */
  static ShardTexts open(String out, int shard, HadoopFiles.Settings hadoop) throws IOException {
    org.apache.hadoop.fs.Path remote = new org.apache.hadoop.fs.Path(out + "/" + ShardStage.FOLDER,
        ShardStage.requestShard(shard));
    FileSystem fs = remote.getFileSystem(hadoop.configuration());
    Path copy = null;
    Path local;
    if ("file".equals(fs.getScheme())) {
      local = Path.of(fs.makeQualified(remote).toUri());
    } else {
      copy = Files.createTempDirectory("kvscope-shard-"); // owner-only (rwx------)
      local = copy.resolve(remote.getName());
      fs.copyToLocalFile(false, remote, new org.apache.hadoop.fs.Path(local.toUri()), true);
    }
    FSDirectory directory = null;
    try {
      directory = FSDirectory.open(local);
      return new ShardTexts(copy, directory, DirectoryReader.open(directory));
    } catch (IOException | RuntimeException e) {
      if (directory != null) {
        directory.close();
      }
      if (copy != null) {
        Stages.deleteTree(copy);
      }
      throw e;
    }
  }

  /** The text {@code field} of the request under merge key {@code key}, or null when it has none. */
  String text(String key, String field) throws IOException {
    int doc = requests.docOf(key, "merge key " + key.hashCode());
    if (doc == -1) {
      throw new IllegalStateException("a request of the pairs is not in its shard (merge key hash " + key.hashCode()
          + "); the shards and the pairs are of different runs");
    }
    return reader.storedFields().document(doc, Set.of(field)).get(field);
  }

  @Override
  public void close() throws IOException {
    try {
      reader.close();
      directory.close();
    } finally {
      if (copy != null) {
        Stages.deleteTree(copy);
      }
    }
  }
}
