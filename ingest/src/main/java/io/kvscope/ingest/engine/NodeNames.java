package io.kvscope.ingest.engine;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.InputFile;
import java.nio.file.Path;

/** How an engine file names its node: {@code --node} when given, else the file name stem. */
public final class NodeNames {

  private NodeNames() {}

  /** {@link IngestOptions#nodeName()} if set, else the name up to its first dot ({@code prefill-0.log.gz} -> {@code prefill-0}). */
  public static String of(InputFile file, IngestOptions options) {
    if (options != null && options.nodeName() != null && !options.nodeName().isBlank()) {
      return options.nodeName().strip();
    }
    return stem(file.path());
  }

  static String stem(Path path) {
    Path fileName = path.getFileName();
    String name = fileName == null ? path.toString() : fileName.toString();
    int dot = name.indexOf('.');
    String stem = dot < 0 ? name : name.substring(0, dot);
    return stem.isBlank() ? name : stem;
  }
}
