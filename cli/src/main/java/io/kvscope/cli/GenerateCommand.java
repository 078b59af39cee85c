package io.kvscope.cli;

import io.kvscope.ingest.Printable;
import io.kvscope.samples.FleetMode;
import io.kvscope.samples.GenerationSummary;
import io.kvscope.samples.GeneratorOptions;
import io.kvscope.samples.IncidentGenerator;
import io.kvscope.samples.OutputCompression;
import io.kvscope.samples.Scale;
import io.kvscope.samples.SizeMix;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

@Command(
    name = "generate",
    mixinStandardHelpOptions = true,
    description = "Generate a sample incident with known truth: gateway logs, traces and one SGLang log per node "
        + "from a paged-KV-pool simulation, plus truth.json. Deterministic per --seed (and --corpus file).")
final class GenerateCommand implements Callable<Integer> {

  @Option(names = {"-o", "--out"}, paramLabel = "DIR", required = true, description = "Where to write the incident.")
  Path out;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Random seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--scale", paramLabel = "SCALE", defaultValue = "small", converter = ScaleConverter.class,
      description = "small | medium | large | Nx, e.g. 4x (default: ${DEFAULT-VALUE}).")
  Scale scale;

  @Option(names = "--clean", description = "A fleet without the bug (pool >= context, fixed engine): audits exit 0.")
  boolean clean;

  @Option(names = "--compression", paramLabel = "KIND", defaultValue = "ROTATED",
      description = "PLAIN, ROTATED (some files gzipped, as rotated logs), ZSTD, or ZSTD_MAX (zstd level 19: the "
          + "smallest files, minutes to write) (default: ${DEFAULT-VALUE}).")
  OutputCompression compression;

  @Option(names = "--corpus", paramLabel = "FILE",
      description = {"Build questions, answers and pasted documents from this corpus of real questions",
          "answered by real models (JSON lines: turns, answers per model; plain or .zst), read now",
          "and written only into the incident. Default: the built-in text."})
  Path corpus;

  @Option(names = "--size-mix", paramLabel = "MIX", defaultValue = "INCIDENT",
      description = {"INCIDENT (a few dozen megabyte over-length prompts carry most bytes at small scale) or CHAT",
          "(a chat service's mix: eight times the ordinary requests around the same over-length prompts,",
          "most records a few kilobytes) (default: ${DEFAULT-VALUE})."})
  SizeMix sizeMix;

  @Option(names = "--traps",
      description = {"Also make the situations that fool an analysis reading text alone: stub replies that open",
          "with phrasing many tenants hold, questions asked after pasted text or in near-duplicate words and",
          "answered as another tenant's were (served normally), leaks under 12 words and canaries in another",
          "format. truth.json marks each (decoys[], not_expected); without it the incident is unchanged."})
  boolean traps;

  @Override
  public Integer call() throws Exception {
    GeneratorOptions options = GeneratorOptions.incident(seed, scale)
        .withMode(clean ? FleetMode.CLEAN : FleetMode.INCIDENT).withCompression(compression).withCorpus(corpus)
        .withSizeMix(sizeMix).withTraps(traps);
    GenerationSummary summary = new IncidentGenerator().generate(out, options);
    System.out.printf("Generated %,d requests (%,d gateway records, %,d trace spans) in %d files, %.1f MB on disk%n",
        summary.requests(), summary.litellmRecords(), summary.otlpSpans(), summary.files().size(), summary.bytes() / 1e6);
    System.out.println("Ground truth: " + Printable.text(summary.truthFile()));
    return ExitCodes.OK;
  }

  static final class ScaleConverter implements ITypeConverter<Scale> {
    @Override
    public Scale convert(String value) {
      return Scale.parse(value);
    }
  }
}
