/**
 * Turns what the simulation decided into the files a real fleet leaves behind: LiteLLM
 * StandardLoggingPayload JSONL (daily files), OTLP/JSON GenAI spans, and one SGLang server log
 * per node (startup banners, request logger at level 1, batch lines, Req Time Stats, rejections,
 * health checks), with the node's clock skew, a lost hour and a log-shipping duplicate burst.
 * Lines are buffered per file in time order and written once no earlier line can still come, so
 * memory stays bounded by the requests in flight. Files are created owner-only.
 */
package io.kvscope.samples.out;
