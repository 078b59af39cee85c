package io.kvscope.ingest.record;

/**
 * A deployment record's word on which engine release a node ran, and when (wall-clock UTC ms, as
 * the Kubernetes API server or the operator wrote it; node log clocks may be skewed from it).
 * No SGLang log line carries the version, so without such a record a node's version is unknown.
 *
 * @param node the node as the record names it (a pod name, an address, a manifest's node), or for
 *     {@code workload} records the Deployment or StatefulSet whose pods it covers
 * @param workload true when {@code node} names a workload: the record covers the pods named
 *     {@code <node>-<ordinal>} (StatefulSet) or {@code <node>-<hash>-<suffix>} (Deployment)
 * @param engine {@code sglang} or {@code vllm} when the record tells, else {@code null}
 * @param version the release number ({@code 0.5.19}); {@code null} when the record names the node
 *     but shows no release (an image tagged {@code latest}, say): the version stays unknown, and
 *     the record is cited when kvscope says so
 * @param image the container image reference the version was read from, or {@code null}
 * @param from start of what the record covers ({@link VersionOrigin.Coverage}), or {@code null}
 * @param to end (exclusive) for {@link VersionOrigin.Coverage#RANGE} records, or {@code null}
 */
public record VersionRecord(
    String node,
    boolean workload,
    String engine,
    String version,
    String image,
    Long from,
    Long to,
    VersionOrigin origin,
    String sourceFile,
    long sourceLine)
    implements Ingested {

  public VersionRecord {
    if (node == null || node.isBlank()) {
      throw new IllegalArgumentException("a version record needs a node (" + sourceFile + ":" + sourceLine + ")");
    }
    if (origin == null) {
      throw new IllegalArgumentException("a version record needs its origin (" + sourceFile + ":" + sourceLine + ")");
    }
    if (from != null && to != null && to < from) {
      throw new IllegalArgumentException("version record ends before it starts (" + sourceFile + ":" + sourceLine + ")");
    }
    node = node.strip();
    version = version == null || version.isBlank() ? null : version.strip();
  }

  /** The evidence this record gives an epoch, for findings and the workbench. */
  public VersionSource asSource() {
    return new VersionSource(origin, image != null ? "image " + image : null, sourceFile, sourceLine);
  }
}
