package io.kvscope.ingest.engine;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/** Writes test log files the way the engines do: one line each, newline-terminated. */
public final class LogFiles {

  private LogFiles() {}

  public static Path write(Path dir, String name, List<String> lines) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    return file;
  }

  public static Path writeGzip(Path dir, String name, List<String> lines) throws IOException {
    Path file = dir.resolve(name);
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return file;
  }

  public static void touch(Path file, String isoInstant) throws IOException {
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse(isoInstant)));
  }

  public static long utc(String isoInstant) {
    return Instant.parse(isoInstant).toEpochMilli();
  }
}
