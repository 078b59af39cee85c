package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file and a folder the user may not read, among readable ones. Root reads everything, so as
 * root the ingest runs in a child process without the capabilities that bypass file permissions
 * ({@code setpriv} dropping CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH): the permission checks are
 * then the kernel's real ones, as for an ordinary user.
 */
class UnreadableInputTest {

  private static final List<String> WITHOUT_OVERRIDE = List.of("setpriv",
      "--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search");

  @TempDir Path tmp;

  @Test
  void unreadableFilesAndFoldersAreListedAndTheReadableOnesIngested() throws Exception {
    Path in = tmp.resolve("in");
    StringBuilder good = new StringBuilder();
    for (int i = 0; i < 20; i++) {
      good.append(FleetFiles.litellm(i, "org-" + i % 3, 100, "readable " + i)).append('\n');
    }
    FleetFiles.write(in.resolve("a-readable.jsonl"), good.toString(), false);
    FleetFiles.write(in.resolve("b-locked.jsonl"), FleetFiles.litellm(100, "org-x", 100, "locked") + "\n", false);
    FleetFiles.write(in.resolve("c-locked-folder/inside.jsonl"), FleetFiles.litellm(101, "org-x", 100, "locked") + "\n", false);
    FleetFiles.write(in.resolve("d-readable.jsonl"), FleetFiles.litellm(102, "org-y", 100, "after") + "\n", false);
    Files.setPosixFilePermissions(in.resolve("b-locked.jsonl"), PosixFilePermissions.fromString("---------"));
    Files.setPosixFilePermissions(in.resolve("c-locked-folder"), PosixFilePermissions.fromString("---------"));
    Path index = tmp.resolve("index");
    try {
      String out;
      int exit;
      if (ChildKvScope.isRoot()) {
        assumeTrue(ChildKvScope.works("setpriv", "--inh-caps=-dac_override", "--bounding-set=-dac_override", "true"),
            "running as root and setpriv cannot drop CAP_DAC_OVERRIDE here, so no file is unreadable to this test");
        ChildKvScope.Result run = ChildKvScope.run(tmp, "ingest", WITHOUT_OVERRIDE, "512m", 3,
            "ingest", in.toString(), "--index", index.toString(), "--quiet");
        out = run.out();
        exit = run.exitCode();
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception");
      } else {
        CliTestSupport.Run run = CliTestSupport.run("ingest", in.toString(), "--index", index.toString(), "--quiet");
        out = run.out();
        exit = run.exitCode();
        BadInputSuiteTest.assertNoEscapedException(run);
      }

      assertThat(exit).as(out).isZero();
      assertThat(BadInputSuiteTest.problemLines(out))
          .anyMatch(l -> l.startsWith(in.resolve("b-locked.jsonl") + ": ") && l.contains("permission denied"))
          .anyMatch(l -> l.startsWith(in.resolve("c-locked-folder") + ": ") && l.contains("ermission denied"));
      assertThat(IndexContents.requestIds(index)).hasSize(21).contains("gw-0", "gw-19", "gw-102");
    } finally {
      Files.setPosixFilePermissions(in.resolve("b-locked.jsonl"), PosixFilePermissions.fromString("rw-------"));
      Files.setPosixFilePermissions(in.resolve("c-locked-folder"), PosixFilePermissions.fromString("rwx------"));
    }
  }
}
