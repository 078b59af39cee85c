package io.kvscope.gui.snapshot;

import java.util.function.BooleanSupplier;

/**
 * One screenshot of a tour: what to show before it, and when the view is ready (data loaded).
 *
 * @param name the file name without {@code .png}
 */
public record Shot(String name, Runnable prepare, BooleanSupplier ready) {}
