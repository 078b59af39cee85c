/**
 * The Lucene index: one document per request, engine event, config epoch, node-hour, node alias
 * and deployment version record, under one schema ({@link io.kvscope.index.Schema}). The writer is idempotent (documents have stable
 * identities, so re-reading a file adds nothing) and checkpoints each file inside the same commit
 * as its documents, so a killed ingest resumes exactly. Search, the rid join and the text
 * fingerprints that the overlap analysis self-joins on also live here.
 *
 * <p>Documents keep the names and versions their files wrote. Reading interprets them: every alias
 * of a node becomes one name ({@link io.kvscope.index.NodeIdentity}) and each config epoch gets the
 * engine version a deployment record covers it with, or stays unknown
 * ({@link io.kvscope.index.EngineVersions}); {@link io.kvscope.index.Epochs#load} does both, so every
 * reader (the link, the analysis, the workbench) sees the same nodes and versions.
 */
package io.kvscope.index;
