/**
 * Long work off the FX thread: {@link io.kvscope.gui.work.BackgroundWork} runs
 * {@link javafx.concurrent.Task}s on the window's own daemon threads and
 * {@link io.kvscope.gui.work.BusyOverlay} shows the one the user waits for, with its progress and a
 * Cancel button, while the window keeps repainting and answering.
 */
package io.kvscope.gui.work;
