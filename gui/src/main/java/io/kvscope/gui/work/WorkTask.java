package io.kvscope.gui.work;

import io.kvscope.gui.WorkProgress;
import javafx.concurrent.Task;

/** A {@link Task} running a {@link Work}, with the task's message, progress and cancel state as its {@link WorkProgress}. */
public final class WorkTask<T> extends Task<T> {

  private final Work<T> work;

  public WorkTask(String title, Work<T> work) {
    this.work = work;
    updateTitle(title);
    updateMessage(title);
  }

  @Override
  protected T call() throws Exception {
    return work.run(new WorkProgress() {
      @Override
      public void update(String message, double fraction) {
        updateMessage(message);
        if (fraction < 0) {
          updateProgress(-1, 1);
        } else {
          updateProgress(Math.min(1, fraction), 1);
        }
      }

      @Override
      public boolean isCancelled() {
        return WorkTask.this.isCancelled();
      }
    });
  }
}
