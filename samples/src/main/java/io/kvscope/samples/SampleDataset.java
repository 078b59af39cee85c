package io.kvscope.samples;

import io.kvscope.samples.out.OutputFile;
import io.kvscope.samples.truth.GroundTruth;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * The incident shipped with kvscope: {@link Scale#SMALL} at seed {@link #SEED}, all logs and deployment records zstd
 * compressed (about 6 MB), with its {@code truth.json}. It is byte for byte what
 * {@code new IncidentGenerator().generate(dir, SampleDataset.options())} writes.
 */
public final class SampleDataset {

  public static final long SEED = 5L;

  /** Classpath folder of the shipped files; {@code index.txt} lists them. */
  public static final String RESOURCE_ROOT = "io/kvscope/samples/incident/";

  private SampleDataset() {}

  /** The options the shipped dataset was generated with. */
  public static GeneratorOptions options() {
    return new GeneratorOptions(SEED, Scale.SMALL, FleetMode.INCIDENT, OutputCompression.ZSTD_MAX);
  }

  /** Relative paths of the shipped files (logs and {@code truth.json}). */
  public static List<String> files() throws IOException {
    List<String> out = new ArrayList<>();
    try (InputStream in = open("index.txt");
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (!line.isBlank()) {
          out.add(line.trim());
        }
      }
    }
    return out;
  }

  /** Opens one shipped file (as stored: logs are zstd-compressed). */
  public static InputStream open(String relative) throws IOException {
    InputStream in = SampleDataset.class.getClassLoader().getResourceAsStream(RESOURCE_ROOT + relative);
    if (in == null) {
      throw new IOException("sample dataset file missing from the classpath: " + RESOURCE_ROOT + relative);
    }
    return in;
  }

  /** The shipped ground truth. */
  public static GroundTruth truth() throws IOException {
    try (InputStream in = open("truth.json")) {
      return GroundTruth.read(in);
    }
  }

  /** Copies the shipped files into {@code dir} (created owner-only), keeping their relative paths. */
  public static Path extractTo(Path dir) throws IOException {
    boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    for (String rel : files()) {
      Path target = dir.resolve(rel);
      OutputFile.createDirectories(target.getParent());
      Files.deleteIfExists(target);
      if (posix) {
        Files.createFile(target, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
      try (InputStream in = open(rel);
          OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        in.transferTo(out);
      }
    }
    return dir;
  }
}
