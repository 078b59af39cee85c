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
    assumeBash();
    Path checkout = Files.createDirectories(tmp.resolve("checkout"));
    Path launcher = copyLauncher(checkout);
    Path jdk = Files.createDirectories(tmp.resolve("jdk/bin"));
    Path java = Files.writeString(jdk.resolve("java"), "#!/bin/sh\necho \"ran: $*\"\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
    Path finder = Files.createDirectories(checkout.resolve("cli/src/dist/bin")).resolve("jdk.sh");
    Files.writeString(finder, "kvscope_find_jdk() { export JAVA_HOME='" + jdk.getParent() + "'; }\n"
        + "kvscope_exec() { jar=\"$1\"; shift; exec \"$JAVA_HOME/bin/java\" --flag -jar \"$jar\" \"$@\"; }\n");
    Path jar = standInJar(checkout);
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("kvscope"), launcher);

    String output = bash(tmp, "kvscope -V", bin + ":/usr/bin:/bin");

    assertThat(output.strip()).isEqualTo("ran: --flag -jar " + jar + " -V");
  }

  /**
   * The AOT cache of JDK 25+ through the real launcher and jdk.sh, on a stand-in JDK whose java
   * logs its arguments and writes what the AOT modes would: the first good run of a heavy command
   * records and the launcher creates the cache (owner-only), later runs map it, a rebuild records
   * anew and drops the old cache, a failed run leaves none, light commands and JDK 21 get no AOT flag.
   */
  @Test
  void theAotCacheIsRecordedOnceThenUsedAndRenewedAfterARebuild(@TempDir Path tmp) throws Exception {
    assumeBash();
    Path checkout = launcherCheckout(tmp);
    Path jar = checkout.resolve("cli/target/kvscope.jar");
    Path log = tmp.resolve("java.log");
    Path jdk25 = standInJdk(tmp.resolve("jdk25"), "25.0.1", log);
    Path cache = tmp.resolve("cache");

    String first = launch(checkout, jdk25, cache, "ingest in --index idx");
    List<String> calls = Files.readAllLines(log);
    assertThat(calls).hasSize(2);
    assertThat(calls.get(0)).contains("-XX:AOTMode=record", "-jar " + jar + " ingest in --index idx")
        .doesNotContain("-XX:AOTCache=");
    assertThat(calls.get(1)).contains("-XX:AOTMode=create", "--add-opens=java.base/java.nio=ALL-UNNAMED");
    assertThat(first).isEqualTo("ran\n"); // the cache is written quietly
    Path aot = tmp.resolve("cache/kvscope/aot");
    List<Path> made = listing(aot);
    assertThat(made).hasSize(1).allMatch(p -> p.getFileName().toString().matches("ingest-[0-9]+-[0-9]+\\.aot"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(aot))).isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(made.get(0)))).isEqualTo("rw-------");

    Files.delete(log);
    launch(checkout, jdk25, cache, "ingest in --index idx");
    assertThat(Files.readAllLines(log)).singleElement().asString().contains("-XX:AOTCache=" + made.get(0))
        .doesNotContain("AOTMode");

    Files.delete(log);
    launch(checkout, jdk25, cache, "--version");
    launch(checkout, jdk25, cache, "search --index idx hello");
    launch(checkout, jdk25, cache, "analyze --help");
    assertThat(Files.readAllLines(log)).hasSize(3).noneMatch(call -> call.contains("AOT"));

    Files.delete(log);
    Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 120_000)); // a rebuild
    launch(checkout, jdk25, cache, "ingest in --index idx");
    assertThat(Files.readAllLines(log)).hasSize(2).first().asString().contains("-XX:AOTMode=record");
    assertThat(listing(aot)).hasSize(1).doesNotContain(made.get(0));

    Files.delete(log);
    Files.writeString(tmp.resolve("fail"), "");
    launch(checkout, jdk25, cache, "analyze --index idx", 1);
    assertThat(Files.readAllLines(log)).singleElement().asString().contains("-XX:AOTMode=record");
    assertThat(listing(aot)).hasSize(1).allMatch(p -> p.getFileName().toString().startsWith("ingest-"));
    Files.delete(tmp.resolve("fail"));

    Files.delete(log);
    launch(checkout, standInJdk(tmp.resolve("jdk21"), "21.0.5", log), cache, "analyze --index idx");
    assertThat(Files.readAllLines(log)).singleElement().asString().doesNotContain("AOT").contains("analyze --index idx");
  }

  /**
   * A cache the JDK could not create is marked, owner-only, so the build does not record again on
   * every run; the next build's cache, once made, takes the old build's mark away.
   */
  @Test
  void aCacheThatCouldNotBeMadeIsNotRecordedAgainUntilTheNextBuild(@TempDir Path tmp) throws Exception {
    assumeBash();
    Path checkout = launcherCheckout(tmp);
    Path jar = checkout.resolve("cli/target/kvscope.jar");
    Path log = tmp.resolve("java.log");
    Path jdk25 = standInJdk(tmp.resolve("jdk25"), "25.0.1", log);
    Path cache = tmp.resolve("cache");
    Path aot = cache.resolve("kvscope/aot");

    Files.writeString(tmp.resolve("fail-create"), "");
    launch(checkout, jdk25, cache, "ingest in --index idx");
    List<Path> marks = listing(aot);
    assertThat(marks).singleElement().satisfies(mark -> {
      assertThat(mark.getFileName().toString()).matches("ingest-[0-9]+-[0-9]+\\.failed");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(mark))).isEqualTo("rw-------");
    });
    Files.delete(log);
    launch(checkout, jdk25, cache, "ingest in --index idx");
    assertThat(Files.readAllLines(log)).singleElement().asString().doesNotContain("-XX:AOT");

    Files.delete(tmp.resolve("fail-create"));
    Files.delete(log);
    Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 120_000)); // a rebuild
    launch(checkout, jdk25, cache, "ingest in --index idx");
    assertThat(Files.readAllLines(log)).hasSize(2).first().asString().contains("-XX:AOTMode=record");
    assertThat(listing(aot)).singleElement().asString().endsWith(".aot");
  }

  /**
   * A rebuild never rewrites the jars under a running command (its classes load lazily from them):
   * with sources changed, a second launch waits for the first command to end, then builds and runs.
   */
  @Test
  void aRebuildWaitsForTheCommandRunningFromTheCheckout(@TempDir Path tmp) throws Exception {
    assumeBash();
    assumeTrue(new ProcessBuilder("bash", "-c", "command -v flock").start().waitFor() == 0, "flock is installed");
    Path checkout = launcherCheckout(tmp);
    Path log = tmp.resolve("java.log");
    Path jdk = standInJdk(tmp.resolve("jdk25"), "25.0.1", log);
    Path builds = tmp.resolve("mvn.log");
    Path mvnw = Files.writeString(checkout.resolve("mvnw"), "#!/bin/sh\necho \"$*\" >> '" + builds + "'\n");
    Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwx------"));

    Process first = start(checkout, jdk, tmp, "search --index idx hold", ProcessBuilder.Redirect.DISCARD);
    awaitLine(log, "hold", first);
    Path source = Files.writeString(Files.createDirectories(checkout.resolve("cli/src/main/java")).resolve("Changed.java"), "");
    Files.setLastModifiedTime(source, FileTime.fromMillis(System.currentTimeMillis() + 120_000)); // newer than the jar
    Path secondErr = tmp.resolve("second.err");
    Process second = start(checkout, jdk, tmp, "search --index idx after", ProcessBuilder.Redirect.to(secondErr.toFile()));

    assertThat(second.waitFor(3, TimeUnit.SECONDS)).as("the second launch waits").isFalse();
    assertThat(builds).doesNotExist();
    assertThat(Files.readString(secondErr)).contains("waiting for the kvscope commands running from this checkout");

    Files.writeString(tmp.resolve("go-on"), "");
    assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(second.exitValue()).as(Files.readString(secondErr)).isZero();
    assertThat(Files.readAllLines(builds)).singleElement().asString().contains("-pl cli -am package");
    assertThat(Files.readAllLines(log)).satisfiesExactly(
        call -> assertThat(call).endsWith("search --index idx hold"),
        call -> assertThat(call).endsWith("search --index idx after"));
  }

  /** Waits until a line of {@code log} contains {@code text}, while {@code process} runs. */
  private static void awaitLine(Path log, String text, Process process) throws Exception {
    for (int tries = 0; tries < 300; tries++) {
      if (Files.exists(log) && Files.readString(log).contains(text)) {
        return;
      }
      assertThat(process.isAlive()).as("the command is still running").isTrue();
      Thread.sleep(100);
    }
    throw new AssertionError("no line with " + text + " in " + log);
  }

  /** scope's own JVM runs the analysis after its job: it records a cache of its own and maps it later. */
  @Test
  void scopeRecordsACacheOfItsOwn(@TempDir Path tmp) throws Exception {
    assumeBash();
    Path checkout = launcherCheckout(tmp);
    // The spark module's build stamp, so that the launcher builds nothing for scope.
    Files.writeString(Files.createDirectories(checkout.resolve("spark/target")).resolve("classpath.txt"), "");
    Path log = tmp.resolve("java.log");
    Path jdk25 = standInJdk(tmp.resolve("jdk25"), "25.0.1", log);
    Path cache = tmp.resolve("cache");

    launch(checkout, jdk25, cache, "analyze --index idx -q");
    launch(checkout, jdk25, cache, "scope incident --out scoped -q");
    List<Path> made = listing(tmp.resolve("cache/kvscope/aot"));
    assertThat(made).extracting(p -> p.getFileName().toString().replaceAll("-[0-9]+-[0-9]+\\.aot$", ""))
        .containsExactly("analyze", "scope");

    Files.delete(log);
    launch(checkout, jdk25, cache, "scope incident --out scoped -q");
    assertThat(Files.readAllLines(log)).singleElement().asString()
        .contains("-XX:AOTCache=" + made.get(1), "scope incident --out scoped -q").doesNotContain("AOTMode");
  }

  /**
   * analyze given inputs ingests them in the same JVM and loads classes analyze of an index never
   * does: each kind records a cache of its own, and each later run maps its own kind's.
   */
  @Test
  void analyzeGivenInputsAndAnalyzeOfAnIndexEachRecordTheirOwnCache(@TempDir Path tmp) throws Exception {
    assumeBash();
    Path checkout = launcherCheckout(tmp);
    Path log = tmp.resolve("java.log");
    Path jdk25 = standInJdk(tmp.resolve("jdk25"), "25.0.1", log);
    Path cache = tmp.resolve("cache");

    launch(checkout, jdk25, cache, "analyze --index idx --out report -q");
    launch(checkout, jdk25, cache, "analyze incident --index idx -q");
    Path aot = tmp.resolve("cache/kvscope/aot");
    List<Path> made = listing(aot);
    assertThat(made).extracting(p -> p.getFileName().toString().replaceAll("-[0-9]+-[0-9]+\\.aot$", ""))
        .containsExactly("analyze", "analyze-inputs");

    Files.delete(log);
    launch(checkout, jdk25, cache, "-q analyze --reveal --index=idx incident");
    launch(checkout, jdk25, cache, "analyze --index idx --reveal --since 2026-01-01T00:00:00Z");
    assertThat(Files.readAllLines(log)).satisfiesExactly(
            call -> assertThat(call).contains("-XX:AOTCache=" + made.get(1)).doesNotContain("AOTMode"),
            call -> assertThat(call).contains("-XX:AOTCache=" + made.get(0)).doesNotContain("AOTMode"));
  }

  /**
   * The smaller C2 inlining bounds (bench/README.md, "What C2 compiles" and "The inlining pair
   * decided") reach every JVM the launcher starts, on any JDK, the AOT cache's create step included,
   * unless the user's KVSCOPE_JAVA_OPTS sets a bound of its own (the last occurrence of a JVM flag
   * would win); a bound the user sets leaves the others in.
   */
  @Test
  void everyJvmGetsTheSmallerInliningBoundsUnlessTheUserSetsThem(@TempDir Path tmp) throws Exception {
    assumeBash();
    Path log = tmp.resolve("java.log");
    Path checkout = launcherCheckout(tmp);
    Path jdk = null;
    for (String[] run : new String[][] {{"21.0.5", "search --index idx hello"}, {"25.0.1", "ingest in --index idx"}}) {
      jdk = standInJdk(tmp.resolve("jdk-" + run[0]), run[0], log);
      launch(checkout, jdk, tmp.resolve("cache"), run[1]);
    }
    assertThat(Files.readAllLines(log)).hasSize(3) // the search, then the ingest's recording run and its create step
        .allSatisfy(call -> assertThat(call).contains("-XX:InlineSmallCode=1000", "-XX:FreqInlineSize=200", "-XX:MaxInlineSize=20"));

    String flags = bash(tmp, "source '" + checkout.resolve("cli/src/dist/bin/jdk.sh") + "'; JAVA_HOME='" + jdk
        + "' KVSCOPE_JAVA_OPTS='-Xmx1g -XX:InlineSmallCode=2500 -XX:MaxInlineSize=35' kvscope_jvm_flags", "/usr/bin:/bin");
    assertThat(flags.lines().toList()).contains("--add-opens=java.base/java.nio=ALL-UNNAMED", "-XX:FreqInlineSize=200")
        .noneMatch(flag -> flag.startsWith("-XX:InlineSmallCode") || flag.startsWith("-XX:MaxInlineSize"));
  }

  /**
   * The rarer tier-2 count checks (bench/README.md, "The C2 queue on two cores") reach every JVM the
   * launcher starts on JDK 25+, where the AOT cache holds the profiles that send tier-2 methods to C2,
   * the create step included; none on JDK 21; and a check the user's KVSCOPE_JAVA_OPTS sets is left
   * out while the other stays.
   */
  @Test
  void theTierTwoCountChecksAreRarerOnJdk25UnlessTheUserSetsThem(@TempDir Path tmp) throws Exception {
    assumeBash();
    Path log = tmp.resolve("java.log");
    Path checkout = launcherCheckout(tmp);
    List<String> rarer = List.of("-XX:Tier2InvokeNotifyFreqLog=13", "-XX:Tier2BackedgeNotifyFreqLog=16");
    launch(checkout, standInJdk(tmp.resolve("jdk-21"), "21.0.5", log), tmp.resolve("cache"), "search --index idx hello");
    assertThat(Files.readAllLines(log)).hasSize(1).noneMatch(call -> call.contains("Tier2"));

    Path jdk25 = standInJdk(tmp.resolve("jdk-25"), "25.0.1", log);
    launch(checkout, jdk25, tmp.resolve("cache"), "ingest in --index idx");
    List<String> calls = Files.readAllLines(log);
    assertThat(calls.subList(1, calls.size())).hasSize(2) // the ingest's recording run and its create step
        .allSatisfy(call -> assertThat(List.of(call.split(" "))).containsAll(rarer));

    String flags = bash(tmp, "source '" + checkout.resolve("cli/src/dist/bin/jdk.sh") + "'; JAVA_HOME='" + jdk25
        + "' KVSCOPE_JAVA_OPTS='-Xmx1g -XX:Tier2InvokeNotifyFreqLog=11' kvscope_jvm_flags", "/usr/bin:/bin");
    assertThat(flags.lines().toList()).contains("-XX:Tier2BackedgeNotifyFreqLog=16", "-XX:InlineSmallCode=1000")
        .noneMatch(flag -> flag.startsWith("-XX:Tier2InvokeNotifyFreqLog"));
  }

  /**
   * The serial collector (bench/README.md, "The serial collector on two cores") goes to a JVM on a
   * machine of at most two cores, not to one of more, and never beside a collector the user's
   * KVSCOPE_JAVA_OPTS chooses (two collectors make the JVM refuse to start).
   */
  @Test
  void theSerialCollectorOnlyOnTwoCoresAndOnlyWhenTheUserChoseNone(@TempDir Path tmp) throws Exception {
    assumeBash();
    Path log = tmp.resolve("java.log");
    Path checkout = launcherCheckout(tmp);
    Path jdk = standInJdk(tmp.resolve("jdk-25"), "25.0.1", log);
    String source = "unset KVSCOPE_JAVA_OPTS; source '" + checkout.resolve("cli/src/dist/bin/jdk.sh") + "'; JAVA_HOME='" + jdk + "'; ";
    for (int cores : new int[] {1, 2, 3, 64}) {
      String flags = bash(tmp, source + "kvscope_cores() { echo " + cores + "; }; kvscope_jvm_flags", "/usr/bin:/bin");
      assertThat(flags.lines().filter(flag -> flag.endsWith("GC")).toList()).as("%d cores", cores)
          .isEqualTo(cores <= 2 ? List.of("-XX:+UseSerialGC") : List.of());
    }
    String chosen = bash(tmp, source + "kvscope_cores() { echo 2; }; KVSCOPE_JAVA_OPTS='-Xmx1g -XX:+UseParallelGC -XX:+AlwaysPreTouch'"
        + " kvscope_jvm_flags", "/usr/bin:/bin");
    assertThat(chosen.lines().toList()).contains("-XX:InlineSmallCode=1000").noneMatch(flag -> flag.endsWith("GC"));
    assertThat(Integer.parseInt(bash(tmp, source + "kvscope_cores", "/usr/bin:/bin").strip())).isPositive();
  }

  /** The launcher tells an input from an option's value by the command's own options that take none. */
  @Test
  void theLauncherKnowsWhichOfAnalyzesOptionsTakeNoValue() throws Exception {
    java.util.regex.Matcher listed = java.util.regex.Pattern.compile("kvscope_analyze_flags=\" ([^\"]*) \"")
        .matcher(Files.readString(ROOT.resolve("cli/src/dist/bin/jdk.sh")));
    assertThat(listed.find()).isTrue();
    List<String> taking = KvScope.model("analyze").getSubcommands().get("analyze").getCommandSpec()
        .options().stream().filter(option -> option.arity().max() == 0)
        .flatMap(option -> java.util.Arrays.stream(option.names())).toList();
    assertThat(listed.group(1).split(" ")).containsExactlyInAnyOrderElementsOf(taking);
  }

  private static void assumeBash() {
    assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")), "no bash");
  }

  /** A checkout with the real launcher and jdk.sh, a stand-in jar with one library, nothing to build. */
  private static Path launcherCheckout(Path tmp) throws java.io.IOException {
    Path checkout = Files.createDirectories(tmp.resolve("checkout"));
    copyLauncher(checkout);
    Files.copy(ROOT.resolve("cli/src/dist/bin/jdk.sh"),
        Files.createDirectories(checkout.resolve("cli/src/dist/bin")).resolve("jdk.sh"));
    standInJar(checkout);
    Files.writeString(Files.createDirectories(checkout.resolve("cli/target/lib")).resolve("lucene.jar"), "stand-in");
    return checkout;
  }

  private static Path copyLauncher(Path checkout) throws java.io.IOException {
    Path launcher = Files.copy(ROOT.resolve("kvscope"), checkout.resolve("kvscope"));
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
    return launcher;
  }

  /** The checkout's jar, newer than its sources so that the launcher builds nothing. */
  private static Path standInJar(Path checkout) throws java.io.IOException {
    Path jar = Files.createDirectories(checkout.resolve("cli/target")).resolve("kvscope.jar");
    Files.writeString(jar, "stand-in");
    Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
    return jar;
  }

  /** A JDK folder whose java appends its arguments to {@code log}, writes the files the AOT modes name, prints "ran". */
  private static Path standInJdk(Path home, String version, Path log) throws Exception {
    Path bin = Files.createDirectories(home.resolve("bin"));
    Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\nJAVA_RUNTIME_VERSION=\"" + version + "+1\"\n");
    Path java = Files.writeString(bin.resolve("java"), "#!/bin/bash\n"
        + "echo \"$*\" >> '" + log + "'\n"
        + "for a in \"$@\"; do case \"$a\" in\n"
        + "  -XX:AOTConfiguration=*) conf=\"${a#*=}\" ;;\n"
        + "  -XX:AOTCache=*) cache=\"${a#*=}\" ;;\n"
        + "  -XX:AOTMode=*) mode=\"${a#*=}\" ;;\n"
        + "esac; done\n"
        + "if [ -e '" + home.getParent().resolve("fail") + "' ]; then exit 1; fi\n"
        + "case \" $* \" in *' hold '*) while [ ! -e '" + home.getParent().resolve("go-on") + "' ]; do sleep 0.1; done ;; esac\n"
        + "if [ \"$mode\" = record ]; then echo recorded > \"$conf\"; echo 'AOTConfiguration recorded' >&2; fi\n"
        + "if [ \"$mode\" = create ] && [ -e '" + home.getParent().resolve("fail-create") + "' ]; then exit 1; fi\n"
        + "if [ \"$mode\" = create ]; then echo cache > \"$cache\"; echo 'AOTCache creation is complete'; exit 0; fi\n"
        + "echo ran\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(Files.writeString(bin.resolve("javac"), ""), PosixFilePermissions.fromString("rwx------"));
    return home;
  }

  /** Runs the checkout's launcher with {@code args} on {@code jdk}, caching under {@code cache}; its stdout. */
  private static String launch(Path checkout, Path jdk, Path cache, String args) throws Exception {
    return launch(checkout, jdk, cache, args, 0);
  }

  private static String launch(Path checkout, Path jdk, Path cache, String args, int exit) throws Exception {
    Process process = start(checkout, jdk, cache, args, ProcessBuilder.Redirect.PIPE);
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.getErrorStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(args).isEqualTo(exit);
    return out;
  }

  /** Starts the checkout's launcher with {@code args} on {@code jdk}, its stderr to {@code stderr}. */
  private static Process start(Path checkout, Path jdk, Path cache, String args, ProcessBuilder.Redirect stderr)
      throws java.io.IOException {
    ProcessBuilder builder = new ProcessBuilder("bash", "-c", "./kvscope " + args).directory(checkout.toFile())
        .redirectError(stderr);
    builder.environment().put("JAVA_HOME", jdk.toString());
    builder.environment().put("XDG_CACHE_HOME", cache.toString());
    builder.environment().remove("KVSCOPE_AOT");
    builder.environment().remove("KVSCOPE_JAVA_OPTS");
    return builder.start();
  }

  private static List<Path> listing(Path dir) throws java.io.IOException {
    try (var files = Files.list(dir)) {
      return files.sorted().toList();
    }
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
