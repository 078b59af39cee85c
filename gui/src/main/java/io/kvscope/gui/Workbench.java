package io.kvscope.gui;

import io.kvscope.gui.export.FxFileChoosers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import javafx.application.Platform;
import javafx.stage.Stage;

/**
 * Starts the investigation workbench. JavaFX runs from the class path here (kvscope ships as a
 * plain jar plus lib/), so the toolkit is started with {@link Platform#startup} rather than through
 * an {@code Application} subclass, which the launcher would refuse outside the module path.
 */
public final class Workbench {

  /**
   * JavaFX warns on every start that it was loaded from the class path ("Unsupported JavaFX
   * configuration: classes were loaded from 'unnamed module'"). Running from the class path is this
   * release's deliberate layout (one jar plus lib/, see above), tested on every build, so the
   * warning tells the person at the terminal nothing they can act on; JavaFX's own logger is held
   * here at SEVERE, strongly referenced because java.util.logging keeps loggers only weakly.
   */
  private static final java.util.logging.Logger JAVAFX_LOG = java.util.logging.Logger.getLogger("javafx");

  private Workbench() {}

  /**
   * Opens the workbench window and blocks until the user closes it (or, with
   * {@link WorkbenchInput#screenshotDir()}, until every view has been saved as a PNG).
   *
   * @return the screenshots written (empty when not in screenshot mode)
   * @throws IOException when screenshots were asked for and could not be taken (the index or report
   *     failed to open, or a file could not be written)
   * @throws IllegalStateException when no display is available or called on the FX thread
   */
  public static List<Path> launch(WorkbenchInput input) throws IOException, InterruptedException {
    if (Platform.isFxApplicationThread()) {
      throw new IllegalStateException("Workbench.launch blocks until the window closes; call it off the FX thread");
    }
    CompletableFuture<List<Path>> outcome = new CompletableFuture<>();
    Runnable open = () -> {
      try {
        Stage stage = new Stage();
        WorkbenchWindow window = new WorkbenchWindow(input, FxFileChoosers::new);
        window.outcome().whenComplete((files, error) -> {
          if (error != null) {
            outcome.completeExceptionally(error);
          } else {
            outcome.complete(files);
          }
        });
        window.show(stage);
      } catch (RuntimeException | Error e) {
        outcome.completeExceptionally(e);
      }
    };
    startToolkit(open);
    try {
      return outcome.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      throw new IOException(cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
    } finally {
      Platform.exit();
    }
  }

  private static void startToolkit(Runnable first) {
    JAVAFX_LOG.setLevel(java.util.logging.Level.SEVERE);
    try {
      Platform.startup(first);
    } catch (IllegalStateException alreadyRunning) {
      Platform.runLater(first);
    } catch (UnsupportedOperationException | UnsatisfiedLinkError noDisplay) {
      throw new IllegalStateException("cannot open a window: no display is available (" + noDisplay.getMessage()
          + "); run kvscope gui in a desktop session, or under xvfb-run for screenshots", noDisplay);
    }
  }
}
