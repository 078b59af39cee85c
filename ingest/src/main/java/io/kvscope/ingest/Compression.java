package io.kvscope.ingest;

import com.github.luben.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/** How a file's bytes are packed, told by its magic number, never by its extension. */
public enum Compression {
  NONE,
  GZIP,
  ZSTD;

  private static final int BUFFER = 64 * 1024;

  /** Reads the magic number from the first bytes of a file. */
  public static Compression detect(byte[] magic, int length) {
    if (length >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
      return GZIP;
    }
    if (length >= 4 && (magic[0] & 0xff) == 0x28 && (magic[1] & 0xff) == 0xb5
        && (magic[2] & 0xff) == 0x2f && (magic[3] & 0xff) == 0xfd) {
      return ZSTD;
    }
    return NONE;
  }

  /** Wraps {@code raw} so that reads return decompressed bytes (all gzip members, all zstd frames). */
  public InputStream decompress(InputStream raw) throws IOException {
    return switch (this) {
      case NONE -> raw;
      case GZIP -> new GZIPInputStream(raw, BUFFER);
      case ZSTD -> new ZstdInputStream(raw);
    };
  }
}
