package io.kvscope.cli;

import io.kvscope.analysis.Analysis;
import io.kvscope.index.IngestProgress;
import io.kvscope.ingest.BadInput;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Optional;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.DefaultProgressBarRenderer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarStyle;
import me.tongfei.progressbar.ProgressState;

/**
 * Progress on stderr: one bar across the {@link Steps} a command runs (ingest, analysis or both),
 * in percent of the whole, when stderr is a terminal; nothing otherwise. Bad inputs are printed as
 * {@code file:line: reason} (never their content), the first {@value #MAX_PRINTED} of them, unless
 * quiet; all are counted in the summary and kept in quarantine. Whatever a command prints while the
 * bar runs goes {@link #above} it, so the two never share a line.
 */
final class ProgressBarReporter implements IngestProgress, Analysis.Progress, AutoCloseable {

  static final int MAX_PRINTED = 20;

  /** The steps one bar spans, and the part of it the ingest takes. */
  enum Steps {
    INGEST(1.0),
    ANALYSIS(0.0),
    /**
     * The demo's whole job. On the bench's incidents ingest took two to three times the analysis'
     * CPU (bench/README.md, issue 39), so three quarters of the bar is the ingest's.
     */
    INGEST_THEN_ANALYSIS(0.75);

    private final double ingestShare;

    Steps(double ingestShare) {
      this.ingestShare = ingestShare;
    }
  }

  /** Bar positions: tenths of a percent. */
  private static final int WHOLE = 1000;

  private final PrintStream err;
  private final Steps steps;
  private final boolean showBar;
  private final boolean quiet;
  /** Held while the bar draws and while anything is printed above it. */
  private final Object drawing = new Object();
  private PrintStream terminal;
  private ProgressBar bar;
  private long totalBytes;
  private String format = "";
  private String step;
  private long printed;
  private long suppressed;
  /** The furthest position drawn: a draw from further back arrives late and is dropped. */
  private long drawnUpTo = -1;

  ProgressBarReporter(Steps steps, PrintStream err, boolean quiet) {
    this.err = err;
    this.steps = steps;
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

  /**
   * Standard error itself, for drawing progress: stderr as commands see it escapes every control
   * character ({@link ControlCharFilter}), and a bar is drawn with carriage returns. Only
   * kvscope's own words are written here, never a value from the logs.
   */
  static PrintStream terminal() {
    return new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true,
        java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Output printed while the bar runs. */
  @FunctionalInterface
  interface Printing {
    void to(PrintStream out) throws IOException;
  }

  /**
   * Prints on {@code out} above the bar: the bar's line is cleared first and drawn again below on
   * its next tick, and it cannot draw in between.
   */
  void above(PrintStream out, Printing printing) throws IOException {
    synchronized (drawing) {
      if (bar != null) {
        terminal.print("\r\033[K");
        terminal.flush();
      }
      printing.to(out);
      out.flush();
    }
  }

  /**
   * The library's rendering, remembering on each thread the position it rendered. The bar's own
   * ticker thread and a step's {@code refresh()} both render then draw; the ticker can render,
   * lose the processor, and draw after a later position was drawn, moving the bar backwards.
   */
  private static final class PositionedRenderer extends DefaultProgressBarRenderer {
    private final ThreadLocal<Long> rendered = ThreadLocal.withInitial(() -> 0L);

    PositionedRenderer() {
      super(ProgressBarStyle.ASCII, "%", WHOLE / 100, false, null, null, true, PositionedRenderer::linearEta);
    }

    @Override
    public String render(ProgressState state, int maxLength) {
      rendered.set(state.getCurrent());
      return super.render(state, maxLength);
    }

    /** The position this thread rendered last. */
    long position() {
      return rendered.get();
    }

    /** The time left at the pace so far (the library's own estimate is not public). */
    private static Optional<Duration> linearEta(ProgressState state) {
      long done = state.getCurrent() - state.getStart();
      if (done <= 0) {
        return Optional.empty();
      }
      return Optional.of(state.getElapsedAfterStart().multipliedBy(state.getMax() - state.getCurrent()).dividedBy(done));
    }
  }

  private void open() {
    if (showBar && bar == null) {
      PositionedRenderer renderer = new PositionedRenderer();
      drawnUpTo = -1;
      terminal = terminal();
      ProgressBarConsumer console = new ConsoleProgressBarConsumer(terminal);
      bar = new ProgressBarBuilder()
          .setTaskName(steps == Steps.ANALYSIS ? "analyze" : "ingest")
          .setInitialMax(WHOLE)
          .setStyle(ProgressBarStyle.ASCII)
          .setRenderer(renderer)
          .continuousUpdate() // so that refresh() draws now
          .setConsumer(new ProgressBarConsumer() {
            @Override
            public int getMaxRenderedLength() {
              return console.getMaxRenderedLength();
            }

            @Override
            public void accept(String rendered) {
              synchronized (drawing) {
                long position = renderer.position();
                if (position >= drawnUpTo) {
                  drawnUpTo = position;
                  console.accept(rendered);
                }
              }
            }

            @Override
            public void close() {
              synchronized (drawing) {
                console.close();
              }
            }
          })
          .build();
    }
  }

  /**
   * Moves the bar to {@code fraction} of the whole job, saying which step runs and how far it is;
   * a new step is drawn at once, not at the next tick, so even a short one shows.
   */
  private void at(double fraction, String step, String detail) {
    if (bar != null) {
      bar.stepTo(Math.round(fraction * WHOLE));
      bar.setExtraMessage(" " + step + detail);
      if (!step.equals(this.step)) {
        this.step = step;
        bar.refresh();
      }
    }
  }

  @Override
  public void started(int files, long totalBytes) {
    this.totalBytes = Math.max(1, totalBytes);
    open();
    advanced(0);
  }

  @Override
  public void file(String name, String format) {
    this.format = format;
  }

  @Override
  public void advanced(long bytesDone) {
    if (bar != null) {
      at(steps.ingestShare * Math.min(1.0, (double) bytesDone / totalBytes),
          "ingest", String.format(" %,d of %,d MB %s", bytesDone / 1_000_000, totalBytes / 1_000_000, format));
    }
  }

  @Override
  public void bad(BadInput bad) {
    if (quiet) {
      return;
    }
    if (printed < MAX_PRINTED) {
      printed++;
      try {
        above(err, e -> e.println(bad));
      } catch (IOException cannot) {
        throw new java.io.UncheckedIOException(cannot); // println does not throw
      }
    } else {
      suppressed++;
    }
  }

  @Override
  public void finished() {
    if (steps == Steps.INGEST) {
      close();
    }
    if (suppressed > 0) {
      err.println("... and " + suppressed + " more bad inputs (see the quarantine file)");
    }
  }

  @Override
  public void analyzer(String name, int index, int count) {
    open();
    double analysisShare = 1 - steps.ingestShare;
    // Each analyzer an equal part: their costs differ by incident, and the part of one done is not told.
    at(steps.ingestShare + analysisShare * index / count, "analyze", " " + name);
  }

  /** The analysis, the last step, has ended: the bar is drawn full and closed. */
  void analysisEnded() {
    at(1.0, "done", "");
    close();
  }

  /** Ends the bar's line where it stands (a step that failed leaves it short); nothing when no bar was drawn. */
  @Override
  public void close() {
    if (bar != null) {
      bar.close();
      bar = null;
    }
  }
}
