package io.kvscope.analysis.report;

import io.kvscope.index.store.OwnerOnly;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Streams a file into a temporary owner-only sibling and renames it over the target only once it
 * is complete, so a reader sees the old file or the new one, never half of one; a failed write
 * leaves no temporary file behind.
 */
public final class AtomicFile {

  /** Writes the body of a file. */
  @FunctionalInterface
  public interface Body<T> {
    void write(T out) throws IOException;
  }

  private AtomicFile() {}

  public static Path write(Path target, Body<OutputStream> body) throws IOException {
    Path parent = target.toAbsolutePath().getParent();
    OwnerOnly.directory(parent);
    Path temp = Files.createTempFile(parent, "." + target.getFileName() + ".", ".tmp", OwnerOnly.fileAttributes());
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        OutputStream out = new java.io.BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
        // Bodies may close what they were given (Jackson, Arrow do); the channel must stay open
        // until it has been forced.
        body.write(nonClosing(out));
        out.flush();
        // Durable before it becomes visible: a crash must not leave an empty report in place.
        channel.force(true);
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return OwnerOnly.file(target);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  static Path writeText(Path target, Body<Writer> body) throws IOException {
    return write(target, out -> {
      Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
      body.write(writer);
      writer.flush();
    });
  }

  private static OutputStream nonClosing(OutputStream out) {
    return new java.io.FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        out.flush();
      }
    };
  }
}
