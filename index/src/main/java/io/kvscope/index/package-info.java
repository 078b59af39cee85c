/**
 * The Lucene index: one document per request, engine event, config epoch and node-hour, under
 * one schema ({@link io.kvscope.index.Schema}). The writer is idempotent (documents have stable
 * identities, so re-reading a file adds nothing) and checkpoints each file inside the same commit
 * as its documents, so a killed ingest resumes exactly. Search, the rid join and the text
 * fingerprints that the overlap analysis self-joins on also live here.
 */
package io.kvscope.index;
