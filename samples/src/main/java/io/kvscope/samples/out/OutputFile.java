package io.kvscope.samples.out;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A file being written: owner-only permissions where the platform has them, the chosen codec,
 * and counts of raw bytes and lines.
 */
public final class OutputFile implements AutoCloseable {

  private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private final Path root;
  private final Path path;
  private final String format;
  private final Codec codec;
  private final Counting counting;
  private final OutputStream out;
  private long lines;
  private WrittenFile written;

  private static final class Counting extends FilterOutputStream {
    long count;

    Counting(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }
  }

  /** Opens {@code root/relative + codec extension}, creating parent directories owner-only. */
  public OutputFile(Path root, String relative, String format, Codec codec) throws IOException {
    this.root = root;
    this.path = root.resolve(relative + codec.extension());
    this.format = format;
    this.codec = codec;
    createDirectories(path.getParent());
    OutputStream raw = POSIX
        ? Files.newOutputStream(createOwnerOnly(path), StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)
        : Files.newOutputStream(path);
    counting = new Counting(codec.wrap(new BufferedOutputStream(raw, 1 << 16)));
    out = new BufferedOutputStream(counting, 1 << 18);
  }

  private static Path createOwnerOnly(Path p) throws IOException {
    Files.deleteIfExists(p);
    FileAttribute<?> attr = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    return Files.createFile(p, attr);
  }

  /** Creates {@code dir} and missing parents with mode 0700 where supported. */
  public static void createDirectories(Path dir) throws IOException {
    if (dir == null || Files.isDirectory(dir)) {
      return;
    }
    createDirectories(dir.getParent());
    if (POSIX) {
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } else {
      Files.createDirectory(dir);
    }
  }

  public OutputStream stream() {
    return out;
  }

  /** Writes one line's bytes (which must end in a newline). */
  public void line(byte[] bytes, int len) throws IOException {
    out.write(bytes, 0, len);
    lines++;
  }

  public Path path() {
    return path;
  }

  @Override
  public void close() throws IOException {
    if (written != null) {
      return;
    }
    out.close();
    String rel = root.relativize(path).toString().replace('\\', '/');
    written = new WrittenFile(rel, format, codec, counting.count, Files.size(path), lines);
  }

  public WrittenFile written() {
    if (written == null) {
      throw new IllegalStateException("file not closed yet: " + path.getFileName());
    }
    return written;
  }
}
