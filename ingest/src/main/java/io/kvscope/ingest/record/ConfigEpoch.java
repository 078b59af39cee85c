package io.kvscope.ingest.record;

/**
 * The configuration a node ran with from {@link #start()} until its next epoch (a restart or a
 * config change). Unknown facts are {@code null}; a Prometheus snapshot, for example, yields an
 * epoch with only the pool size, context length and page size.
 *
 * @param poolTokens KV pool size in tokens ({@code max_total_num_tokens}, {@code #tokens}, or vLLM's
 *     {@code GPU KV cache size})
 * @param contextLength the longest prompt the server admits ({@code context_length}/{@code context_len})
 * @param deferredRelease whether KV pages are released only after the transfer completed, when the
 *     log shows it
 * @param engineVersion the engine release, or {@code null} while unknown (no SGLang log line carries
 *     it: it comes from deployment records, see {@link VersionRecord})
 * @param source which evidence this epoch came from: {@code sglang-log}, {@code vllm-log},
 *     {@code prometheus} (dated by the scrape), {@code prometheus-file-time} (a snapshot dated
 *     only by its file's modification time: weak)
 * @param versionSource where {@code engineVersion} came from; with a {@code null} version, the record
 *     that covered the epoch but named no release (an image tagged {@code latest}); {@code null} when
 *     no record spoke for the epoch
 */
public record ConfigEpoch(
    String node,
    NodeRole role,
    long start,
    Long poolTokens,
    Long contextLength,
    Integer pageSize,
    String engineVersion,
    String model,
    String servedModelName,
    String transferBackend,
    Boolean kvCanary,
    Boolean kvChecksum,
    Boolean deferredRelease,
    String source,
    String sourceFile,
    long sourceLine,
    VersionSource versionSource)
    implements Ingested {

  /** Source of an epoch read from a metrics snapshot dated by its scrape. */
  public static final String PROMETHEUS = "prometheus";
  /** Source of an epoch read from a metrics snapshot dated only by its file's modification time. */
  public static final String PROMETHEUS_FILE_TIME = "prometheus-file-time";

  /** An epoch as a log or snapshot shows it: a version it names is the engine log's own word. */
  public ConfigEpoch(String node, NodeRole role, long start, Long poolTokens, Long contextLength, Integer pageSize,
      String engineVersion, String model, String servedModelName, String transferBackend, Boolean kvCanary,
      Boolean kvChecksum, Boolean deferredRelease, String source, String sourceFile, long sourceLine) {
    this(node, role, start, poolTokens, contextLength, pageSize, engineVersion, model, servedModelName,
        transferBackend, kvCanary, kvChecksum, deferredRelease, source, sourceFile, sourceLine,
        engineVersion == null || engineVersion.isBlank() ? null
            : new VersionSource(VersionOrigin.ENGINE_LOG, null, sourceFile, sourceLine));
  }

  public ConfigEpoch {
    if (node == null || node.isBlank()) {
      throw new IllegalArgumentException("config epoch needs a node (" + sourceFile + ":" + sourceLine + ")");
    }
    if (role == null) {
      role = NodeRole.UNKNOWN;
    }
    if (engineVersion != null && engineVersion.isBlank()) {
      engineVersion = null;
    }
    if (engineVersion != null && !ReleaseNumber.readable(engineVersion)) {
      // An unreadable version is no version: the epoch's is unknown, and its source says what the text was.
      VersionSource said = versionSource == null
          ? new VersionSource(VersionOrigin.ENGINE_LOG, null, sourceFile, sourceLine) : versionSource;
      versionSource = new VersionSource(said.origin(), (said.detail() == null ? "" : said.detail() + "; ")
          + ReleaseNumber.unreadable(engineVersion), said.sourceFile(), said.sourceLine());
      engineVersion = null;
    }
  }

  /** The same epoch under another name of its node. */
  public ConfigEpoch withNode(String canonical) {
    return new ConfigEpoch(canonical, role, start, poolTokens, contextLength, pageSize, engineVersion, model,
        servedModelName, transferBackend, kvCanary, kvChecksum, deferredRelease, source, sourceFile, sourceLine,
        versionSource);
  }

  /** The same epoch with its engine version as a deployment record told it. */
  public ConfigEpoch withVersion(String version, VersionSource from) {
    return new ConfigEpoch(node, role, start, poolTokens, contextLength, pageSize, version, model,
        servedModelName, transferBackend, kvCanary, kvChecksum, deferredRelease, source, sourceFile, sourceLine,
        from);
  }

  public boolean versionKnown() {
    return engineVersion != null;
  }

  /** True for an epoch read from a metrics snapshot rather than a node's own log. */
  public boolean fromMetrics() {
    return PROMETHEUS.equals(source) || PROMETHEUS_FILE_TIME.equals(source);
  }

  /** True when the start is only a file's modification time, not a restart or a scrape. */
  public boolean startIsFileTime() {
    return PROMETHEUS_FILE_TIME.equals(source);
  }

  /** The longest prompt this node can really serve: the smaller of context length and pool. */
  public Long effectiveLimit() {
    if (poolTokens == null) {
      return contextLength;
    }
    if (contextLength == null) {
      return poolTokens;
    }
    return Math.min(poolTokens, contextLength);
  }

  /** True when the node admits prompts its KV pool cannot hold: the incident's precondition. */
  public boolean poolBelowContext() {
    return poolTokens != null && contextLength != null && poolTokens < contextLength;
  }
}
