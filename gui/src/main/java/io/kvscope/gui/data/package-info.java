/**
 * Where the workbench's data comes from: {@link io.kvscope.gui.data.IndexData} reads the index
 * (request documents with their joined engine facts, config epochs, Lucene-syntax searches
 * narrowed to the requests that have findings) and {@link io.kvscope.gui.data.ReportJsonReader}
 * reads a saved report.json back into a {@link io.kvscope.analysis.impact.Report}. Everything here
 * blocks on I/O and runs off the FX thread.
 */
package io.kvscope.gui.data;
