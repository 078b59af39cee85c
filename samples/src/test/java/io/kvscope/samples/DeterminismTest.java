package io.kvscope.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Same seed, same bytes; another seed, another incident. */
class DeterminismTest {

  private static final Scale QUARTER = Scale.parse("0.25x");

  @Test
  void theSameSeedWritesByteIdenticalFilesAndAnotherSeedDoesNot(@TempDir Path tmp) throws Exception {
    GeneratorOptions options = new GeneratorOptions(11L, QUARTER, FleetMode.INCIDENT, OutputCompression.ROTATED);
    new IncidentGenerator().generate(tmp.resolve("a"), options);
    new IncidentGenerator().generate(tmp.resolve("b"), options);
    new IncidentGenerator().generate(tmp.resolve("c"), new GeneratorOptions(12L, QUARTER, FleetMode.INCIDENT,
        OutputCompression.ROTATED));

    Map<String, String> a = digests(tmp.resolve("a"));
    Map<String, String> b = digests(tmp.resolve("b"));
    Map<String, String> c = digests(tmp.resolve("c"));
    assertThat(a).hasSizeGreaterThan(20).isEqualTo(b);
    assertThat(a.keySet()).anyMatch(k -> k.endsWith(".gz"));
    assertThat(c.get("truth.json")).isNotEqualTo(a.get("truth.json"));
    long differing = a.keySet().stream().filter(k -> c.containsKey(k) && !a.get(k).equals(c.get(k))).count();
    assertThat(differing).isGreaterThan(20);
  }

  private static Map<String, String> digests(Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
        out.put(root.relativize(p).toString().replace('\\', '/'), sha256(p));
      }
    }
    return out;
  }

  private static String sha256(Path p) throws IOException {
    try (InputStream in = Files.newInputStream(p)) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[1 << 16];
      int n;
      while ((n = in.read(buf)) > 0) {
        md.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
