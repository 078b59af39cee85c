package io.kvscope.gui.view;

import java.util.Collection;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.function.Function;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.Text;

/**
 * Sizes table columns to what they hold, so a column is never narrower than its header or its
 * longest cell, and gives the room left over to the table's last column ({@link #stretchLast}):
 * JavaFX's constrained policies would instead share it out, or cut columns when room is short.
 */
final class ColumnFit {

  /** Cell padding and a margin for the sort arrow. */
  private static final double PADDING = 18;
  /** Texts measured per column: the longest by characters, which wide glyphs cannot outgrow by much. */
  private static final int MEASURED = 40;
  private static final Font REGULAR = Font.font(Font.getDefault().getFamily(), FontWeight.NORMAL, 12);
  private static final Font BOLD = Font.font(Font.getDefault().getFamily(), FontWeight.BOLD, 12);

  private ColumnFit() {}

  /** The width {@code text} takes in a table cell or header. */
  static double width(String text, boolean bold) {
    if (text == null || text.isEmpty()) {
      return 0;
    }
    Text probe = new Text(text);
    probe.setFont(bold ? BOLD : REGULAR);
    return Math.ceil(probe.getLayoutBounds().getWidth());
  }

  /** Makes {@code column} at least as wide as its (bold) header and each of {@code rows}' text, up to {@code max}. */
  static <S> void fit(TableColumn<S, ?> column, Collection<S> rows, Function<S, String> text, double max) {
    fit(column, rows, text, max, false);
  }

  /** As {@link #fit(TableColumn, Collection, Function, double)}, for cells drawn in bold when {@code bold}. */
  static <S> void fit(TableColumn<S, ?> column, Collection<S> rows, Function<S, String> text, double max, boolean bold) {
    // Measuring text is slow next to reading its length: measure only the longest few of every row's.
    PriorityQueue<String> longest = new PriorityQueue<>(Comparator.comparingInt(String::length));
    for (S row : rows) {
      String t = text.apply(row);
      if (t != null) {
        longest.add(t);
        if (longest.size() > MEASURED) {
          longest.poll();
        }
      }
    }
    double widest = width(column.getText(), true);
    for (String t : longest) {
      widest = Math.max(widest, width(t, bold));
    }
    double w = Math.min(max, widest + PADDING);
    column.setMinWidth(w);
    column.setPrefWidth(w);
  }

  /**
   * Lets {@code table}'s last column take the width its others leave (never less than its own
   * fitted minimum); the table scrolls sideways only when even the minimums do not fit.
   */
  static void stretchLast(TableView<?> table) {
    table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
    Runnable stretch = () -> {
      var columns = table.getColumns().filtered(TableColumn::isVisible);
      if (columns.isEmpty()) {
        return;
      }
      double used = 0;
      for (int i = 0; i < columns.size() - 1; i++) {
        used += columns.get(i).getWidth();
      }
      // Room for the vertical scroll bar, so a long table does not scroll sideways by its width.
      double room = table.getWidth() - table.snappedLeftInset() - table.snappedRightInset() - used - SCROLL_BAR;
      TableColumn<?, ?> last = columns.get(columns.size() - 1);
      last.setPrefWidth(Math.max(last.getMinWidth(), room));
    };
    table.widthProperty().addListener((obs, old, w) -> stretch.run());
    table.getColumns().forEach(c -> c.widthProperty().addListener((obs, old, w) -> {
      if (c != table.getColumns().get(table.getColumns().size() - 1)) {
        stretch.run();
      }
    }));
    table.getProperties().put(STRETCH, stretch);
  }

  /** Re-stretches after the columns were fitted anew. */
  static void restretch(TableView<?> table) {
    if (table.getProperties().get(STRETCH) instanceof Runnable r) {
      r.run();
    }
  }

  private static final String STRETCH = ColumnFit.class.getName() + ".stretch";
  private static final double SCROLL_BAR = 16;
}
