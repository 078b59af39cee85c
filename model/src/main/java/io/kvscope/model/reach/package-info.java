/**
 * Who can have leaked to whom: the mechanism's limits on which requests' KV pages a recipient can
 * have decoded over, as a rule over plain request values ({@link io.kvscope.model.reach.ReachRule}).
 * Engines hand it a request's start, decode node and whether it wrote KV; it never reads an index.
 */
package io.kvscope.model.reach;
