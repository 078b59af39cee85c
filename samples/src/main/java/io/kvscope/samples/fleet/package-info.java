/**
 * The simulated fleet: deployments of prefill and decode nodes, each node's configuration epochs
 * (every restart starts one, as its startup log shows), its clock skew and the hours its logs were
 * lost. The incident timeline lives here: the config change that raised the context length above
 * the prefill KV pool, and the upgrades that closed the window again.
 */
package io.kvscope.samples.fleet;
