/**
 * Where the index lives and who may read it: the Lucene directory and its writer
 * ({@link io.kvscope.index.store.IndexStore}, written owner-only from the first byte), the threads
 * that build and write documents ({@link io.kvscope.index.store.DocumentWriters}), and the case's
 * own key ({@link io.kvscope.index.store.CaseKey}) behind every keyed hash a redacted output
 * shows ({@link io.kvscope.index.store.Redaction}).
 */
package io.kvscope.index.store;
