package io.kvscope.ingest.deployment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a saved snapshot (a {@code /metrics} scrape, a {@code /get_server_info} response) was taken,
 * if the file says: a UTC date and time in its name, as {@code curl ... >
 * metrics-$(date -u +%Y%m%dT%H%M%SZ).prom} writes ({@code 20260903T101500Z},
 * {@code 2026-09-03T10-15-00Z}, {@code 2026-09-03T10:15:00Z}). Otherwise only the file's modification
 * time is left, which copying or re-packing the file changes: callers say so when they use it.
 *
 * @param millis UTC epoch milliseconds
 * @param fromFileName true when the time came from the name, false when it is the modification time
 */
public record SnapshotTime(long millis, boolean fromFileName) {

  private static final Pattern NAME_TIME = Pattern.compile(
      "(?<!\\d)(\\d{4})-?(\\d{2})-?(\\d{2})T(\\d{2})[:-]?(\\d{2})[:-]?(\\d{2})Z(?![A-Za-z0-9])");

  /** The time named in {@code fileName}, or {@code null}. */
  public static Long fromName(String fileName) {
    if (fileName == null) {
      return null;
    }
    Matcher m = NAME_TIME.matcher(fileName);
    if (!m.find()) {
      return null;
    }
    try {
      return LocalDateTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
          Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), Integer.parseInt(m.group(6)))
          .toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (java.time.DateTimeException impossible) {
      return null;
    }
  }

  /**
   * A node name read from a snapshot's file name without the save time the name carries
   * ({@code sglang-prefill-a0-20260903T101500Z} is {@code sglang-prefill-a0}): the time says when
   * the file was saved, not which node it is about.
   */
  public static String withoutTime(String name) {
    Matcher m = NAME_TIME.matcher(name);
    if (!m.find()) {
      return name;
    }
    int start = m.start();
    while (start > 0 && "-_.@ ".indexOf(name.charAt(start - 1)) >= 0) {
      start--;
    }
    String rest = name.substring(m.end()).replaceFirst("^[-_.@ ]+", "");
    String without = name.substring(0, start) + (start > 0 && !rest.isEmpty() ? "-" : "") + rest;
    return without.isBlank() ? name : without;
  }

  /** The name's time, else the file's modification time (else now, for a file that vanished). */
  public static SnapshotTime of(Path file) {
    Path name = file.getFileName();
    Long named = fromName(name == null ? null : name.toString());
    if (named != null) {
      return new SnapshotTime(named, true);
    }
    try {
      return new SnapshotTime(Files.getLastModifiedTime(file).toMillis(), false);
    } catch (IOException unknown) {
      return new SnapshotTime(System.currentTimeMillis(), false);
    }
  }
}
