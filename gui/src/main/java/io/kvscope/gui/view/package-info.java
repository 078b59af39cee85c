/**
 * The workbench's views, one class each, all following the shared
 * {@link io.kvscope.gui.model.WorkbenchModel}: the {@link io.kvscope.gui.view.TimelineView}
 * (exposures per hour, vulnerable windows per node, brushing a time range), the
 * {@link io.kvscope.gui.view.FindingsView} (filters, index search, sortable table), the
 * {@link io.kvscope.gui.view.EvidenceView} (recipient and source text side by side with the shared
 * spans marked, redacted until the user confirms a reveal, and the engine facts of both requests),
 * the {@link io.kvscope.gui.view.TenantImpactView} (per-tenant counts and the source x recipient
 * heat map, exports) and the {@link io.kvscope.gui.view.ConfigAuditView} (node epochs against the
 * operator checklist).
 */
package io.kvscope.gui.view;
