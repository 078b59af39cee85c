package io.kvscope.gui;

/**
 * How long work (opening an index, computing a report, writing a bundle) reports progress to the
 * workbench and learns that the user cancelled it. Implementations are thread-safe.
 */
public interface WorkProgress {

  /** A progress that shows nothing and is never cancelled. */
  WorkProgress NONE = new WorkProgress() {
    @Override
    public void update(String message, double fraction) {}

    @Override
    public boolean isCancelled() {
      return false;
    }
  };

  /**
   * @param message what is being done, for a person (never request content)
   * @param fraction done so far, 0..1, or negative when unknown
   */
  void update(String message, double fraction);

  /** True once the user pressed Cancel: stop soon and throw or return anything. */
  boolean isCancelled();
}
