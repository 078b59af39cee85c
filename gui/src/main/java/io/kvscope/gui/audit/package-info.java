/**
 * The operator checklist applied to each node's config epochs, for the config audit view: KV pool
 * at least the context length, engine at least the fixed release, KV canary, KV checksum and
 * deferred release enabled. A fact the logs did not show is "unknown", which is marked apart from
 * a fact that is wrong.
 */
package io.kvscope.gui.audit;
