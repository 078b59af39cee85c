package io.kvscope.gui.work;

import javafx.concurrent.Task;
import javafx.concurrent.Worker;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * A veil over the window while a task the user waits for runs: its message, a progress indicator
 * (spinning when the amount is unknown) and Cancel. Hidden when the task ends, however it ends.
 */
public final class BusyOverlay extends StackPane {

  private final Label message = new Label();
  private final ProgressIndicator indicator = new ProgressIndicator();
  private final Button cancel = new Button("Cancel");
  private Task<?> current;

  public BusyOverlay() {
    getStyleClass().add("busy-overlay");
    setId("busyOverlay");
    message.setId("busyMessage");
    cancel.setId("busyCancel");
    cancel.setCancelButton(true);
    indicator.setPrefSize(72, 72);
    VBox box = new VBox(14, indicator, message, cancel);
    box.setAlignment(Pos.CENTER);
    box.getStyleClass().add("busy-box");
    box.setMaxSize(420, 220);
    getChildren().add(box);
    setVisible(false);
    cancel.setOnAction(e -> {
      if (current != null) {
        current.cancel(true);
      }
    });
  }

  /** Shows {@code task} until it finishes, fails or is cancelled. */
  public void watch(Task<?> task) {
    current = task;
    message.textProperty().bind(task.messageProperty());
    indicator.progressProperty().bind(task.progressProperty());
    setVisible(true);
    task.stateProperty().addListener((obs, old, state) -> {
      if (state == Worker.State.SUCCEEDED || state == Worker.State.FAILED || state == Worker.State.CANCELLED) {
        if (current == task) {
          message.textProperty().unbind();
          indicator.progressProperty().unbind();
          current = null;
          setVisible(false);
        }
      }
    });
  }

  public boolean busy() {
    return current != null;
  }
}
