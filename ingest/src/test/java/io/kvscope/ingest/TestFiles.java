package io.kvscope.ingest;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** Writes test inputs in their real packings and damages them the way real files get damaged. */
public final class TestFiles {

  private TestFiles() {}

  public enum Packing { PLAIN, GZIP, ZSTD }

  /** Writes {@code lines}, each followed by {@code \n}, packed as asked. */
  public static Path writeLines(Path file, List<String> lines, Packing packing) throws IOException {
    StringBuilder text = new StringBuilder();
    for (String line : lines) {
      text.append(line).append('\n');
    }
    return write(file, text.toString().getBytes(StandardCharsets.UTF_8), packing);
  }

  public static Path write(Path file, byte[] content, Packing packing) throws IOException {
    try (OutputStream out = pack(Files.newOutputStream(file), packing)) {
      out.write(content);
    }
    return file;
  }

  public static OutputStream pack(OutputStream raw, Packing packing) throws IOException {
    return switch (packing) {
      case PLAIN -> raw;
      case GZIP -> new GZIPOutputStream(raw);
      case ZSTD -> new ZstdOutputStream(raw);
    };
  }

  /** Cuts {@code file} to {@code fraction} of its bytes, as an interrupted copy would. */
  public static void truncate(Path file, double fraction) throws IOException {
    byte[] all = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(all, (int) (all.length * fraction)));
  }

  /**
   * The decompressed bytes a truncated gzip file still yields, read one byte at a time straight
   * from the JDK's decoder: an independent account of what was recoverable.
   */
  public static byte[] recoverableGzipPrefix(Path file) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
      int b;
      while ((b = in.read()) >= 0) {
        out.write(b);
      }
    } catch (IOException damaged) {
      // expected at the cut
    }
    return out.toByteArray();
  }

  /** How many complete ({@code \n}-terminated) lines {@code bytes} holds. */
  public static int completeLines(byte[] bytes) {
    int count = 0;
    for (byte b : bytes) {
      if (b == '\n') {
        count++;
      }
    }
    return count;
  }
}
