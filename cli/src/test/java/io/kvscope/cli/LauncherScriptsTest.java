package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell side of running kvscope: the checkout's {@code ./kvscope} launcher reached through a
 * symlink on the PATH, and the completion script in a real bash for {@code kvscope} and
 * {@code ./kvscope}.
 */
class LauncherScriptsTest {

  /** The worktree root: the cli module's parent. */
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  private static String bash(Path dir, String script, String path) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("bash", "-c", script).directory(dir.toFile()).redirectErrorStream(true);
    builder.environment().put("PATH", path);
    builder.environment().remove("JAVA_HOME");
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }

  /**
   * A copy of the launcher in a checkout whose JDK finder and java are stand-ins (java prints
   * what it was asked to run), its jar newer than its sources so nothing is built; a symlink to it
   * in another folder on the PATH must run that checkout's jar.
   */
  @Test
  void theCheckoutLauncherRunsThroughASymlinkOnThePath(@TempDir Path tmp) throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")), "no bash");
    Path checkout = Files.createDirectories(tmp.resolve("checkout"));
    Path launcher = Files.copy(ROOT.resolve("kvscope"), checkout.resolve("kvscope"));
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
    Path jdk = Files.createDirectories(tmp.resolve("jdk/bin"));
    Path java = Files.writeString(jdk.resolve("java"), "#!/bin/sh\necho \"ran: $*\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
    Path finder = Files.createDirectories(checkout.resolve("cli/src/dist/bin")).resolve("jdk.sh");
    Files.writeString(finder, "kvscope_find_jdk() { export JAVA_HOME='" + jdk.getParent() + "'; }\n"
        + "kvscope_jvm_flags() { echo --flag; }\n");
    Path jar = Files.createDirectories(checkout.resolve("cli/target")).resolve("kvscope.jar");
    Files.writeString(jar, "stand-in");
    Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("kvscope"), launcher);

    String output = bash(tmp, "kvscope -V", bin + ":/usr/bin:/bin");

    assertThat(output.strip()).isEqualTo("ran: --flag -jar " + jar + " -V");
  }

  @Test
  void completionWorksForTheCommandAndForTheCheckoutLauncher(@TempDir Path tmp) throws Exception {
    CliTestSupport.Run run = CliTestSupport.run("generate-completion");
    assertThat(run.exitCode()).as(run.err()).isZero();
    Path script = Files.writeString(tmp.resolve("kvscope-completion.bash"), run.out());
    for (String command : List.of("kvscope", "./kvscope")) {
      String output = bash(tmp, "source " + script + "; complete -p " + command + " >/dev/null"
          + "; COMP_WORDS=(" + command + " an); COMP_CWORD=1; COMP_LINE='" + command + " an'; COMP_POINT=${#COMP_LINE}"
          + "; _complete_kvscope; printf '%s\\n' \"${COMPREPLY[@]}\"", "/usr/bin:/bin");
      assertThat(output.lines().toList()).as(command).contains("analyze");
    }
  }

  @Test
  void everyValueCompletionOffersIsOneTheHelpNames() throws Exception {
    CliTestSupport.Run run = CliTestSupport.run("generate-completion");
    String help = CliTestSupport.run("generate", "--help").out();
    java.util.regex.Matcher values = java.util.regex.Pattern
        .compile("local KIND_option_args=\\(([^)]*)\\) # --compression values").matcher(run.out());
    assertThat(values.find()).isTrue();
    for (String value : values.group(1).replace("\"", "").split(" ")) {
      assertThat(help).as("generate --help names %s", value).containsPattern("\\b" + value + "\\b");
    }
  }

  /** A Java older than 21 on this machine (the distribution's default java 17), or null. */
  static Path oldJava() throws java.io.IOException {
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return null;
    }
    try (var homes = Files.list(jvms)) {
      return homes.filter(h -> h.getFileName().toString().matches("(java-)?(1[1-7]|1\\.8|8)(-openjdk.*|-jdk.*)?"))
          .map(h -> h.resolve("bin/java")).filter(Files::isExecutable).findFirst().orElse(null);
    }
  }

  private static ProcessResult java(Path java, String classPath, String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of(java.toString(), "-cp", classPath, "io.kvscope.cli.Launch"));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return new ProcessResult(process.exitValue(), out, err);
  }

  private record ProcessResult(int exit, String out, String err) {}

  /** The jar's entry point: on an old Java a message saying what to run, on 21+ kvscope itself. */
  @Test
  void theEntryPointTellsAnOldJavaWhatToRunAndHandsOverOnANewOne() throws Exception {
    String classPath = System.getProperty("java.class.path");
    ProcessResult current = java(Path.of(System.getProperty("java.home"), "bin", "java"), classPath, "--version");
    assertThat(current.exit()).as(current.err()).isZero();
    assertThat(current.out()).startsWith("kvscope ");

    Path old = oldJava();
    assumeTrue(old != null, "no Java older than 21 under /usr/lib/jvm");
    ProcessResult refused = java(old, classPath, "--version");
    assertThat(refused.exit()).isEqualTo(ExitCodes.ERROR);
    assertThat(refused.err()).contains("kvscope: needs Java 21 or newer; this is Java ")
        .contains("bin/kvscope").doesNotContain("UnsupportedClassVersionError").doesNotContain("Exception");
    assertThat(refused.err().lines().filter(line -> !line.contains(old.getParent().getParent().toString())))
        .allMatch(line -> line.length() <= 80);
  }
}
