/**
 * Deployment records: where an engine node's release and its other names come from, since no SGLang
 * log line carries the version and logs, metrics and clusters each name a node their own way.
 * <ul>
 *   <li>{@link io.kvscope.ingest.deployment.KubernetesIngestor}: pods and workloads as
 *       {@code kubectl get -o json|yaml} prints them (image tags, pod names and IPs);
 *   <li>{@link io.kvscope.ingest.deployment.ServerInfoIngestor}: a saved SGLang
 *       {@code /get_server_info} response;
 *   <li>{@link io.kvscope.ingest.deployment.DeploymentManifestIngestor}: kvscope's own CSV manifest,
 *       for what an operator knows and no system recorded.
 * </ul>
 * They emit {@link io.kvscope.ingest.record.VersionRecord}s and
 * {@link io.kvscope.ingest.record.NodeAlias}es; the index matches both to nodes and config epochs
 * when it is read. The trap: a record speaks only for the stretch of time it covers (a pod's
 * container since it started, a manifest row between its dates); outside it a version stays
 * unknown, and kvscope says so rather than guessing "unpatched".
 */
package io.kvscope.ingest.deployment;
