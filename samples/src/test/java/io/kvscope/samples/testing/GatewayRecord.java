package io.kvscope.samples.testing;

import java.util.List;

/**
 * One gateway record as the test reads it (LiteLLM payload or OTLP span).
 *
 * @param messages message contents, kept only for requests the test asked for
 * @param response response content, kept only for requests the test asked for
 */
public record GatewayRecord(String id, String source, String file, String tenant, boolean success, int status,
    long startMs, long endMs, long firstTokenMs, long promptTokensReported, long promptTokensCounted,
    long promptChars, long cachedTokens, String errorMessage, List<String> messages, String response) {}
