/**
 * The JavaFX investigation workbench: timeline, findings, side-by-side evidence, tenant impact and
 * config audit views over an index and its analysis results.
 */
package io.kvscope.gui;
