/**
 * The workbench's shared state: one {@link io.kvscope.gui.model.WorkbenchModel} that every view
 * reads and writes, holding the report, the {@link io.kvscope.gui.model.FindingFilter} (kind,
 * confidence, tenant, node, time range, search hits), the selected finding and whether content is
 * revealed. Views never talk to each other; they change the model and follow it. The pure parts
 * ({@link io.kvscope.gui.model.ImpactTally}, {@link io.kvscope.gui.model.HourlySeries}) recount the
 * report's numbers for the findings a filter leaves, so brushing a time range updates every view.
 */
package io.kvscope.gui.model;
