/**
 * Canonical request records as Arrow IPC (SPEC input 6, and the export format pandas, DuckDB and
 * polars read): {@link io.kvscope.ingest.arrow.ArrowIngestor} reads files (and streams) whose
 * columns carry the canonical snake_case names, one record batch at a time;
 * {@link io.kvscope.ingest.arrow.CanonicalArrowWriter} writes records with exactly those columns.
 * Column names and types come from {@link io.kvscope.ingest.record.CanonicalField}.
 */
package io.kvscope.ingest.arrow;
