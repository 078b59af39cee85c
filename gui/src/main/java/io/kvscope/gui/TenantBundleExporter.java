package io.kvscope.gui;

import io.kvscope.analysis.impact.Report;
import java.nio.file.Path;

/**
 * Writes one tenant's notification bundle (only that tenant's own data) into a directory the user
 * chose. The workbench calls it off the FX thread; the CLI wires it to the report writers.
 */
@FunctionalInterface
public interface TenantBundleExporter {

  /** @return the bundle written (a file or a directory inside {@code directory}) */
  Path export(Report report, String tenant, Path directory, WorkProgress progress) throws Exception;
}
