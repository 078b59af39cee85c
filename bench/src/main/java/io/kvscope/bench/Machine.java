package io.kvscope.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the benchmark ran on: needed to compare any two results files. */
final class Machine {

  private Machine() {}

  static Map<String, Object> describe() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cpu", firstValue(Path.of("/proc/cpuinfo"), "model name"));
    m.put("cores", Runtime.getRuntime().availableProcessors());
    String memKb = firstValue(Path.of("/proc/meminfo"), "MemTotal");
    m.put("memory_gb", memKb == null ? null : Math.round(Long.parseLong(memKb.replaceAll("[^0-9]", "")) / 1048576.0 * 10) / 10.0);
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    m.put("load_average_at_start", loadAverage());
    return m;
  }

  /** The 1-minute load average: on a shared machine, other work inflates wall times. */
  static Double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException unavailable) {
      return null;
    }
  }

  private static String firstValue(Path file, String key) {
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith(key)) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException unavailable) {
      // not Linux: leave it out
    }
    return null;
  }
}
