package io.kvscope.cli;

import io.kvscope.analysis.AnalysisOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/** The options every analysing command shares; builds the one {@link AnalysisOptions} value. */
final class AnalysisOptionsMixin {

  @Option(names = "--since", paramLabel = "TIME", converter = InstantConverter.class,
      description = "Only requests starting at or after TIME (2026-08-27 or 2026-08-27T10:00:00Z).")
  Instant since;

  @Option(names = "--until", paramLabel = "TIME", converter = InstantConverter.class,
      description = "Only requests starting before TIME.")
  Instant until;

  @Option(names = "--fixed-version", paramLabel = "V", defaultValue = AnalysisOptions.DEFAULT_FIXED_VERSION,
      description = "First engine release with the admission fix (default: ${DEFAULT-VALUE}).")
  String fixedVersion;

  @Option(names = "--min-span", paramLabel = "TOKENS", defaultValue = "16",
      description = "Shortest verbatim run that counts as leaked text (default: ${DEFAULT-VALUE}).")
  int minSpan;

  @Option(names = "--horizon", paramLabel = "DURATION", defaultValue = "P7D",
      description = "How long before a response its source may lie, ISO-8601 (default: ${DEFAULT-VALUE}).")
  Duration horizon;

  AnalysisOptions toOptions() {
    AnalysisOptions defaults = AnalysisOptions.defaults();
    return new AnalysisOptions(since, until, fixedVersion, minSpan, horizon, defaults.underrunRatio(),
        defaults.timingFactor(), defaults.minUncachedForTiming(), defaults.canaryPrefixes());
  }

  /** A date (midnight UTC) or an ISO instant. */
  static final class InstantConverter implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
      return value.length() == 10 ? LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant() : Instant.parse(value);
    }
  }
}
