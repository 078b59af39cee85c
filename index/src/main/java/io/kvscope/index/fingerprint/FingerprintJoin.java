package io.kvscope.index.fingerprint;

import io.kvscope.model.fingerprint.Fingerprints;
import io.kvscope.model.fingerprint.FrequencyHistogram;
import io.kvscope.model.fingerprint.TermFrequencyListener;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.function.IntUnaryOperator;
import org.apache.lucene.index.IndexReader;

/**
 * Candidate generation for cross-tenant overlap as a self-join through the index.
 *
 * <p>One pass walks the points of {@value FingerprintFields#RESPONSE} in hash order across all
 * segments ({@link HashStream}, top-level doc ids) and, in step with them, those of
 * {@value FingerprintFields#PROMPT}. A fingerprint held by a single document (nearly every one)
 * joins nothing. For the rest, the live docs of both fields give the recipients (docs whose
 * response has it) and the sources (docs whose prompt or response has it). Fingerprints carried by too many
 * tenants are boilerplate and skipped; the others add one hit to every (recipient, source) pair
 * they connect. Deleted documents are ignored. Pairs are counted in bounded memory and emitted in
 * (recipient, source) order at the end of the pass.
 *
 * <p>A second, optional pass ({@link #frequencies}) reports the tenant frequency of every shared
 * fingerprint so the caller can learn the boilerplate cut-off from the data before the join.
 *
 * <p>An index an earlier kvscope built holds the fingerprints as terms: the join refuses it, in
 * words, rather than find nothing.
 */
public final class FingerprintJoin {

  private final IndexReader reader;
  private final IntUnaryOperator tenantOf;

  /**
   * @param reader the index (all segments are joined; doc ids are top-level)
   * @param tenantOf top-level doc id to a dense tenant ordinal, or a negative value when unknown,
   *     e.g. {@link TenantOrdinals}
   */
  public FingerprintJoin(IndexReader reader, IntUnaryOperator tenantOf) {
    this.reader = Objects.requireNonNull(reader, "reader");
    this.tenantOf = Objects.requireNonNull(tenantOf, "tenantOf");
  }

  /**
   * Fills {@code histogram} with every shared response fingerprint's frequencies, walked by
   * {@code threads} threads at once, each taking the next chunk of the hashes in turn: the counts do
   * not depend on the order, and on several cores the walk takes a fraction of the time.
   */
  public void frequencies(FrequencyHistogram histogram, int threads) throws IOException {
    AtomicInteger taken = new AtomicInteger();
    IntSupplier chunks = () -> {
      int chunk = taken.getAndIncrement();
      return chunk < CHUNKS ? chunk : -1;
    };
    List<OwnThread<FrequencyHistogram>> walks = new ArrayList<>();
    for (int thread = 1; thread < threads; thread++) {
      walks.add(OwnThread.start("kvscope-fingerprint-frequencies-" + thread, () -> {
        FrequencyHistogram part = histogram.emptyCopy();
        new Walker().walk((recipients, prompts, docFrequency, tenantFrequency) ->
            part.onSharedTerm(docFrequency, tenantFrequency), chunks);
        return part;
      }));
    }
    new Walker().walk((recipients, prompts, docFrequency, tenantFrequency) ->
        histogram.onSharedTerm(docFrequency, tenantFrequency), chunks);
    for (OwnThread<FrequencyHistogram> walk : walks) {
      histogram.add(walk.join());
    }
  }

  /**
   * Chunks of the hash space for walks shared by threads, by the hashes' first 12 bits: winnowing
   * keeps the smallest hash of each window, so the hashes crowd at the low end, and a few large
   * ranges would leave most of the work to one thread.
   */
  private static final int CHUNKS = 4096;

  /** The first hash of {@code chunk}. */
  private static long chunkStart(int chunk) {
    return (long) (chunk * (65536 / CHUNKS)) << 48;
  }

  /** Runs the join; see {@link #run(JoinOptions, PairFilter, TermFrequencyListener, CandidateSink)}. */
  public JoinStats run(JoinOptions options, PairFilter filter, CandidateSink sink)
      throws IOException {
    return run(options, filter, TermFrequencyListener.NONE, sink);
  }

  /**
   * Runs the join and streams candidates to {@code sink} in (recipient, source) order.
   *
   * @param filter early veto on pairs (time order, recency, same node), applied before counting
   * @param listener also told every shared fingerprint's frequencies, skipped or not
   */
  public JoinStats run(
      JoinOptions options, PairFilter filter, TermFrequencyListener listener, CandidateSink sink)
      throws IOException {
    Objects.requireNonNull(sink, "sink");
    try (Counted counted = count(options, filter, listener)) {
      return counted.emit(sink);
    }
  }

  /**
   * The join's walk: every pair counted, no candidate emitted yet. Nothing is emitted before the
   * walk ends anyway, so a caller may walk on another thread while it does other work, then
   * {@linkplain Counted#emit emit} where it wants the candidates. The filter and {@code tenantOf}
   * are then called on the walking thread.
   */
  public Counted count(JoinOptions options, PairFilter filter, TermFrequencyListener listener)
      throws IOException {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(listener, "listener");
    Tally tally = new Tally();
    PairCounter counter = new PairCounter(options.memoryPairBudget(), options.spillDirectory());
    try {
      long walked =
          new Walker().walk((recipients, prompts, docFrequency, tenantFrequency) -> {
            tally.shared++;
            listener.onSharedTerm(docFrequency, tenantFrequency);
            if (tenantFrequency > options.maxTenantFrequency()) {
              tally.skippedByTenants++;
              return;
            }
            if (!options.includeSameTenant() && tenantFrequency < 2) {
              tally.skippedSingleTenant++;
              return;
            }
            long work = (long) recipients.size * (prompts.size + recipients.size);
            if (work > options.maxPairsPerTerm()) {
              tally.skippedByPairs++;
              return;
            }
            int ownPrompt = 0; // walks the sorted prompt docs alongside the sorted recipients
            for (int i = 0; i < recipients.size; i++) {
              int recipient = recipients.docs[i];
              while (ownPrompt < prompts.size && prompts.docs[ownPrompt] < recipient) {
                ownPrompt++;
              }
              if (options.ownPromptExplains() && ownPrompt < prompts.size && prompts.docs[ownPrompt] == recipient) {
                tally.explainedByOwnPrompt++;
                continue;
              }
              int recipientTenant = tenantOf.applyAsInt(recipient);
              for (int j = 0; j < prompts.size; j++) {
                if (accept(options, filter, recipient, recipientTenant, prompts.docs[j])) {
                  counter.add(recipient, prompts.docs[j], true);
                  tally.updates++;
                }
              }
              for (int j = 0; j < recipients.size; j++) {
                if (accept(options, filter, recipient, recipientTenant, recipients.docs[j])) {
                  counter.add(recipient, recipients.docs[j], false);
                  tally.updates++;
                }
              }
            }
          }, null);
      return new Counted(counter, options.minSharedFingerprints(), walked, tally);
    } catch (IOException | RuntimeException | Error e) {
      try {
        counter.close();
      } catch (IOException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** Pairs counted by a walk, to be emitted once; closing deletes what was spilled to disk. */
  public static final class Counted implements Closeable {
    private final PairCounter counter;
    private final int minShared;
    private final long walked;
    private final Tally tally;

    private Counted(PairCounter counter, int minShared, long walked, Tally tally) {
      this.counter = counter;
      this.minShared = minShared;
      this.walked = walked;
      this.tally = tally;
    }

    /** Streams the candidates to {@code sink} in (recipient, source) order. */
    public JoinStats emit(CandidateSink sink) throws IOException {
      long candidates = counter.emit(minShared, sink);
      return new JoinStats(
          walked, tally.shared, tally.skippedByTenants, tally.skippedSingleTenant,
          tally.skippedByPairs, tally.explainedByOwnPrompt, tally.updates, candidates, counter.spilledRuns());
    }

    @Override
    public void close() throws IOException {
      counter.close();
    }
  }

  /** Running counts of one join. */
  private static final class Tally {
    long shared;
    long skippedByTenants;
    long skippedSingleTenant;
    long skippedByPairs;
    long explainedByOwnPrompt;
    long updates;
  }

  private boolean accept(
      JoinOptions options, PairFilter filter, int recipient, int recipientTenant, int source) {
    if (source == recipient) {
      return false; // a response repeating its own prompt is not a leak
    }
    if (!options.includeSameTenant()
        && recipientTenant >= 0
        && recipientTenant == tenantOf.applyAsInt(source)) {
      return false;
    }
    return filter.test(recipient, source);
  }

  @FunctionalInterface
  private interface SharedTermVisitor {
    void visit(DocList recipients, DocList prompts, int docFrequency, int tenantFrequency)
        throws IOException;
  }

  /** The single pass over response fingerprints, merged with prompt fingerprints. */
  private final class Walker {
    private final DocList inResponses = new DocList();
    private final DocList inPrompts = new DocList();
    // Tenant de-duplication per fingerprint without sorting: a tenant counts once per epoch.
    private int[] tenantSeenInEpoch = new int[64];
    private int epoch;
    private int unionDocs;
    private int unionTenants;

    private HashStream responses;
    private HashStream prompts;

    /**
     * Walks every response fingerprint, or only the chunks {@code chunks} hands out until it gives
     * -1. A thread's chunks come in ascending order, so its streams only ever move forward.
     */
    long walk(SharedTermVisitor visitor, IntSupplier chunks) throws IOException {
      responses = new HashStream(reader, FingerprintFields.RESPONSE, 0, true);
      prompts = new HashStream(reader, FingerprintFields.PROMPT, 0, true);
      if (chunks == null) {
        return walk(visitor, false, 0);
      }
      long walked = 0;
      for (int chunk = chunks.getAsInt(); chunk >= 0; chunk = chunks.getAsInt()) {
        responses.skipTo(chunkStart(chunk));
        walked += walk(visitor, chunk + 1 < CHUNKS, chunk + 1 < CHUNKS ? chunkStart(chunk + 1) : 0);
      }
      return walked;
    }

    /** Walks from where the responses stand up to {@code end} (unsigned, exclusive) when {@code bounded}, else to the last. */
    private long walk(SharedTermVisitor visitor, boolean bounded, long end) throws IOException {
      long walked = 0;
      while (!responses.isEmpty() && (!bounded || Long.compareUnsigned(responses.hash(), end) < 0)) {
        walked++;
        long hash = responses.hash();
        responses.take(inResponses);
        prompts.skipTo(hash);
        if (!prompts.isEmpty() && prompts.hash() == hash) {
          prompts.take(inPrompts);
        } else {
          inPrompts.size = 0;
        }
        if (inResponses.size == 0 || inResponses.size + inPrompts.size < 2) {
          continue; // no live response, or only one document has it: nothing to join
        }
        countUnion();
        if (unionDocs >= 2) {
          visitor.visit(inResponses, inPrompts, unionDocs, unionTenants);
        }
      }
      return walked;
    }

    /** Distinct docs and tenants over both (sorted) lists. */
    private void countUnion() {
      if (++epoch == 0) { // wrapped: forget every stamp
        Arrays.fill(tenantSeenInEpoch, 0);
        epoch = 1;
      }
      unionDocs = 0;
      unionTenants = 0;
      int[] a = inResponses.docs;
      int[] b = inPrompts.docs;
      int i = 0;
      int j = 0;
      while (i < inResponses.size || j < inPrompts.size) {
        int doc;
        if (j >= inPrompts.size || (i < inResponses.size && a[i] < b[j])) {
          doc = a[i++];
        } else if (i >= inResponses.size || b[j] < a[i]) {
          doc = b[j++];
        } else {
          doc = a[i++];
          j++;
        }
        unionDocs++;
        countTenant(tenantOf.applyAsInt(doc));
      }
    }

    private void countTenant(int tenant) {
      if (tenant < 0) {
        unionTenants++; // unknown tenant: assume a tenant of its own
        return;
      }
      if (tenant >= tenantSeenInEpoch.length) {
        if (tenant >= 1 << 26) {
          throw new IllegalArgumentException(
              "tenant ordinal " + tenant + " is too large; tenant ordinals must be dense");
        }
        tenantSeenInEpoch =
            Arrays.copyOf(tenantSeenInEpoch, Math.max(tenant + 1, tenantSeenInEpoch.length * 2));
      }
      if (tenantSeenInEpoch[tenant] != epoch) {
        tenantSeenInEpoch[tenant] = epoch;
        unionTenants++;
      }
    }
  }
}
