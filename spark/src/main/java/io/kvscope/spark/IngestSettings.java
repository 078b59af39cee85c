package io.kvscope.spark;

import io.kvscope.ingest.IngestOptions;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@link IngestOptions} a task needs, in a form Spark can ship to executors ({@code Path} is
 * not serializable). A mapping file must be readable at the same path on every executor.
 */
record IngestSettings(List<String> tenantKeys, String nodeName, String mappingFile) implements Serializable {

  IngestSettings {
    tenantKeys = tenantKeys == null ? null : List.copyOf(tenantKeys);
  }

  static IngestSettings of(IngestOptions options) {
    return new IngestSettings(options.tenantKeys(), options.nodeName(),
        options.mappingFile() == null ? null : options.mappingFile().toString());
  }

  IngestOptions options() {
    return new IngestOptions(tenantKeys, nodeName, mappingFile == null ? null : Path.of(mappingFile));
  }
}
