package io.kvscope.index;

import io.kvscope.index.join.EngineFactsAtWrite;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Finding and ordering the files an ingest reads, and saying in words why one cannot be read. */
final class InputFiles {

  /** Where the walk reports what it leaves out. */
  interface Skips {
    /** A path that is not read, and why. */
    void skipped(String file, String because);

    /** kvscope's own output (an index, a report) found among the inputs; not evidence. */
    void ownOutput(String file, String what);
  }

  private InputFiles() {}

  /**
   * Regular files under the inputs, sorted for a deterministic order, each once however many
   * inputs or links lead to it, skipping the index itself. Symbolic links to folders are not
   * followed, so link loops cannot trap the walk; links that lead nowhere, folders that cannot be
   * read and files that vanish during the walk become problems of the run, not its end.
   */
  static List<Path> list(List<Path> inputs, Path index, Skips run) throws IOException {
    Path indexDir = index.toAbsolutePath().normalize();
    List<Path> candidates = new ArrayList<>();
    for (Path input : inputs) {
      if (Files.isDirectory(input)) {
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(input, new java.nio.file.SimpleFileVisitor<>() {
          @Override
          public java.nio.file.FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes attrs) {
            if (dir.toAbsolutePath().normalize().startsWith(indexDir)) {
              return java.nio.file.FileVisitResult.SKIP_SUBTREE;
            }
            if (IndexStore.isKvscopeIndex(dir)) {
              run.ownOutput(dir.toString(), "a kvscope index");
              return java.nio.file.FileVisitResult.SKIP_SUBTREE;
            }
            return java.nio.file.FileVisitResult.CONTINUE;
          }

          @Override
          public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes attrs) {
            if (attrs.isRegularFile() || (attrs.isSymbolicLink() && Files.isRegularFile(file))) {
              found.add(file);
            } else if (attrs.isSymbolicLink() && !Files.exists(file)) {
              run.skipped(file.toString(), brokenLink(file));
            }
            return java.nio.file.FileVisitResult.CONTINUE;
          }

          @Override
          public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException failure) {
            run.skipped(file.toString(), "cannot be read (" + describe(failure) + "); skipped");
            return java.nio.file.FileVisitResult.CONTINUE;
          }
        });
        found.sort(null);
        candidates.addAll(found);
      } else if (Files.isRegularFile(input)) {
        candidates.add(input);
      } else if (Files.isSymbolicLink(input)) {
        run.skipped(input.toString(), brokenLink(input));
      } else {
        throw new java.nio.file.NoSuchFileException(input.toString(), null, "no such file or folder");
      }
    }
    // One path per file: the file's own rather than a link's (engine logs name their node after it).
    Map<Path, Path> chosen = new HashMap<>();
    for (Path file : candidates) {
      chosen.merge(realPath(file), file, (kept, other) -> Files.isSymbolicLink(kept) && !Files.isSymbolicLink(other) ? other : kept);
    }
    List<Path> files = new ArrayList<>();
    for (Path file : candidates) {
      if (chosen.remove(realPath(file), file)) {
        files.add(file);
      }
    }
    return files;
  }

  private static String brokenLink(Path link) {
    try {
      link.toRealPath();
      return "symbolic link to nothing readable; skipped";
    } catch (java.nio.file.NoSuchFileException gone) {
      return "broken symbolic link (its target does not exist); skipped";
    } catch (IOException loop) {
      return "symbolic link loop (" + describe(loop) + "); skipped";
    }
  }

  /** The file behind any links, to read each file once; the path itself when that fails. */
  private static Path realPath(Path file) {
    try {
      return file.toRealPath();
    } catch (IOException unresolvable) {
      return file.toAbsolutePath().normalize();
    }
  }

  static long sizeOrZero(Path file) {
    try {
      return Files.size(file);
    } catch (IOException vanished) {
      return 0; // reported when the file's turn comes
    }
  }

  /** An I/O failure in words: the reason the OS gave, without the path the caller already names. */
  static String describe(IOException failure) {
    if (failure instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    if (failure instanceof java.nio.file.NoSuchFileException) {
      return "no longer exists";
    }
    if (failure instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (failure instanceof com.fasterxml.jackson.core.JsonProcessingException || failure.getMessage() == null) {
      return io.kvscope.ingest.FailureWords.of(failure); // Jackson quotes the offending text, which may be a prompt
    }
    return failure.getMessage();
  }

  /**
   * The files whose format carries no requests (engine logs, metrics) first, each group in its
   * own order, so that requests can be written with their engine facts ({@link EngineFactsAtWrite}).
   * A file that cannot be detected here keeps its place and is reported when its turn comes.
   */
  static List<Path> engineFactsFirst(List<Path> files, Ingestors ingestors, IngestOptions options) {
    List<Path> engineSide = new ArrayList<>();
    List<Path> rest = new ArrayList<>();
    for (Path file : files) {
      boolean noRequests;
      try {
        noRequests = ingestors.detect(new InputFile(file, file.toString(), 0), options)
            .map(ingestor -> !ingestor.carriesRequests()).orElse(false);
      } catch (IOException | RuntimeException undetectable) {
        noRequests = false;
      }
      (noRequests ? engineSide : rest).add(file);
    }
    engineSide.addAll(rest);
    return engineSide;
  }

  static String identity(Path file) {
    return file.toAbsolutePath().normalize().toString();
  }
}
