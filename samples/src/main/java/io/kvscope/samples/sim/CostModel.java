package io.kvscope.samples.sim;

import io.kvscope.samples.random.Rng;

/**
 * How long engine work takes on the simulated hardware (a 14B model, 48 layers, 8 KV heads of
 * 128 dims in bf16: 196,608 bytes of KV per token). Prefill cost grows linearly plus an attention
 * term in prompt length, so a 700k-token prefill takes minutes while a one-token stub takes tens of
 * milliseconds; decode steps slow down with the context they attend over.
 */
final class CostModel {

  static final double KV_BYTES_PER_TOKEN = 196_608.0;

  private CostModel() {}

  /** Gateway and router overhead before the engines see the request. */
  static long routerDelay(Rng rng) {
    return 3 + rng.nextInt(10);
  }

  /** Tokenizing the prompt text (both roles tokenize it). */
  static long tokenizeMs(long tokens) {
    return 1 + Math.round(tokens * 0.0022);
  }

  /** Prefill compute for {@code uncached} new tokens in a prompt of {@code total} tokens. */
  static long prefillMs(long uncached, long total, Rng rng) {
    double ms = 18 + uncached * 0.07 + 1.6e-7 * uncached * total;
    return Math.round(ms * rng.uniform(0.92, 1.12));
  }

  /** Megabytes of KV sent for {@code tokens} tokens. */
  static double transferMb(long tokens) {
    return tokens * KV_BYTES_PER_TOKEN / 1e6;
  }

  /** KV transfer at about 25 GB/s plus a handshake. */
  static long transferMs(long tokens, Rng rng) {
    return 2 + Math.round(transferMb(tokens) / 25.0 * rng.uniform(0.9, 1.3));
  }

  /** One decode step attending over {@code context} tokens. */
  static double stepMs(long context, Rng rng) {
    return (16 + context * 1.1e-5) * rng.uniform(0.93, 1.1);
  }
}
