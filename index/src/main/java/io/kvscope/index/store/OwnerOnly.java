package io.kvscope.index.store;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.stream.Stream;

/**
 * kvscope's files hold customers' prompts: every directory it creates is 0700 and every file
 * 0600, on file systems that have POSIX permissions.
 */
public final class OwnerOnly {

  private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
  private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private OwnerOnly() {}

  /**
   * Creates {@code dir} (and missing parents) owner-only, or makes an existing one owner-only. A
   * shared folder that already exists (sticky, like {@code /tmp}, or another user's) is left as it
   * is: tightening it would lock everyone else out; what kvscope writes into it is created
   * owner-only ({@link #fileAttributes}, {@link OwnerOnlyDirectory}).
   */
  public static Path directory(Path dir) throws IOException {
    if (POSIX) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIR)); // owner-only from the start
    } else {
      Files.createDirectories(dir);
    }
    if (POSIX && !shared(dir)) {
      Files.setPosixFilePermissions(dir, DIR);
    }
    return dir;
  }

  private static final int STICKY = 01000;

  private static boolean shared(Path dir) throws IOException {
    try {
      int mode = (Integer) Files.getAttribute(dir, "unix:mode");
      int owner = (Integer) Files.getAttribute(dir, "unix:uid");
      int self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      return (mode & STICKY) != 0 || owner != self;
    } catch (UnsupportedOperationException | IllegalArgumentException | IOException noUnixView) {
      return false; // no way to tell: keep the owner-only default
    }
  }

  /** Creates an empty file that is owner-only from the start; fails if it exists. */
  public static Path createFile(Path file) throws IOException {
    return Files.createFile(file, fileAttributes());
  }

  /** The attributes that make a file owner-only as it is created (none where there are no POSIX permissions). */
  public static java.nio.file.attribute.FileAttribute<?>[] fileAttributes() {
    return POSIX ? new java.nio.file.attribute.FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)}
        : new java.nio.file.attribute.FileAttribute<?>[0];
  }

  /** Makes an existing file owner-only. */
  public static Path file(Path file) throws IOException {
    if (POSIX && Files.isRegularFile(file)) {
      Files.setPosixFilePermissions(file, FILE);
    }
    return file;
  }

  /** Makes every file and directory directly inside {@code dir} owner-only. */
  public static void contents(Path dir) throws IOException {
    if (!POSIX) {
      return;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path entry : (Iterable<Path>) entries::iterator) {
        try {
          Files.setPosixFilePermissions(entry, Files.isDirectory(entry) ? DIR : FILE);
        } catch (java.nio.file.NoSuchFileException mergedAway) {
          // Lucene deleted it between the listing and now.
        }
      }
    }
  }

  /** Writes a file atomically (write to a sibling, then rename) with owner-only permissions. */
  public static void writeAtomically(Path target, byte[] content) throws IOException {
    Path parent = target.toAbsolutePath().getParent();
    directory(parent);
    Path temp = Files.createTempFile(parent, "." + target.getFileName(), ".tmp", fileAttributes());
    try {
      Files.write(temp, content);
      Files.move(temp, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
