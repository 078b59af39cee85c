package io.kvscope.ingest.record;

import java.util.List;

/**
 * Where an epoch's engine version came from: the record's kind, a short detail (the image it was
 * read from, say) and the file and line to show.
 */
public record VersionSource(VersionOrigin origin, String detail, String sourceFile, long sourceLine,
    List<String> disagreeing) {

  /**
   * @param disagreeing the versions other records covering the same epoch claim (as they wrote
   *     them): a conflict that must be shown, and that keeps a window open when any of them is unpatched
   */
  public VersionSource {
    if (origin == null) {
      throw new IllegalArgumentException("a version source needs its origin");
    }
    disagreeing = disagreeing == null ? List.of() : List.copyOf(disagreeing);
  }

  public VersionSource(VersionOrigin origin, String detail, String sourceFile, long sourceLine) {
    this(origin, detail, sourceFile, sourceLine, List.of());
  }

  /** Whether the record dated what it says; see {@link VersionOrigin#dated()}. */
  public boolean dated() {
    return origin.dated();
  }

  /** "Kubernetes pod status, image lmsysorg/sglang:v0.5.19-cu126 (pods.json:40)". */
  public String describe() {
    return origin.description() + (detail == null ? "" : ", " + detail)
        + (sourceFile == null ? "" : " (" + sourceFile + (sourceLine > 0 ? ":" + sourceLine : "") + ")");
  }
}
