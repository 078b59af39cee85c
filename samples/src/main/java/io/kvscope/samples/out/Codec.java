package io.kvscope.samples.out;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.GZIPOutputStream;

/** How one output file is compressed. */
public enum Codec {
  PLAIN(""),
  GZIP(".gz"),
  /** zstd with a 128 MiB long-distance window: pasted manuals repeat across megabyte prompts. */
  ZSTD(".zst");

  private final String extension;

  Codec(String extension) {
    this.extension = extension;
  }

  public String extension() {
    return extension;
  }

  OutputStream wrap(OutputStream raw) throws IOException {
    return switch (this) {
      case PLAIN -> raw;
      case GZIP -> new GZIPOutputStream(raw, 1 << 16) {
        {
          def.setLevel(6);
        }
      };
      case ZSTD -> new ZstdOutputStream(raw, 12).setLong(27).setChecksum(true);
    };
  }
}
