package io.kvscope.gui.export;

import java.nio.file.Path;
import java.util.Optional;

/** Asks the user for a file to write or a directory; empty when they cancel. */
public interface FileChoosers {

  /** @param extension without the dot, e.g. {@code csv} */
  Optional<Path> saveFile(String title, String suggestedName, String extension);

  Optional<Path> directory(String title);
}
