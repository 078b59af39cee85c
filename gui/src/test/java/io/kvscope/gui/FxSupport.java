package io.kvscope.gui;

import io.kvscope.gui.export.FileChoosers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.ListCell;
import javafx.scene.text.Text;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** What the FX tests share: waiting on the FX thread's state, picking combo entries, fake file dialogs. */
final class FxSupport {

  private FxSupport() {}

  /** Waits until {@code condition}, evaluated on the FX thread, holds. */
  static void await(String what, Callable<Boolean> condition) {
    try {
      WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS,
          () -> WaitForAsyncUtils.asyncFx(condition).get(5, TimeUnit.SECONDS));
    } catch (Exception e) {
      throw new AssertionError("timed out waiting for " + what, e);
    }
    WaitForAsyncUtils.waitForFxEvents();
  }

  /** Reads a value on the FX thread. */
  static <T> T onFx(Callable<T> read) {
    return WaitForAsyncUtils.waitForAsyncFx(10_000, read);
  }

  /** Opens a combo box and clicks the entry labelled {@code label}, as a user would. */
  static void choose(FxRobot robot, String comboQuery, String label) {
    robot.clickOn(comboQuery);
    WaitForAsyncUtils.waitForFxEvents();
    Node cell = onFx(() -> robot.lookup((Node n) -> n instanceof ListCell<?> c && label.equals(c.getText())
        && n.getScene() != null && n.getScene().getWindow() != null && n.getScene().getWindow().isShowing()
        && n.isVisible()).tryQuery().orElse(null));
    if (cell == null) {
      List<String> seen = onFx(() -> robot.lookup((Node n) -> n instanceof ListCell<?>).queryAllAs(ListCell.class)
          .stream().map(c -> c.getText() + "/" + c.isVisible() + "/" + (c.getScene() == null ? "-" : c.getScene().getWindow()))
          .toList());
      throw new AssertionError("no combo entry " + label + " among " + seen);
    }
    robot.clickOn(cell);
    WaitForAsyncUtils.waitForFxEvents();
  }

  /** Clicks the header of the tab titled {@code title}. */
  static void clickTab(FxRobot robot, String title) {
    Node header = onFx(() -> robot.lookup(".tab-header-area").query());
    Node tab = onFx(() -> robot.from(header).lookup((Node n) -> n instanceof javafx.scene.control.Label l
        && title.equals(l.getText())).query());
    robot.clickOn(tab);
    WaitForAsyncUtils.waitForFxEvents();
  }

  /** Every text drawn in every open window. */
  static List<String> allTexts(FxRobot robot) {
    return onFx(() -> robot.lookup((Node n) -> n instanceof Text).queryAllAs(Text.class).stream()
        .map(Text::getText).toList());
  }

  /** File dialogs that answer with paths chosen by the test, and remember what was asked. */
  static final class ScriptedChoosers implements FileChoosers {
    final List<String> asked = new ArrayList<>();
    Path nextFile;
    Path nextDirectory;

    @Override
    public Optional<Path> saveFile(String title, String suggestedName, String extension) {
      asked.add(title);
      return Optional.ofNullable(nextFile);
    }

    @Override
    public Optional<Path> directory(String title) {
      asked.add(title);
      return Optional.ofNullable(nextDirectory);
    }
  }
}
