package io.kvscope.index.store;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.OutputStreamIndexOutput;

/**
 * Lucene's file system directory, except that every file it creates is owner-only from its first
 * byte. Lucene opens new files with the process's umask (0644 on most systems) and segment files
 * hold prompt text; permissions tightened at the next commit leave them readable for seconds, which
 * matters wherever the index folder cannot itself be made owner-only (a shared, sticky folder).
 * Everything but creating files is Lucene's own.
 */
final class OwnerOnlyDirectory extends FilterDirectory {

  /** Lucene's own chunk size for file outputs. */
  private static final int BUFFER = 8192;

  private final Path dir;
  private final AtomicLong tempCounter = new AtomicLong();

  private OwnerOnlyDirectory(FSDirectory in) {
    super(in);
    this.dir = in.getDirectory();
  }

  static OwnerOnlyDirectory open(Path dir) throws IOException {
    return new OwnerOnlyDirectory(FSDirectory.open(dir));
  }

  @Override
  public IndexOutput createOutput(String name, IOContext context) throws IOException {
    ensureOpen();
    return create(name);
  }

  @Override
  public IndexOutput createTempOutput(String prefix, String suffix, IOContext context) throws IOException {
    ensureOpen();
    while (true) {
      try {
        return create(getTempFileName(prefix, suffix, tempCounter.getAndIncrement()));
      } catch (FileAlreadyExistsException taken) {
        // another file has that name: try the next
      }
    }
  }

  private IndexOutput create(String name) throws IOException {
    Path file = dir.resolve(name);
    var channel = Files.newByteChannel(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
        OwnerOnly.fileAttributes());
    return new OutputStreamIndexOutput("OwnerOnlyIndexOutput(path=\"" + file + "\")", name, Channels.newOutputStream(channel),
        BUFFER);
  }
}
