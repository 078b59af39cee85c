package io.kvscope.index.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnerOnlyTest {

  @TempDir Path tmp;

  @Test
  void tightensItsOwnFoldersButLeavesASharedStickyFolderAsItIs() throws Exception {
    Path mine = Files.createDirectories(tmp.resolve("mine"));
    Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path shared = Files.createDirectories(tmp.resolve("shared"));
    Process chmod = new ProcessBuilder("chmod", "1777", shared.toString()).start();
    assumeTrue(chmod.waitFor() == 0, "chmod cannot set the sticky bit here");

    OwnerOnly.directory(mine);
    OwnerOnly.directory(shared);
    Path reports = OwnerOnly.directory(shared.resolve("reports"));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(mine))).isEqualTo("rwx------");
    assertThat((Integer) Files.getAttribute(shared, "unix:mode") & 07777).as("like /tmp: still open to all").isEqualTo(01777);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(reports))).isEqualTo("rwx------");
  }
}
