package io.kvscope.gui.work;

import io.kvscope.gui.WorkProgress;

/** A piece of blocking work that reports progress and honours cancellation. */
@FunctionalInterface
public interface Work<T> {
  T run(WorkProgress progress) throws Exception;
}
