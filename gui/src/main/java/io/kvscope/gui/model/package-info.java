/**
 * The workbench's shared state: one {@link io.kvscope.gui.model.WorkbenchModel} that every view
 * reads and writes, holding the report, the {@link io.kvscope.gui.model.FindingFilter} (kind,
 * confidence, tenant, node, time range, search hits), the selected finding and whether content is
 * revealed. Views never talk to each other; they change the model and follow it. Brushing a time
 * range or picking a tenant recounts the tenant table, matrix and timeline for the findings the
 * filter leaves through the analysis' own {@link io.kvscope.analysis.impact.ImpactModel}: the GUI
 * counts nothing itself. {@link io.kvscope.gui.model.FindingGroup} puts a request's findings in one
 * row.
 */
package io.kvscope.gui.model;
