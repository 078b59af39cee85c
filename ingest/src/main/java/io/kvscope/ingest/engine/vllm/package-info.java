/**
 * vLLM server logs. Lines start with {@code LEVEL MM-DD HH:MM:SS [file.py:123] }, optionally after a
 * process tag such as {@code (APIServer pid=123) } or {@code (EngineCore_DP0 pid=7) }; older builds
 * write {@code LEVEL MM-DD HH:MM:SS file.py:123] }. The prefix has no year:
 * {@link io.kvscope.ingest.engine.vllm.YearResolver} places each date in the latest year that does
 * not put it after the file's last modification (a log's mtime is its last write), so logs analysed
 * months later, and logs that span New Year, get the right year. A vLLM node is one process serving
 * prefill and decode: its epochs have role {@code UNIFIED} and source {@code vllm-log}.
 */
package io.kvscope.ingest.engine.vllm;
