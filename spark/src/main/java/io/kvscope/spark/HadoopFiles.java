package io.kvscope.spark;

import io.kvscope.index.store.CaseKey;
import io.kvscope.index.store.IndexStore;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;

/**
 * Input files on any Hadoop file system ({@code file:}, {@code hdfs:}, {@code s3a:}, ...): listed on
 * the driver, and handed to kvscope's ingestors in tasks as local files. kvscope's readers take a
 * local path (a file's name names an engine log's node, its modification time dates vLLM lines), so
 * a file elsewhere is copied into an owner-only temporary folder under its own name and time first.
 */
final class HadoopFiles {

  private HadoopFiles() {}

  /** The driver's Hadoop settings (credentials of object stores among them) for tasks. */
  record Settings(Map<String, String> entries) implements Serializable {

    static Settings of(Configuration configuration) {
      Map<String, String> entries = new HashMap<>();
      configuration.forEach(entry -> entries.put(entry.getKey(), entry.getValue()));
      return new Settings(entries);
    }

    Configuration configuration() {
      Configuration configuration = new Configuration(false);
      entries.forEach(configuration::set);
      return configuration;
    }
  }

  /** Why a kvscope index found among the inputs is not read, in the words the plan gives for kvscope's own outputs. */
  static final String OWN_INDEX = "kvscope's own output (a kvscope index)";

  static List<PlannedFile> list(List<String> inputs, Configuration configuration) throws IOException {
    return list(inputs, null, configuration);
  }

  /**
   * The files under {@code inputs}, each input's files sorted by path. A file is named as the user
   * gave its input, extended by its path below it ({@code logs} -> {@code logs/gateway/a.jsonl}).
   * As the single-machine walk does, the walk leaves out the job's own output folder {@code out}
   * (may be null) and does not enter a kvscope index found among the inputs: such a folder is listed
   * once, skipped as kvscope's own output, since an old case's index is not evidence.
   *
   * @throws java.io.FileNotFoundException when an input does not exist
   */
  static List<PlannedFile> list(List<String> inputs, String out, Configuration configuration) throws IOException {
    List<PlannedFile> files = new ArrayList<>();
    for (String input : inputs) {
      org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(input);
      FileSystem fs = root.getFileSystem(configuration);
      FileStatus status = fs.getFileStatus(root);
      String rootUri = fs.makeQualified(root).toString();
      if (status.isFile()) {
        files.add(PlannedFile.listed(rootUri, input, status.getLen()));
        continue;
      }
      String given = input.endsWith("/") ? input.substring(0, input.length() - 1) : input;
      String outUri = out == null ? null : qualified(out, configuration);
      List<PlannedFile> found = new ArrayList<>();
      new Walk(fs, rootUri, given, outUri, found).folder(status);
      found.sort(Comparator.comparing(PlannedFile::name));
      files.addAll(found);
    }
    return files;
  }

  private static String qualified(String path, Configuration configuration) throws IOException {
    org.apache.hadoop.fs.Path folder = new org.apache.hadoop.fs.Path(path);
    return folder.getFileSystem(configuration).makeQualified(folder).toString();
  }

  /** One input folder's walk: its files, less the output folder and kvscope indexes. */
  private record Walk(FileSystem fs, String rootUri, String given, String outUri, List<PlannedFile> found) {

    void folder(FileStatus folder) throws IOException {
      String uri = folder.getPath().toString();
      if (uri.equals(outUri)) {
        return;
      }
      if (isKvscopeIndex(folder.getPath())) {
        found.add(PlannedFile.listed(uri, nameOf(uri), 0).skipped(OWN_INDEX));
        return;
      }
      for (FileStatus entry : fs.listStatus(folder.getPath())) {
        if (entry.isDirectory()) {
          folder(entry);
        } else if (entry.isFile()) {
          String file = entry.getPath().toString();
          found.add(PlannedFile.listed(file, nameOf(file), entry.getLen()));
        }
      }
    }

    private String nameOf(String uri) {
      return given + uri.substring(Math.min(uri.length(), rootUri.length()));
    }

    /**
     * On the local file system, the single-machine ingest's own test ({@link IndexStore#isKvscopeIndex}:
     * a case key, or a commit naming kvscope's fingerprint scheme); elsewhere, the case key, which
     * every kvscope index holds from its creation on and which reading a Lucene commit remotely would
     * only confirm.
     */
    private boolean isKvscopeIndex(org.apache.hadoop.fs.Path folder) throws IOException {
      URI location = folder.toUri();
      if ("file".equals(location.getScheme())) {
        return IndexStore.isKvscopeIndex(Path.of(location));
      }
      return fs.exists(new org.apache.hadoop.fs.Path(folder, CaseKey.FILE_NAME));
    }
  }

  /**
   * {@code uri} as a local file: the file itself on the local file system, else a copy of its first
   * {@code limit} bytes (all of it with {@link Long#MAX_VALUE}). Closing deletes a copy.
   */
  static LocalFile local(String uri, Settings settings, long limit) throws IOException {
    URI location = URI.create(uri);
    if ("file".equals(location.getScheme())) {
      return new LocalFile(Path.of(location), null);
    }
    org.apache.hadoop.fs.Path remote = new org.apache.hadoop.fs.Path(location);
    FileSystem fs = remote.getFileSystem(settings.configuration());
    Path folder = Files.createTempDirectory("kvscope-input-"); // owner-only (rwx------)
    Path copy = folder.resolve(remote.getName());
    try (InputStream in = fs.open(remote); OutputStream out = Files.newOutputStream(copy)) {
      copy(in, out, limit);
      Files.setLastModifiedTime(copy, FileTime.fromMillis(fs.getFileStatus(remote).getModificationTime()));
    } catch (IOException | RuntimeException e) {
      new LocalFile(copy, folder).close();
      throw e;
    }
    return new LocalFile(copy, folder);
  }

  /**
   * Bytes {@code from} to {@code from + length} of {@code uri}, read where the file lies (no copy).
   *
   * @throws IOException when they cannot be read (the file is gone, or now ends before them)
   */
  static byte[] range(String uri, Settings settings, long from, int length) throws IOException {
    URI location = URI.create(uri);
    byte[] bytes = new byte[length];
    if ("file".equals(location.getScheme())) {
      try (FileChannel channel = FileChannel.open(Path.of(location))) {
        ByteBuffer into = ByteBuffer.wrap(bytes);
        while (into.hasRemaining()) {
          if (channel.read(into, from + into.position()) < 0) {
            throw new EOFException("ends before byte " + (from + length));
          }
        }
      }
      return bytes;
    }
    org.apache.hadoop.fs.Path remote = new org.apache.hadoop.fs.Path(location);
    FileSystem fs = remote.getFileSystem(settings.configuration());
    try (FSDataInputStream in = fs.open(remote)) {
      in.readFully(from, bytes);
    }
    return bytes;
  }

  private static void copy(InputStream in, OutputStream out, long limit) throws IOException {
    byte[] buffer = new byte[1 << 16];
    long left = limit;
    int n;
    while (left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) > 0) {
      out.write(buffer, 0, n);
      left -= n;
    }
  }

  /** A local file to read; {@code copyFolder} is the temporary folder of a copy, else {@code null}. */
  record LocalFile(Path path, Path copyFolder) implements AutoCloseable {
    @Override
    public void close() throws IOException {
      if (copyFolder != null) {
        Files.deleteIfExists(path);
        Files.deleteIfExists(copyFolder);
      }
    }
  }
}
