/**
 * Nodes and their clocks as the index's readers see them: one name per node whatever alias a file
 * used ({@link io.kvscope.index.nodes.NodeIdentity}), each node's config epochs with the engine
 * version a deployment record covers them with ({@link io.kvscope.index.nodes.Epochs},
 * {@link io.kvscope.index.nodes.EngineVersions}), and the skew of each node's clock against the
 * gateway's ({@link io.kvscope.index.nodes.NodeClocks}).
 */
package io.kvscope.index.nodes;
