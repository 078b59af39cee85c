package io.kvscope.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Heap figures from a unified GC log ({@code -Xlog:gc*:file=...}): every collection line reads
 * {@code used-before->used-after(committed)}.
 *
 * @param peakUsedMb the most heap ever in use (just before a collection): what the run needed
 *     with garbage included, bounded by {@code -Xmx}
 * @param peakLiveMb the most heap still in use right after a collection: an upper bound of the
 *     live data, the figure that should stay flat as input grows
 * @param peakCommittedMb the most heap the JVM reserved from the OS
 * @param collections collections logged
 * @param pauseSeconds total stop-the-world pause time
 */
public record GcLog(double peakUsedMb, double peakLiveMb, double peakCommittedMb, int collections, double pauseSeconds) {

  private static final Pattern GC_TAG = Pattern.compile("\\[gc\\s*\\]");
  private static final Pattern HEAP = Pattern.compile(
      "Pause .*? (\\d+)([KMG])->(\\d+)([KMG])\\((\\d+)([KMG])\\)(?: (\\d+\\.\\d+)ms)?");

  public static GcLog read(Path file) throws IOException {
    double used = 0;
    double live = 0;
    double committed = 0;
    int collections = 0;
    double pauseMs = 0;
    try (Stream<String> lines = Files.lines(file)) {
      for (String line : (Iterable<String>) lines::iterator) {
        if (!GC_TAG.matcher(line).find()) {
          continue; // only the one summary line per collection, tagged [gc] alone
        }
        Matcher m = HEAP.matcher(line);
        if (!m.find()) {
          continue;
        }
        collections++;
        used = Math.max(used, mb(m.group(1), m.group(2)));
        live = Math.max(live, mb(m.group(3), m.group(4)));
        committed = Math.max(committed, mb(m.group(5), m.group(6)));
        if (m.group(7) != null) {
          pauseMs += Double.parseDouble(m.group(7));
        }
      }
    }
    return new GcLog(used, live, committed, collections, pauseMs / 1000);
  }

  private static double mb(String value, String unit) {
    double v = Double.parseDouble(value);
    return switch (unit) {
      case "K" -> v / 1024;
      case "G" -> v * 1024;
      default -> v;
    };
  }
}
