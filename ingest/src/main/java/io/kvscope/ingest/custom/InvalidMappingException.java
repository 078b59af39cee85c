package io.kvscope.ingest.custom;

import java.nio.file.Path;

/**
 * The mapping file given with {@code --mapping} cannot be used. A configuration error: it stops
 * the run with a message naming the file and what to fix, rather than letting a file be read with
 * the wrong format.
 */
public final class InvalidMappingException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  InvalidMappingException(Path mappingFile, String problem) {
    super("mapping file " + mappingFile + ": " + problem);
  }

  InvalidMappingException(Path mappingFile, String problem, Throwable cause) {
    super("mapping file " + mappingFile + ": " + problem, cause);
  }
}
