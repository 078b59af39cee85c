/**
 * The Lucene index: how evidence gets in and how it is read. One document per request, engine
 * event, config epoch, node-hour, node alias and deployment version record, under one schema
 * ({@link io.kvscope.index.doc}). {@link io.kvscope.index.IndexIngest} walks the inputs, streams
 * each file's records into the store ({@link io.kvscope.index.store}) and checkpoints each file
 * inside the same commit as its documents, so a killed ingest resumes exactly; then it merges the
 * records of each request and joins engine facts onto them ({@link io.kvscope.index.join}).
 * {@link io.kvscope.index.IndexSearch} and {@link io.kvscope.index.QueryParsing} read it back; the
 * text fingerprints the overlap analysis self-joins on are {@link io.kvscope.index.fingerprint}.
 *
 * <p>Documents keep the names and versions their files wrote. Reading interprets them: every alias
 * of a node becomes one name and each config epoch gets the engine version a deployment record
 * covers it with, or stays unknown ({@link io.kvscope.index.nodes}), so every reader (the link, the
 * analysis, the workbench) sees the same nodes and versions.
 */
package io.kvscope.index;
