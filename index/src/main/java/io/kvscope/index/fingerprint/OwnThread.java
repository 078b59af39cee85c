package io.kvscope.index.fingerprint;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/**
 * Work started on a daemon thread of its own, whose result (or failure, as thrown there) the
 * caller takes when it needs it. For the index walks that read only and can run beside other work.
 *
 * @param <T> the result
 */
public final class OwnThread<T> {

  /** Work that may fail with an {@link IOException}. */
  @FunctionalInterface
  public interface Work<T> {
    T run() throws IOException;
  }

  private final FutureTask<T> task;

  private OwnThread(FutureTask<T> task) {
    this.task = task;
  }

  /** Starts {@code work} on a thread named {@code name}. */
  public static <T> OwnThread<T> start(String name, Work<T> work) {
    FutureTask<T> task = new FutureTask<>(work::run);
    Thread.ofPlatform().name(name).daemon().start(task);
    return new OwnThread<>(task);
  }

  /** Waits for the work; its failure is thrown here as it was thrown there. */
  public T join() throws IOException {
    return resultOf(task);
  }

  /** Waits for {@code work} done on another thread; its failure is thrown here as it was thrown there. */
  public static <T> T resultOf(Future<T> work) throws IOException {
    try {
      return work.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for work on another thread");
    } catch (ExecutionException e) {
      switch (e.getCause()) {
        case IOException io -> throw io;
        case RuntimeException runtime -> throw runtime;
        case Error error -> throw error;
        default -> throw new UncheckedIOException(new IOException(e.getCause()));
      }
    }
  }
}
