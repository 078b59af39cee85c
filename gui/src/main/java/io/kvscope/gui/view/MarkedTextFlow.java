package io.kvscope.gui.view;

import io.kvscope.gui.text.Piece;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.geometry.Bounds;
import javafx.scene.layout.Region;
import javafx.scene.shape.Path;
import javafx.scene.shape.PathElement;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/**
 * Wrapped text made of {@link Piece}s, with the marked pieces' backgrounds painted behind the
 * glyphs (a {@link Text} has no background of its own, so the shapes come from
 * {@link TextFlow#rangeShape}). The current span gets a stronger colour and is reported once laid
 * out, so the enclosing pane can scroll it into view.
 */
final class MarkedTextFlow extends Region {

  private final Path marks = new Path();
  private final Path current = new Path();
  private final TextFlow flow = new TextFlow();
  private final List<int[]> markRanges = new ArrayList<>();
  private final List<int[]> currentRanges = new ArrayList<>();
  private Consumer<Bounds> onCurrentPlaced = b -> { };
  private boolean placePending;

  MarkedTextFlow() {
    getStyleClass().add("marked-text");
    marks.getStyleClass().add("mark-shape");
    current.getStyleClass().add("mark-shape-current");
    marks.setManaged(false);
    current.setManaged(false);
    flow.getStyleClass().add("marked-flow");
    getChildren().addAll(marks, current, flow);
  }

  void setOnCurrentPlaced(Consumer<Bounds> handler) {
    onCurrentPlaced = handler;
  }

  /** Shows {@code pieces}; the span {@code currentSpan} (or none, -1) is the one to bring into view. */
  void setPieces(List<Piece> pieces, int currentSpan) {
    List<Text> texts = new ArrayList<>(pieces.size());
    markRanges.clear();
    currentRanges.clear();
    int at = 0;
    for (Piece piece : pieces) {
      Text text = new Text(piece.display());
      text.setUserData(piece);
      text.getStyleClass().add(styleOf(piece, currentSpan));
      texts.add(text);
      int end = at + piece.display().length();
      if (piece.kind() == Piece.Kind.MARK || (piece.kind() == Piece.Kind.ELIDED && piece.span() >= 0)) {
        (piece.span() == currentSpan ? currentRanges : markRanges).add(new int[] {at, end});
      }
      at = end;
    }
    flow.getChildren().setAll(texts);
    placePending = currentSpan >= 0 && !currentRanges.isEmpty();
    requestLayout();
  }

  static String styleOf(Piece piece, int currentSpan) {
    return switch (piece.kind()) {
      case TEXT -> "piece-text";
      case MARK -> piece.span() == currentSpan ? "piece-mark-current" : "piece-mark";
      case MASK -> "piece-mask";
      case ELIDED -> "piece-elided";
    };
  }

  List<Text> texts() {
    return flow.getChildren().stream().map(Text.class::cast).toList();
  }

  @Override
  protected double computePrefHeight(double width) {
    double w = width < 0 ? getWidth() : width;
    return snappedTopInset() + flow.prefHeight(Math.max(1, w - snappedLeftInset() - snappedRightInset()))
        + snappedBottomInset();
  }

  @Override
  protected double computePrefWidth(double height) {
    return 200;
  }

  @Override
  protected void layoutChildren() {
    double x = snappedLeftInset();
    double y = snappedTopInset();
    double w = Math.max(1, getWidth() - x - snappedRightInset());
    flow.resizeRelocate(x, y, w, flow.prefHeight(w));
    flow.layout();
    shape(marks, markRanges, x, y);
    shape(current, currentRanges, x, y);
    if (placePending && !current.getElements().isEmpty()) {
      placePending = false;
      onCurrentPlaced.accept(current.getBoundsInParent());
    }
  }

  private void shape(Path path, List<int[]> ranges, double x, double y) {
    List<PathElement> elements = new ArrayList<>();
    for (int[] r : ranges) {
      elements.addAll(List.of(flow.rangeShape(r[0], r[1])));
    }
    path.getElements().setAll(elements);
    path.setLayoutX(x);
    path.setLayoutY(y);
  }
}
