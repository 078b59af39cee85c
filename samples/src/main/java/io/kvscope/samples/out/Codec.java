package io.kvscope.samples.out;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.GZIPOutputStream;

/** How one output file is compressed. */
public enum Codec {
  PLAIN("", "plain"),
  GZIP(".gz", "gzip"),
  /** zstd level 9 with a 128 MiB long-distance window: pasted manuals repeat across megabyte prompts. */
  ZSTD(".zst", "zstd"),
  /** zstd level 19, same window: the smallest files, slow to write (the shipped dataset). */
  ZSTD_MAX(".zst", "zstd");

  private final String extension;
  private final String label;

  Codec(String extension, String label) {
    this.extension = extension;
    this.label = label;
  }

  public String extension() {
    return extension;
  }

  /** {@code plain}, {@code gzip} or {@code zstd}, as written in truth.json. */
  public String label() {
    return label;
  }

  OutputStream wrap(OutputStream raw) throws IOException {
    return switch (this) {
      case PLAIN -> raw;
      case GZIP -> new GZIPOutputStream(raw, 1 << 16) {
        {
          def.setLevel(6);
        }
      };
      case ZSTD -> new ZstdOutputStream(raw, 9).setLong(27).setChecksum(true);
      case ZSTD_MAX -> new ZstdOutputStream(raw, 19).setLong(27).setChecksum(true);
    };
  }
}
