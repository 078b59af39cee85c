/**
 * Screenshots without a screen grabber: {@link io.kvscope.gui.snapshot.ScreenshotTour} walks the
 * workbench's views, renders each with {@link javafx.scene.Scene#snapshot} once it is ready, and
 * {@link io.kvscope.gui.snapshot.PngWriter} encodes the pixels with {@code javax.imageio} (no
 * javafx-swing needed). Used by {@code gui/screenshots.sh} and documentation.
 */
package io.kvscope.gui.snapshot;
