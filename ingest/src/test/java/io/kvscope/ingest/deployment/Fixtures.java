package io.kvscope.ingest.deployment;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Copies a fixture from {@code src/test/resources/fixtures/deployment} into a test folder. */
final class Fixtures {

  private Fixtures() {}

  static Path copy(String name, Path dir) throws IOException {
    Path target = dir.resolve(name);
    try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/deployment/" + name)) {
      if (in == null) {
        throw new IOException("no fixture " + name);
      }
      Files.copy(in, target);
    }
    return target;
  }
}
