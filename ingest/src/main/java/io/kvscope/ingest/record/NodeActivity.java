package io.kvscope.ingest.record;

/**
 * How many log lines a node wrote in one UTC hour. Analyzers use it to find coverage gaps (hours
 * with no engine logs) without keeping every line.
 */
public record NodeActivity(String node, NodeRole role, long hourStart, long lines, String sourceFile, long sourceLine)
    implements Ingested {

  public static final long HOUR_MS = 3_600_000L;

  public NodeActivity {
    if (node == null || node.isBlank()) {
      throw new IllegalArgumentException("node activity needs a node");
    }
    if (hourStart % HOUR_MS != 0) {
      throw new IllegalArgumentException("hourStart must be on an hour boundary: " + hourStart);
    }
    if (role == null) {
      role = NodeRole.UNKNOWN;
    }
  }
}
