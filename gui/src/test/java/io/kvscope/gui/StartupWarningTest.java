package io.kvscope.gui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workbench started in a JVM of its own, as {@code kvscope gui} starts it (JavaFX from the
 * class path, headless on Monocle here): the toolkit comes up without its class-path warning, and
 * what fails next (no index in the folder) is said plainly.
 */
class StartupWarningTest {

  @Test
  void theToolkitStartsWithoutTheClassPathWarning(@TempDir Path tmp) throws Exception {
    Path notAnIndex = Files.createDirectories(tmp.resolve("empty"));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-Djava.awt.headless=true", "-Dprism.order=sw",
        "-Dglass.platform=Monocle", "-Dmonocle.platform=Headless", "-Dheadless.geometry=1280x800-32",
        "io.kvscope.gui.WorkbenchMain", "--index", notAnIndex.toString(), "--screenshot-dir",
        tmp.resolve("shots").toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();

    assertThat(output).as("the workbench got as far as opening the index").contains("kvscope gui: ");
    assertThat(process.exitValue()).as(output).isEqualTo(2);
    assertThat(output).doesNotContain("Unsupported JavaFX configuration");
  }
}
