package io.kvscope.ingest;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A file to ingest: opens it decompressed whatever its packing, and counts the raw bytes read so
 * far for progress and throughput. One instance per file and per pass.
 */
public final class InputFile {

  private final Path path;
  private final String name;
  private final long resumeAfterLine;
  private final AtomicLong rawBytesRead = new AtomicLong();
  private final AtomicReference<String> sha256 = new AtomicReference<>();
  private Compression compression;
  private long lineReached;
  private boolean endedEarly;

  /**
   * @param name how records and errors cite this file (usually the path as the user gave it)
   * @param resumeAfterLine lines already committed by an earlier, interrupted run; {@link #lines}
   *     skips them without handing them to the parser
   */
  public InputFile(Path path, String name, long resumeAfterLine) {
    this.path = path;
    this.name = name;
    this.resumeAfterLine = resumeAfterLine;
  }

  public InputFile(Path path) {
    this(path, path.toString(), 0);
  }

  public Path path() {
    return path;
  }

  public String name() {
    return name;
  }

  public long resumeAfterLine() {
    return resumeAfterLine;
  }

  /**
   * The number of the line {@link LineReader} last handed out: after a parser failed, the line it
   * failed on. 0 before any line, and for formats that are not read by line.
   */
  public long lineReached() {
    return lineReached;
  }

  void lineReached(long line) {
    lineReached = line;
  }

  /**
   * True when the data ended before the file did (a damaged or truncated archive, an Arrow stream
   * cut short): whatever followed the damage was lost, so the file was not read completely.
   */
  public boolean endedEarly() {
    return endedEarly;
  }

  /** Says the data ended early; readers call it where they report the damage. */
  public void markEndedEarly() {
    endedEarly = true;
  }

  /** Raw (compressed) bytes consumed so far by streams opened on this file. */
  public long rawBytesRead() {
    return rawBytesRead.get();
  }

  /**
   * The SHA-256 (hex) of the file's bytes as stored, taken while a stream from {@link #open} read
   * them: the file is read once for both. Null until such a stream has seen every byte (a reader
   * that stopped more than {@link #DRAIN_LIMIT} bytes short, or skipped, leaves it null).
   */
  public String sha256() {
    return sha256.get();
  }

  /** What closing a stream still reads to finish the hash (a gzip trailer, a last line left unread). */
  static final long DRAIN_LIMIT = 1 << 20;

  public long size() throws IOException {
    return Files.size(path);
  }

  public Compression compression() throws IOException {
    if (compression == null) {
      try (InputStream in = Files.newInputStream(path)) {
        byte[] magic = in.readNBytes(4);
        compression = Compression.detect(magic, magic.length);
      }
    }
    return compression;
  }

  /** Opens the decompressed content. The caller closes it. */
  public InputStream open() throws IOException {
    InputStream raw = new CountingStream(Files.newInputStream(path), rawBytesRead, sha256);
    return new BufferedInputStream(decompressed(new BufferedInputStream(raw, 1 << 16)), 1 << 16);
  }

  /**
   * Reads the first {@link Sniff#HEAD_BYTES} decompressed bytes for detection. A damaged archive
   * yields whatever could be decompressed before the damage.
   */
  public Sniff sniff() throws IOException {
    byte[] head;
    try (InputStream in = new BufferedInputStream(decompressed(new BufferedInputStream(Files.newInputStream(path))))) {
      head = readUpTo(in, Sniff.HEAD_BYTES);
    }
    return new Sniff(path.getFileName().toString(), head, compression());
  }

  /**
   * The decompressed view of {@code raw}. A decompressor throws at the damage; the buffers above
   * it must not read ahead into that throw, or they drop the good bytes they already hold.
   */
  private InputStream decompressed(InputStream raw) throws IOException {
    Compression packing = compression();
    if (packing == Compression.NONE) {
      return raw;
    }
    try {
      InputStream unpacked = packing.decompress(raw);
      return new NoReadAhead(packing == Compression.ZSTD ? new SmallReads(unpacked) : unpacked);
    } catch (IOException | RuntimeException e) {
      raw.close(); // e.g. a gzip header cut short: do not leak the file handle
      throw e;
    }
  }

  private static byte[] readUpTo(InputStream in, int max) {
    byte[] buffer = new byte[max];
    int filled = 0;
    try {
      int n;
      while (filled < max && (n = in.read(buffer, filled, max - filled)) > 0) {
        filled += n;
      }
    } catch (IOException damagedAfterThis) {
      // Keep what decompressed cleanly; the parse reports the damage with its line.
    }
    return java.util.Arrays.copyOf(buffer, filled);
  }

  /** Line-by-line reading with line numbers, skipping {@link #resumeAfterLine()} lines. */
  public LineReader lines(RecordSink sink) throws IOException {
    return new LineReader(this, open(), sink, resumeAfterLine);
  }

  /**
   * Claims nothing is available without blocking, so that {@link BufferedInputStream} returns
   * what one read gave instead of reading again (a later read may throw at damaged data, and the
   * bytes of the earlier reads in the same call would be lost with it).
   */
  private static final class NoReadAhead extends FilterInputStream {
    NoReadAhead(InputStream in) {
      super(in);
    }

    @Override
    public int available() {
      return 0;
    }
  }

  /**
   * Asks zstd for at most {@value #MAX} bytes a read. zstd checks a frame's checksum in the same
   * call that hands out the frame's last bytes, and on a mismatch that call throws: everything it
   * decoded is lost with it. With small reads that is at most these few bytes, as with the
   * {@code zstd} tool, instead of the whole file when it fits in one read.
   */
  private static final class SmallReads extends FilterInputStream {
    static final int MAX = 8192;

    SmallReads(InputStream in) {
      super(in);
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return super.read(b, off, Math.min(len, MAX));
    }
  }

  /** Counts the raw bytes read and hashes them, publishing the hash when closed after the last byte. */
  private static final class CountingStream extends FilterInputStream {
    private final AtomicLong counter;
    private final AtomicReference<String> hashOut;
    private MessageDigest digest = sha256Digest();

    CountingStream(InputStream in, AtomicLong counter, AtomicReference<String> hashOut) {
      super(in);
      this.counter = counter;
      this.hashOut = hashOut;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        counter.incrementAndGet();
        if (digest != null) {
          digest.update((byte) b);
        }
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        counter.addAndGet(n);
        if (digest != null) {
          digest.update(b, off, n);
        }
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(n);
      counter.addAndGet(skipped);
      digest = null; // skipped bytes are not hashed: this reading gives no hash
      return skipped;
    }

    @Override
    public void close() throws IOException {
      try {
        if (digest != null) {
          byte[] rest = in.readNBytes((int) DRAIN_LIMIT + 1);
          if (rest.length <= DRAIN_LIMIT) {
            digest.update(rest);
            hashOut.set(HexFormat.of().formatHex(digest.digest()));
          }
          digest = null;
        }
      } finally {
        super.close();
      }
    }

    private static MessageDigest sha256Digest() {
      try {
        return MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException everyJavaHasIt) {
        throw new IllegalStateException(everyJavaHasIt);
      }
    }
  }
}
