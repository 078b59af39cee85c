package io.kvscope.ingest.engine;

import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeRole;

/**
 * Turns a node's startup lines into {@link ConfigEpoch}s: one per startup, started at the startup
 * line's time. The epoch is emitted as soon as both the scheduler's KV pool size and the context
 * length are known (SGLang's {@code max_total_num_tokens=...} line carries both; vLLM prints them on
 * two consecutive lines), else at the next startup or at the end of the file with what is known
 * (then a per-rank allocation figure such as {@code KV Cache is allocated. #tokens: N} stands in for
 * the pool).
 *
 * <p>After an epoch was emitted, an authoritative pool size that is <em>smaller</em> than the one
 * emitted (data-parallel ranks of one process with different pools) yields one more epoch starting
 * at that line: from then on the log proves the smaller limit.
 */
public final class EpochTracker {

  private final String node;
  private final String source;
  private final String sourceFile;
  private final RecordSink sink;
  private Draft draft;

  public EpochTracker(String node, String source, String sourceFile, RecordSink sink) {
    this.node = node;
    this.source = source;
    this.sourceFile = sourceFile;
    this.sink = sink;
  }

  /**
   * A startup at {@code time}: the open epoch (if not yet emitted) is emitted, a new one opens. A
   * startup that never got as far as a pool size (it crashed while loading, or printed its arguments
   * twice) served nothing and is folded into this one, which keeps the earlier start.
   */
  public Draft startup(long time, long line, NodeRole role) {
    if (draft != null && !draft.emitted && draft.poolTokens == null) {
      Draft unfinished = draft;
      draft = new Draft(unfinished.start, unfinished.startLine, role);
      draft.engineVersion = unfinished.engineVersion;
      return draft;
    }
    flush();
    draft = new Draft(time, line, role);
    return draft;
  }

  /** The open epoch; a log that starts after its node's startup gets one from its first config line. */
  public Draft current(long time, long line, NodeRole role) {
    if (draft == null) {
      return startup(time, line, role);
    }
    return draft;
  }

  public boolean hasOpenEpoch() {
    return draft != null;
  }

  /**
   * A KV pool size. {@code authoritative} is the scheduler's own figure (SGLang
   * {@code max_total_num_tokens}, vLLM {@code GPU KV cache size}); the earlier per-rank allocation
   * line only fills the epoch until the scheduler's figure arrives.
   */
  public void poolTokens(long tokens, boolean authoritative, long time, long line, NodeRole role) {
    Draft d = current(time, line, role);
    if (d.emitted) {
      if (authoritative && d.emittedPool != null && tokens < d.emittedPool) {
        d.poolTokens = tokens;
        emit(d, time, line);
      }
      return;
    }
    if (authoritative || d.poolTokens == null || !d.poolAuthoritative) {
      if (authoritative && d.poolAuthoritative && d.poolTokens != null) {
        d.poolTokens = Math.min(d.poolTokens, tokens);
      } else {
        d.poolTokens = tokens;
      }
      d.poolAuthoritative |= authoritative;
    }
    maybeEmit(d);
  }

  /** The context length the server admits (its own figure wins over the startup arguments). */
  public void contextLength(long tokens, long time, long line, NodeRole role) {
    Draft d = current(time, line, role);
    if (!d.emitted) {
      d.contextLength = tokens;
      maybeEmit(d);
    }
  }

  /** Emits the open epoch now if it has the scheduler's pool size and the context length. */
  public void maybeEmit(Draft d) {
    if (!d.emitted && d.poolAuthoritative && d.poolTokens != null && d.contextLength != null) {
      emit(d, d.start, d.startLine);
    }
  }

  /** End of file: the open epoch is emitted with whatever is known. */
  public void finish() {
    flush();
    draft = null;
  }

  private void flush() {
    if (draft != null && !draft.emitted) {
      emit(draft, draft.start, draft.startLine);
    }
  }

  private void emit(Draft d, long start, long line) {
    sink.accept(new ConfigEpoch(node, d.role, start, d.poolTokens, d.contextLength, d.pageSize,
        d.engineVersion, d.model, d.servedModelName, d.transferBackend, d.kvCanary, d.kvChecksum,
        d.deferredRelease, source, sourceFile, line));
    d.emitted = true;
    d.emittedPool = d.poolTokens;
  }

  /** What is known so far about one startup. Readers fill the fields they see. */
  public static final class Draft {
    final long start;
    final long startLine;
    public NodeRole role;
    public Long poolTokens;
    public Long contextLength;
    public Integer pageSize;
    public String engineVersion;
    public String model;
    public String servedModelName;
    public String transferBackend;
    public Boolean kvCanary;
    public Boolean kvChecksum;
    public Boolean deferredRelease;
    /** The server's own address from its startup arguments, when it printed one. */
    public String host;
    public Long port;
    boolean poolAuthoritative;
    boolean emitted;
    Long emittedPool;

    Draft(long start, long startLine, NodeRole role) {
      this.start = start;
      this.startLine = startLine;
      this.role = role == null ? NodeRole.UNKNOWN : role;
    }

    public boolean emitted() {
      return emitted;
    }
  }
}
