package io.kvscope.gui.view;

import javafx.scene.control.TableCell;

/** Helpers for table cells. */
final class Cells {

  private Cells() {}

  /**
   * The row value a cell shows. Read through the table by index: while a row is being reused its
   * {@code TableRow} may still hold the previous item when the cell is updated.
   */
  static <S> S rowValue(TableCell<S, ?> cell, boolean empty) {
    if (empty || cell.getTableView() == null) {
      return null;
    }
    int index = cell.getIndex();
    var items = cell.getTableView().getItems();
    return index >= 0 && index < items.size() ? items.get(index) : null;
  }
}
