package io.kvscope.gui.view;

import io.kvscope.gui.text.Piece;
import java.util.List;
import javafx.application.Platform;
import javafx.geometry.Bounds;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;

/** A titled, scrolling {@link MarkedTextFlow} that scrolls the current span into view when shown. */
final class MarkedTextPane extends VBox {

  private final Label title = new Label();
  private final Label detail = new Label();
  private final HBox tools = new HBox(4);
  private final MarkedTextFlow text = new MarkedTextFlow();
  private final ScrollPane scroll = new ScrollPane(text);

  MarkedTextPane(String id) {
    setId(id);
    getStyleClass().add("marked-pane");
    title.getStyleClass().add("pane-title");
    detail.getStyleClass().add("muted");
    detail.setId(id + "Detail");
    detail.setWrapText(true);
    scroll.setId(id + "Scroll");
    scroll.setFitToWidth(true);
    scroll.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
    text.setPadding(new Insets(6, 8, 6, 8));
    Region grow = new Region();
    HBox.setHgrow(grow, Priority.ALWAYS);
    HBox header = new HBox(8, title, grow, tools);
    header.setAlignment(Pos.CENTER_LEFT);
    VBox.setVgrow(scroll, Priority.ALWAYS);
    setSpacing(3);
    getChildren().addAll(header, detail, scroll);
    text.setOnCurrentPlaced(this::bringIntoView);
  }

  void setTitle(String value) {
    title.setText(value);
  }

  void setDetail(String value) {
    detail.setText(value);
  }

  void setTools(Node... nodes) {
    tools.getChildren().setAll(nodes);
  }

  void show(List<Piece> pieces, int currentSpan) {
    scroll.setVvalue(0);
    text.setPieces(pieces, currentSpan);
  }

  List<Text> texts() {
    return text.texts();
  }

  ScrollPane scrollPane() {
    return scroll;
  }

  /** Puts the span a third of the way down the viewport, once the scroll pane knows its sizes. */
  private void bringIntoView(Bounds span) {
    Platform.runLater(() -> {
      double content = text.getHeight();
      double viewport = scroll.getViewportBounds().getHeight();
      if (content <= viewport || viewport <= 0) {
        scroll.setVvalue(0);
        return;
      }
      double target = span.getMinY() - viewport / 3;
      scroll.setVvalue(Math.max(0, Math.min(1, target / (content - viewport))));
    });
  }
}
