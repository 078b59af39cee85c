package io.kvscope.gui.view;

import javafx.scene.control.Label;

/** The line at the bottom of the window: what just happened (an export written, a search failed). */
public final class StatusLine extends Label {

  public StatusLine() {
    setId("statusLine");
    getStyleClass().add("status-line");
    setMaxWidth(Double.MAX_VALUE);
  }

  public void info(String message) {
    getStyleClass().remove("error");
    setText(message);
  }

  public void error(String message) {
    if (!getStyleClass().contains("error")) {
      getStyleClass().add("error");
    }
    setText(message);
  }
}
