package io.kvscope.ingest.arrow;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import org.apache.arrow.vector.ipc.ReadChannel;

/**
 * A {@link ReadChannel} that refuses an absurd message length before Arrow allocates a heap
 * buffer of that size. Arrow reads each message's 4-byte length prefix and then allocates what it
 * says; in a damaged (or non-Arrow) file those 4 bytes can claim gigabytes. Message metadata
 * (schemas, batch headers) is kilobytes, so anything over {@code maxMetadataBytes} is damage.
 * Bodies are bounded separately, by the allocator's limit.
 */
final class GuardedReadChannel extends ReadChannel {

  /** IPC continuation marker that precedes the real length in the current format. */
  private static final int CONTINUATION = 0xFFFFFFFF;

  private final int maxMetadataBytes;

  GuardedReadChannel(ReadableByteChannel in, int maxMetadataBytes) {
    super(in);
    this.maxMetadataBytes = maxMetadataBytes;
  }

  @Override
  public int readFully(ByteBuffer buffer) throws IOException {
    int n = super.readFully(buffer);
    // Arrow reads length prefixes, and only those, into 4-byte heap buffers.
    if (n == 4 && buffer.capacity() == 4 && buffer.hasArray()) {
      int length = ByteBuffer.wrap(buffer.array()).order(ByteOrder.LITTLE_ENDIAN).getInt();
      if (length != CONTINUATION && (length < 0 || length > maxMetadataBytes)) {
        throw new IOException("an Arrow message header claims " + Integer.toUnsignedString(length)
            + " bytes of metadata (limit " + maxMetadataBytes + "); the data is damaged or not Arrow");
      }
    }
    return n;
  }
}
