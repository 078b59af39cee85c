/**
 * Getting a selection out of the workbench: {@link io.kvscope.gui.export.SelectionExport} writes
 * the findings and tenant counts currently shown as CSV or JSON (identifiers, counts and offsets,
 * never prompt or response text), and {@link io.kvscope.gui.export.FileChoosers} asks where.
 * Files are written owner-only, like every kvscope output.
 */
package io.kvscope.gui.export;
