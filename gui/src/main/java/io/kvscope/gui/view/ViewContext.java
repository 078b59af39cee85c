package io.kvscope.gui.view;

import io.kvscope.analysis.report.TraceLinks;
import io.kvscope.gui.TenantBundleExporter;
import io.kvscope.gui.export.FileChoosers;
import io.kvscope.gui.model.WorkbenchModel;
import io.kvscope.gui.work.BackgroundWork;
import io.kvscope.gui.work.BusyOverlay;

/**
 * What every view is built with: the shared model, the window's worker threads and busy veil, file
 * dialogs, the status line, and the exporters this run wires in.
 *
 * @param bundles per-tenant bundle writer, or null when none is wired
 * @param traceLinks links from a request to its trace ({@link TraceLinks#NONE}: none)
 */
public record ViewContext(
    WorkbenchModel model,
    BackgroundWork work,
    BusyOverlay busy,
    FileChoosers files,
    StatusLine status,
    TenantBundleExporter bundles,
    TraceLinks traceLinks) {}
