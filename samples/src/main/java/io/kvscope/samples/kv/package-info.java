/**
 * A decode node's paged KV pool, simulated as a page table: pages are taken lowest-index-first
 * from a free set, released without zeroing, and each page remembers which request's tokens it
 * last held (owner, position in the owner's prompt-plus-generation sequence, fill). Stale content
 * is what a request that reserved pages but never had them written attends over.
 */
package io.kvscope.samples.kv;
