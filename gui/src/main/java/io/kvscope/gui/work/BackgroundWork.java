package io.kvscope.gui.work;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javafx.concurrent.Task;
import javafx.concurrent.WorkerStateEvent;

/**
 * The window's worker threads. Daemon threads, so a closed window never keeps the JVM alive;
 * {@link #close()} interrupts whatever still runs.
 */
public final class BackgroundWork implements AutoCloseable {

  private final ExecutorService executor;

  public BackgroundWork() {
    AtomicInteger count = new AtomicInteger();
    executor = Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, "kvscope-gui-work-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  /**
   * Runs {@code work} in the background; {@code done} gets its result on the FX thread, {@code
   * failed} its exception (not called when cancelled).
   */
  public <T> Task<T> run(String title, Work<T> work, Consumer<T> done, Consumer<Throwable> failed) {
    WorkTask<T> task = new WorkTask<>(title, work);
    task.addEventHandler(WorkerStateEvent.WORKER_STATE_SUCCEEDED, e -> done.accept(task.getValue()));
    task.addEventHandler(WorkerStateEvent.WORKER_STATE_FAILED, e -> failed.accept(task.getException()));
    executor.execute(task);
    return task;
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
