package io.kvscope.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@code /usr/bin/time -v} says about a finished process.
 *
 * @param wallSeconds elapsed wall-clock time
 * @param userSeconds CPU time in user mode, all threads
 * @param systemSeconds CPU time in the kernel
 * @param maxRssKb peak resident set size
 * @param exitStatus the process's exit status
 */
public record TimeReport(double wallSeconds, double userSeconds, double systemSeconds, long maxRssKb, int exitStatus) {


  public static TimeReport read(Path file) throws IOException {
    double wall = Double.NaN;
    double user = Double.NaN;
    double system = Double.NaN;
    long rss = -1;
    int exit = -1;
    for (String line : Files.readAllLines(file)) {
      String trimmed = line.trim();
      int colon = trimmed.lastIndexOf(": ");
      if (colon < 0) {
        continue;
      }
      String key = trimmed.substring(0, colon);
      String value = trimmed.substring(colon + 2).trim();
      if (key.startsWith("Elapsed (wall clock) time")) {
        wall = clock(value);
      } else if (key.equals("User time (seconds)")) {
        user = Double.parseDouble(value);
      } else if (key.equals("System time (seconds)")) {
        system = Double.parseDouble(value);
      } else if (key.equals("Maximum resident set size (kbytes)")) {
        rss = Long.parseLong(value);
      } else if (key.equals("Exit status")) {
        exit = Integer.parseInt(value);
      }
    }
    return new TimeReport(wall, user, system, rss, exit);
  }

  /** {@code h:mm:ss} or {@code m:ss.ss}. */
  static double clock(String value) {
    String[] parts = value.split(":");
    double seconds = 0;
    for (String part : parts) {
      seconds = seconds * 60 + Double.parseDouble(part);
    }
    return seconds;
  }

  public double cpuSeconds() {
    return userSeconds + systemSeconds;
  }

}
