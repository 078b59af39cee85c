package io.kvscope.gui.snapshot;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javafx.animation.PauseTransition;
import javafx.scene.Scene;
import javafx.scene.image.WritableImage;
import javafx.util.Duration;

/**
 * Takes the shots in order on the FX thread: prepares a view, waits (without blocking the FX
 * thread) until it is ready and a few pulses have laid it out, snapshots the scene and writes the
 * PNG. A view that never gets ready is shot anyway after a timeout, so the tour always ends.
 */
public final class ScreenshotTour {

  private static final Duration POLL = Duration.millis(100);
  private static final int SETTLE_POLLS = 4;
  private static final int MAX_POLLS = 150;

  private final Scene scene;
  private final Path dir;
  private final List<Shot> shots;
  private final List<Path> written = new ArrayList<>();
  private final CompletableFuture<List<Path>> done = new CompletableFuture<>();

  public ScreenshotTour(Scene scene, Path dir, List<Shot> shots) {
    this.scene = scene;
    this.dir = dir;
    this.shots = List.copyOf(shots);
  }

  /** Starts the tour (call on the FX thread); completes with the files written. */
  public CompletableFuture<List<Path>> start() {
    next(0);
    return done;
  }

  private void next(int index) {
    if (index >= shots.size()) {
      done.complete(List.copyOf(written));
      return;
    }
    Shot shot = shots.get(index);
    try {
      shot.prepare().run();
    } catch (RuntimeException e) {
      done.completeExceptionally(e);
      return;
    }
    await(shot, index, 0, 0);
  }

  private void await(Shot shot, int index, int polls, int readyPolls) {
    PauseTransition pause = new PauseTransition(POLL);
    pause.setOnFinished(e -> {
      boolean ready = shot.ready().getAsBoolean();
      int settled = ready ? readyPolls + 1 : 0;
      if (settled >= SETTLE_POLLS || polls >= MAX_POLLS) {
        take(shot, index);
      } else {
        await(shot, index, polls + 1, settled);
      }
    });
    pause.play();
  }

  private void take(Shot shot, int index) {
    try {
      WritableImage image = scene.snapshot(null);
      Path file = dir.resolve(shot.name() + ".png");
      PngWriter.write(image, file);
      written.add(file);
      next(index + 1);
    } catch (IOException | RuntimeException e) {
      done.completeExceptionally(e);
    }
  }
}
