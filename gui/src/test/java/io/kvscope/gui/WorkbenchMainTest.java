package io.kvscope.gui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad command lines are refused before any window opens. */
class WorkbenchMainTest {

  @TempDir Path dir;

  @Test
  void refusesMissingOrBadOptionsWithExitCode2() {
    assertThat(WorkbenchMain.run(new String[] {})).isEqualTo(2);
    assertThat(WorkbenchMain.run(new String[] {"--index"})).isEqualTo(2);
    assertThat(WorkbenchMain.run(new String[] {"--index", dir.toString(), "--bogus"})).isEqualTo(2);
    assertThat(WorkbenchMain.run(new String[] {"--index", dir.toString(), "--report", dir.resolve("none.json").toString()}))
        .isEqualTo(2);
    assertThat(WorkbenchMain.run(new String[] {"--help"})).isZero();
  }
}
