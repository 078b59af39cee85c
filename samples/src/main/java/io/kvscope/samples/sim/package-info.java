/**
 * The discrete-event simulation of the fleet. Requests from many tenants arrive over days (diurnal
 * load, conversations, popular questions, boilerplate, long contexts, a few prompts longer than the
 * prefill pool); each is routed to a prefill and a decode node and admitted, served or rejected as
 * that node's configuration at that moment dictates. Decode nodes keep a real
 * {@link io.kvscope.samples.kv.PagePool}; in the vulnerable window an over-length prompt takes the
 * buggy path (one-token placeholder on prefill, full reservation on decode) and its reply is
 * composed from the stale pages it attended over. Everything that happened is reported to a
 * {@link io.kvscope.samples.sim.Recorder}, which writes the logs, and kept as ground truth.
 */
package io.kvscope.samples.sim;
