package io.kvscope.spark;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;
import org.apache.spark.TaskContext;
import org.apache.spark.util.TaskCompletionListener;

/**
 * Rows handed to Spark as a push parser makes them, through a queue of at most a few hundred: a task
 * holds a bounded share of a file's rows, not all of them, however large the file. kvscope's
 * ingestors push records into a sink, and Spark pulls rows from an iterator, so the parser runs on a
 * thread of its own and waits while the queue is full. When the task ends early (cancelled, or a
 * failure downstream), the parser is stopped at its next row.
 *
 * @param <T> what flows: one-pass rows in the ingest
 */
final class BoundedRows<T> implements Iterator<T> {

  /** Rows in flight per task: enough to keep both threads busy, few enough that multi-megabyte prompts stay bounded. */
  static final int CAPACITY = 64;

  /** What makes the rows: runs once, on the parser's thread, and sends each row to its argument. */
  @FunctionalInterface
  interface Producer<T> {
    void produce(Consumer<T> rows) throws Exception;
  }

  private static final Object END = new Object();

  private final BlockingQueue<Object> queue;
  private final Thread thread;
  private volatile boolean stopped;
  private volatile Throwable failure;
  private Object next;

  private BoundedRows(int capacity, Producer<T> producer) {
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.thread = Thread.ofPlatform().daemon().name("kvscope-rows").unstarted(() -> {
      try {
        producer.produce(this::put);
      } catch (Throwable failed) {
        failure = failed;
      } finally {
        if (!stopped) {
          offerEnd();
        }
      }
    });
  }

  /** Starts {@code producer} and returns its rows; in a Spark task, the task's end stops it. */
  static <T> Iterator<T> of(Producer<T> producer) {
    return of(CAPACITY, producer);
  }

  static <T> Iterator<T> of(int capacity, Producer<T> producer) {
    BoundedRows<T> rows = new BoundedRows<>(capacity, producer);
    TaskContext task = TaskContext.get();
    if (task != null) {
      task.addTaskCompletionListener((TaskCompletionListener) context -> rows.stop());
    }
    rows.thread.start();
    return rows;
  }

  @Override
  public boolean hasNext() {
    if (next == null) {
      try {
        next = queue.take();
      } catch (InterruptedException interrupted) {
        stop();
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the parser was reading", interrupted);
      }
    }
    if (next == END) {
      if (failure instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (failure instanceof Error error) {
        throw error;
      }
      if (failure != null) {
        throw new IllegalStateException(failure);
      }
      return false;
    }
    return true;
  }

  @Override
  @SuppressWarnings("unchecked")
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Object row = next;
    next = null;
    return (T) row;
  }

  /** Ends the parser at its next row; rows it had queued are dropped. */
  void stop() {
    stopped = true;
    thread.interrupt();
    queue.clear();
  }

  private void put(T row) {
    if (stopped) {
      throw new Stopped();
    }
    try {
      queue.put(row);
    } catch (InterruptedException interrupted) {
      throw new Stopped();
    }
  }

  private void offerEnd() {
    try {
      queue.put(END);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt(); // stopped meanwhile: nobody waits for the end
    }
  }

  /** Thrown into the parser when nobody reads its rows any more; every later row throws it again. */
  private static final class Stopped extends RuntimeException {
    Stopped() {
      super("the task reading these rows has ended", null, false, false);
    }
  }
}
