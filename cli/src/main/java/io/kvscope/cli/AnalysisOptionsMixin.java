package io.kvscope.cli;

import io.kvscope.analysis.AnalysisOptions;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Option;

/**
 * The options every analysing command shares; builds the one {@link AnalysisOptions} value. An
 * option left out takes {@link AnalysisOptions#defaults()}, the one home of every default.
 */
final class AnalysisOptionsMixin {

  @Option(names = "--since", paramLabel = "TIME", converter = TimeArguments.TimeConverter.class,
      description = "Only requests starting at or after TIME: " + TimeArguments.TIME_FORMS + ".")
  Instant since;

  @Option(names = "--until", paramLabel = "TIME", converter = TimeArguments.TimeConverter.class,
      description = "Only requests starting before TIME (same forms as --since).")
  Instant until;

  @Option(names = "--fixed-version", paramLabel = "V",
      description = "First engine release with the admission fix; older engines are unpatched "
          + "(default: " + AnalysisOptions.DEFAULT_FIXED_VERSION + ").")
  String fixedVersion;

  @Option(names = "--min-span", paramLabel = "WORDS",
      description = "Shortest verbatim run of words that counts as leaked text (default: "
          + AnalysisOptions.DEFAULT_MIN_SPAN_TOKENS + ").")
  Integer minSpan;

  @Option(names = "--horizon", paramLabel = "DURATION", converter = TimeArguments.DurationConverter.class,
      description = "How long before a response its source may lie: " + TimeArguments.DURATION_FORMS
          + " (default: " + AnalysisOptions.DEFAULT_HORIZON_DAYS + "d).")
  Duration horizon;

  @Option(names = "--threads", paramLabel = "N",
      description = "Threads the cross-tenant overlap judges responses on; the findings are the same on any"
          + " number (default: one per core, for an incident large enough to pay for them).")
  Integer threads;

  AnalysisOptions toOptions() {
    AnalysisOptions defaults = AnalysisOptions.defaults();
    return new AnalysisOptions(since, until, fixedVersion == null ? defaults.fixedVersion() : fixedVersion,
        minSpan == null ? defaults.minSpanTokens() : minSpan, horizon == null ? defaults.sourceHorizon() : horizon,
        defaults.underrunRatio(), defaults.timingFactor(), defaults.minUncachedForTiming(),
        threads == null ? defaults.threads() : threads);
  }
}
