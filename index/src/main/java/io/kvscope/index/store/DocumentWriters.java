package io.kvscope.index.store;

import io.kvscope.index.doc.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.lucene.document.Document;

/**
 * Builds documents and adds them to the {@link IndexStore} on worker threads, so that identifier
 * extraction, fingerprinting and Lucene's own analysis of multi-megabyte prompts use every core
 * while the caller goes on parsing. Lucene's {@code IndexWriter} takes documents from several
 * threads at once.
 *
 * <p>Order is kept where it matters: every document is routed by a key that is equal for equal
 * {@link Schema#ID}s, and each worker writes in submission order, so when two records replace one
 * another the later one still wins. {@link #flush()} returns once everything submitted is in the
 * writer, which is what a checkpoint needs before it commits. Memory is bounded: at most
 * {@code maxCharsInFlight} chars of text (and a few documents per worker) wait at any time, however
 * large the input.
 *
 * <p>With no worker, documents are built and written on the caller's thread, exactly in order.
 * A failure on a worker is thrown, once, from the next {@link #submit} or {@link #flush()}; an
 * {@link IOException} (the index failed) arrives as an {@link UncheckedIOException}.
 */
public final class DocumentWriters implements AutoCloseable {

  /** Default text budget in flight: enough for a few multi-megabyte prompts per worker. */
  public static final int DEFAULT_MAX_CHARS_IN_FLIGHT = 64 << 20;
  private static final int QUEUE_PER_WORKER = 256;

  private final IndexStore store;
  private final List<Worker> workers = new ArrayList<>();
  private final Semaphore chars;
  private final int maxChars;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final Object doneLock = new Object();
  private long submitted;
  private long done; // guarded by doneLock

  /** A document to build (on a worker) and write. */
  private record Task(Supplier<Document> build, int weight) {}

  private static final Task STOP = new Task(null, 0);

  /** @param workers threads that build and write documents while the caller goes on; 0: the caller does */
  public DocumentWriters(IndexStore store, int workers, int maxCharsInFlight) {
    this.store = store;
    this.maxChars = Math.max(1, maxCharsInFlight);
    this.chars = new Semaphore(maxChars);
    for (int i = 0; i < workers; i++) {
      Worker worker = new Worker(i);
      this.workers.add(worker);
      worker.thread.start();
    }
  }

  /**
   * Worker threads to use by default: one per core, at most four (the writer's merges want some
   * too), and none on one core, where the caller writes. On two cores one worker would take 5-7%
   * of the CPU off a small ingest (each worker fills an in-memory segment of its own, so a word two
   * of them meet is hashed, held and flushed twice), but at 4 GB it left the writing on one core
   * and the ingest 18% longer (bench/README.md, "Gateway ingest per CPU second at 0.25x").
   */
  public static int defaultWorkers() {
    return defaultWorkers(Runtime.getRuntime().availableProcessors());
  }

  static int defaultWorkers(int cores) {
    return cores <= 1 ? 0 : Math.min(4, cores);
  }

  /**
   * Builds and writes a document. {@code route} must be equal for documents that may share an
   * id; {@code textChars} is the text the task holds (for the memory bound).
   */
  public void submit(int route, long textChars, Supplier<Document> build) {
    rethrowFailure();
    if (workers.isEmpty()) {
      write(build.get());
      return;
    }
    int weight = (int) Math.min(maxChars, Math.max(1, textChars));
    chars.acquireUninterruptibly(weight);
    submitted++;
    Worker worker = workers.get(Math.floorMod(route, workers.size()));
    try {
      worker.queue.put(new Task(build, weight));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while queueing a document", e);
    }
  }

  /** Waits until every submitted document is in the index writer (not yet committed). */
  public void flush() {
    if (!workers.isEmpty()) {
      synchronized (doneLock) {
        while (done < submitted) {
          try {
            doneLock.wait();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for documents to be written", e);
          }
        }
      }
    }
    rethrowFailure();
  }

  /** Stops the workers once they have written what is queued. */
  @Override
  public void close() {
    boolean interrupted = false;
    for (Worker worker : workers) {
      while (true) {
        try {
          worker.queue.put(STOP); // workers keep taking, so this never waits long
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    for (Worker worker : workers) {
      while (worker.thread.isAlive()) {
        try {
          worker.thread.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void write(Document doc) {
    try {
      store.put(doc);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to the index at " + store.path(), e);
    }
  }

  private void rethrowFailure() {
    Throwable t = failure.getAndSet(null);
    if (t == null) {
      return;
    }
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    throw new IllegalStateException(t);
  }

  private final class Worker implements Runnable {
    final BlockingQueue<Task> queue = new ArrayBlockingQueue<>(QUEUE_PER_WORKER);
    final Thread thread;

    Worker(int index) {
      thread = new Thread(this, "kvscope-writer-" + index);
      thread.setDaemon(true);
    }

    @Override
    public void run() {
      while (true) {
        Task task;
        try {
          task = queue.take();
        } catch (InterruptedException e) {
          return;
        }
        if (task == STOP) {
          return;
        }
        try {
          // After a failure the others are still written: a record read before it must not be lost.
          write(task.build().get());
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        } finally {
          chars.release(task.weight());
          synchronized (doneLock) {
            done++;
            doneLock.notifyAll();
          }
        }
      }
    }
  }
}
