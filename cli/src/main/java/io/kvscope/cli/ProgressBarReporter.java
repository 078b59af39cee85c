package io.kvscope.cli;

import io.kvscope.index.IngestProgress;
import io.kvscope.ingest.BadInput;
import java.io.PrintStream;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Ingest progress on stderr: a progress bar in MB when stderr is a terminal, nothing otherwise.
 * Bad inputs are printed as {@code file:line: reason} (never their content), the first
 * {@value #MAX_PRINTED} of them, unless quiet; all are counted in the summary and kept in
 * quarantine.
 */
final class ProgressBarReporter implements IngestProgress {

  static final int MAX_PRINTED = 20;

  private final PrintStream err;
  private final boolean showBar;
  private final boolean quiet;
  private ProgressBar bar;
  private long printed;
  private long suppressed;

  ProgressBarReporter(PrintStream err, boolean quiet) {
    this.err = err;
    this.showBar = interactive(quiet);
    this.quiet = quiet;
  }

  /**
   * Bars only when a person is watching: stderr on a terminal and not {@code --quiet}. The JVM
   * cannot tell whether stderr alone is a terminal, so the launcher script tests it
   * ({@code [ -t 2 ]}) and says so in {@code KVSCOPE_STDERR_TTY}.
   */
  static boolean interactive(boolean quiet) {
    return !quiet && "1".equals(System.getenv("KVSCOPE_STDERR_TTY"));
  }

  @Override
  public void started(int files, long totalBytes) {
    if (showBar) {
      bar = new ProgressBarBuilder()
          .setTaskName("ingest")
          .setInitialMax(Math.max(1, totalBytes / 1_000_000))
          .setUnit(" MB", 1)
          .setStyle(ProgressBarStyle.ASCII)
          .setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(err))
          .showSpeed()
          .build();
    }
  }

  @Override
  public void file(String name, String format) {
    if (bar != null) {
      bar.setExtraMessage(" " + format);
    }
  }

  @Override
  public void advanced(long bytesDone) {
    if (bar != null) {
      bar.stepTo(bytesDone / 1_000_000);
    }
  }

  @Override
  public void bad(BadInput bad) {
    if (quiet) {
      return;
    }
    if (printed < MAX_PRINTED) {
      printed++;
      if (bar != null) {
        err.print("\r\033[K");
      }
      err.println(bad);
    } else {
      suppressed++;
    }
  }

  @Override
  public void finished() {
    if (bar != null) {
      bar.close();
    }
    if (suppressed > 0) {
      err.println("... and " + suppressed + " more bad inputs (see the quarantine file)");
    }
  }
}
