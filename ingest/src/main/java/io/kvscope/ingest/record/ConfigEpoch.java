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
 * @param source which evidence this epoch came from: {@code sglang-log}, {@code vllm-log},
 *     {@code prometheus}
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
    long sourceLine)
    implements Ingested {

  public ConfigEpoch {
    if (node == null || node.isBlank()) {
      throw new IllegalArgumentException("config epoch needs a node (" + sourceFile + ":" + sourceLine + ")");
    }
    if (role == null) {
      role = NodeRole.UNKNOWN;
    }
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
