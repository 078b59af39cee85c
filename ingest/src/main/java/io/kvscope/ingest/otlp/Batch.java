package io.kvscope.ingest.otlp;

import java.util.List;

/** One export line: the spans of a trace line or the log records of a log line (a file holds one kind). */
record Batch(List<ResourceSpans> spans, List<ResourceLogs> logs) {}
