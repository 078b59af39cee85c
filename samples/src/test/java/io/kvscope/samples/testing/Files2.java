package io.kvscope.samples.testing;

import com.github.luben.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Test-side file access: decompresses by magic bytes, independently of the ingest module. */
public final class Files2 {

  private Files2() {}

  public static InputStream open(Path p) throws IOException {
    InputStream in = new BufferedInputStream(Files.newInputStream(p), 1 << 16);
    in.mark(4);
    byte[] magic = in.readNBytes(4);
    in.reset();
    if (magic.length >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
      return new GZIPInputStream(in, 1 << 16);
    }
    if (magic.length == 4 && (magic[0] & 0xff) == 0x28 && (magic[1] & 0xff) == 0xb5 && (magic[2] & 0xff) == 0x2f
        && (magic[3] & 0xff) == 0xfd) {
      return new ZstdInputStream(in);
    }
    return in;
  }

  public static BufferedReader reader(Path p) throws IOException {
    return new BufferedReader(new InputStreamReader(open(p), StandardCharsets.UTF_8), 1 << 16);
  }
}
