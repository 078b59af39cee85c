package io.kvscope.samples.truth;

/**
 * How the incident was generated.
 *
 * @param charsPerToken characters per token over served prompts (word-level tokens)
 * @param canaryPattern regular expression matching the canary markers planted in prompts
 * @param texts where questions, answers and documents came from: {@code built-in} or
 *     {@code corpus <file name>}
 */
public record GeneratorInfo(long seed, String scale, String mode, int tenants, long requests, long litellmRecords,
    long otlpSpans, double charsPerToken, int pageSize, String fixedEngineVersion, String canaryPattern,
    String texts) {}
