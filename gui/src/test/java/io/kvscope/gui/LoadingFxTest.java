package io.kvscope.gui;

import static io.kvscope.gui.FxSupport.await;
import static io.kvscope.gui.FxSupport.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.gui.IncidentFixture.Incident;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Opening runs in the background with progress and Cancel; failures and screenshots end cleanly. */
@ExtendWith(ApplicationExtension.class)
class LoadingFxTest {

  @TempDir static Path dir;
  static Incident incident;

  private Stage stage;
  private WorkbenchWindow window;

  @BeforeAll
  static void writeIncident() throws Exception {
    incident = IncidentFixture.write(dir.resolve("index"), 12, 5L);
  }

  @Start
  void start(Stage primary) {
    stage = primary;
  }

  @AfterEach
  void release(FxRobot robot) {
    if (window != null) {
      robot.interact(window::release);
    }
  }

  private void open(FxRobot robot, WorkbenchInput input) {
    robot.interact(() -> {
      window = new WorkbenchWindow(input, owner -> new FxSupport.ScriptedChoosers());
      window.show(stage);
    });
  }

  @Test
  void aSlowReportShowsProgressKeepsTheWindowAliveAndCanBeCancelledThenRetried(FxRobot robot) throws Exception {
    CountDownLatch computing = new CountDownLatch(1);
    AtomicBoolean stopped = new AtomicBoolean();
    AtomicInteger calls = new AtomicInteger();
    ReportSource slowOnce = progress -> {
      if (calls.incrementAndGet() > 1) {
        return incident.report();
      }
      progress.update("Running the analyzers", 0.25);
      computing.countDown();
      try {
        while (!progress.isCancelled()) {
          Thread.sleep(20);
        }
      } catch (InterruptedException cancelled) {
        Thread.currentThread().interrupt();
      }
      stopped.set(true);
      return null;
    };
    open(robot, WorkbenchInput.of(dir.resolve("index"), slowOnce));

    assertThat(computing.await(10, TimeUnit.SECONDS)).isTrue();
    await("the progress message", () -> robot.lookup("#busyMessage").queryLabeled().getText()
        .equals("Running the analyzers"));
    assertThat(onFx(() -> robot.lookup("#busyOverlay").query().isVisible())).isTrue();
    // The FX thread is free: it answers within a moment while the report is still being computed.
    long before = System.nanoTime();
    assertThat(WaitForAsyncUtils.asyncFx(() -> window.model().report() == null).get(2, TimeUnit.SECONDS)).isTrue();
    assertThat(System.nanoTime() - before).isLessThan(TimeUnit.SECONDS.toNanos(2));

    robot.clickOn("#busyCancel");
    await("the veil to lift", () -> !robot.lookup("#busyOverlay").query().isVisible());
    await("the cancelled notice", () -> robot.lookup("#loadNotice").query().isVisible());
    assertThat(onFx(() -> robot.lookup("#noticeText").queryLabeled().getText())).contains("cancelled");
    WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, stopped::get);
    assertThat(onFx(() -> window.model().index())).isNull();

    robot.clickOn("#retryLoad");
    await("the report to load on retry", () -> window.model().report() == incident.report());
    assertThat(onFx(() -> robot.lookup("#loadNotice").query().isVisible())).isFalse();
    assertThat(onFx(() -> window.model().visibleFindings().size())).isEqualTo(incident.report().findings().size());
  }

  @Test
  void aReportThatCannotBeReadIsExplainedNotFatal(FxRobot robot) throws Exception {
    Path broken = Files.writeString(dir.resolve("broken.json"), "[1, 2, 3]");
    open(robot, WorkbenchInput.of(dir.resolve("index"), ReportSource.file(broken)));

    await("the failure notice", () -> robot.lookup("#loadNotice").query().isVisible());
    assertThat(onFx(() -> robot.lookup("#noticeText").queryLabeled().getText()))
        .contains("broken.json").contains("is not a kvscope report.json");
    assertThat(onFx(() -> robot.lookup("#statusLine").queryLabeled().getText())).startsWith("Could not open");
  }

  @Test
  void aMissingIndexIsExplained(FxRobot robot) {
    open(robot, WorkbenchInput.of(dir.resolve("no-index-here"), incident.report()));

    await("the failure notice", () -> robot.lookup("#loadNotice").query().isVisible());
    assertThat(onFx(() -> robot.lookup("#noticeText").queryLabeled().getText())).contains("kvscope ingest");
  }

  @Test
  void screenshotModeSavesEveryViewAsA1280x800PngThenCloses(FxRobot robot) throws Exception {
    Path shots = dir.resolve("shots");
    open(robot, WorkbenchInput.of(dir.resolve("index"), incident.report()).withScreenshots(shots));

    List<Path> written = window.outcome().get(60, TimeUnit.SECONDS);

    assertThat(written).extracting(p -> p.getFileName().toString())
        .containsExactly("1-overview.png", "2-evidence.png", "3-tenant-impact.png", "4-config-audit.png",
            "5-time-range.png");
    for (Path png : written) {
      BufferedImage image = read(png);
      assertThat(image.getWidth()).isEqualTo(1280);
      assertThat(image.getHeight()).isEqualTo(800);
      assertThat(distinctColours(image)).as("%s is not blank", png).isGreaterThan(20);
    }
    await("the window to close", () -> !stage.isShowing());
  }

  private static BufferedImage read(Path png) throws IOException {
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image).as("%s decodes as PNG", png).isNotNull();
    return image;
  }

  private static long distinctColours(BufferedImage image) {
    java.util.Set<Integer> colours = new java.util.HashSet<>();
    for (int y = 0; y < image.getHeight(); y += 7) {
      for (int x = 0; x < image.getWidth(); x += 7) {
        colours.add(image.getRGB(x, y));
      }
    }
    return colours.size();
  }
}
