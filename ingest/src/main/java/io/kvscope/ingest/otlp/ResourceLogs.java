package io.kvscope.ingest.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/** The log records one resource (a process: service, host) exported in a batch, with its attributes. */
record ResourceLogs(Map<String, JsonNode> resource, List<LogRecord> records) {}
