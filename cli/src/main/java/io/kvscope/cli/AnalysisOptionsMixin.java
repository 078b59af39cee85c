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

  AnalysisOptions toOptions() {
    AnalysisOptions defaults = AnalysisOptions.defaults();
    return new AnalysisOptions(since, until, fixedVersion == null ? defaults.fixedVersion() : fixedVersion,
        minSpan == null ? defaults.minSpanTokens() : minSpan, horizon == null ? defaults.sourceHorizon() : horizon,
        defaults.underrunRatio(), defaults.timingFactor(), defaults.minUncachedForTiming());
  }
}
