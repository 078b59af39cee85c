/**
 * The index's schema and its documents: field names and types ({@link io.kvscope.index.doc.Schema}),
 * each canonical record as a document with a stable id and back
 * ({@link io.kvscope.index.doc.Documents}), the disagreeing copies of a request's text
 * ({@link io.kvscope.index.doc.TextCopies}) and reading documents of one type.
 */
package io.kvscope.index.doc;
