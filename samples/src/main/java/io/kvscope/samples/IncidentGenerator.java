package io.kvscope.samples;

import io.kvscope.samples.fleet.Fleet;
import io.kvscope.samples.out.CodecPolicy;
import io.kvscope.samples.out.Codec;
import io.kvscope.samples.out.LogRecorder;
import io.kvscope.samples.out.OutputFile;
import io.kvscope.samples.out.WrittenFile;
import io.kvscope.samples.sim.Simulator;
import io.kvscope.samples.sim.TruthBuilder;
import io.kvscope.samples.text.CorpusFile;
import io.kvscope.samples.text.Identifiers;
import io.kvscope.samples.text.SharedTexts;
import io.kvscope.samples.truth.DuplicateTruth;
import io.kvscope.samples.truth.FileTruth;
import io.kvscope.samples.truth.GeneratorInfo;
import io.kvscope.samples.truth.GroundTruth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Generates a sample incident: simulates the fleet (see {@link Fleet}) and writes what it would
 * leave behind under an output directory:
 *
 * <pre>
 *   gateway/litellm-YYYY-MM-DD.jsonl[.gz|.zst]   LiteLLM StandardLoggingPayload, one file per UTC day
 *   traces/otel-genai-spans.jsonl[.zst]          OTLP/JSON GenAI client spans (part of the tenants)
 *   engine/sglang-{prefill|decode}-XN.log[.gz|.zst]  one SGLang server log per node
 *   deployment/engine-versions.csv                the operator's deployment manifest (engine releases)
 *   deployment/pods-YYYY-MM-DD.json               the pods as kubectl get pods -o json showed them
 *   truth.json                                    the ground truth (see {@link GroundTruth})
 * </pre>
 *
 * Deterministic: the same options give byte-identical files. Memory is bounded by the requests in
 * flight and the decode pools, not by the output size. Not thread-safe; use one instance per run.
 */
public final class IncidentGenerator {

  /** Regular expression of the canary markers planted in prompts. */
  public static final String CANARY_PATTERN = Identifiers.CANARY_PATTERN;

  /**
   * Public manuals long prompts paste from (about 1,600 tokens each). Kept small: callers paste the
   * same manuals again and again, which is what makes megabyte prompts compress.
   */
  private static final int MANUALS = 40;

  /** The incident at {@code scale} with rotated (partly gzipped) logs. */
  public GenerationSummary generate(Path outDir, long seed, Scale scale) throws IOException {
    return generate(outDir, GeneratorOptions.incident(seed, scale));
  }

  /**
   * Generates into {@code outDir}, which must be empty or not exist yet (stale files from another
   * run would mix into the incident).
   */
  public GenerationSummary generate(Path outDir, GeneratorOptions options) throws IOException {
    requireEmpty(outDir);
    Fleet fleet = options.mode() == FleetMode.INCIDENT ? Fleet.incident() : Fleet.clean();
    Scale scale = options.scale();
    SharedTexts shared = options.corpus() == null ? SharedTexts.builtIn(options.seed(), MANUALS)
        : SharedTexts.withCorpus(options.seed(), MANUALS, CorpusFile.read(options.corpus()));
    OutputFile.createDirectories(outDir);
    LogRecorder recorder = new LogRecorder(outDir, fleet, codecs(options.compression()), options.seed());
    Simulator simulator = new Simulator(new Simulator.Settings(options.seed(), scale.tenants(),
        scale.newRequestsPerDay() * options.sizeMix().ordinaryFactor(), scale.overLengthScale(), MANUALS,
        options.traps()), fleet, shared, recorder);
    Simulator.Result result = simulator.run();
    LogRecorder.Written written = recorder.written();

    List<FileTruth> files = new ArrayList<>();
    long raw = 0;
    long bytes = 0;
    for (WrittenFile f : written.files()) {
      files.add(new FileTruth(f.path(), f.format(), f.codec().label(), f.bytes(),
          f.rawBytes(), f.lines()));
      raw += f.rawBytes();
      bytes += f.bytes();
    }
    List<DuplicateTruth> duplicates = written.duplicates().stream()
        .map(d -> new DuplicateTruth(d.file(), d.originalFile(), Instant.ofEpochMilli(d.start()),
            Instant.ofEpochMilli(d.end()), d.lines()))
        .toList();
    // The scale's label names a mix other than the incident's own, so that truth.json tells them apart.
    String scaleLabel = (options.sizeMix() == SizeMix.INCIDENT ? scale.name()
        : scale.name() + " " + options.sizeMix().name().toLowerCase(Locale.ROOT)) + (options.traps() ? " traps" : "");
    GeneratorInfo info = new GeneratorInfo(options.seed(), scaleLabel,
        options.mode().name().toLowerCase(Locale.ROOT), scale.tenants(), result.requests(),
        written.litellmRecords(), written.otlpSpans(), result.charsPerToken(), Fleet.PAGE_SIZE,
        Fleet.FIXED_VERSION, CANARY_PATTERN, shared.origin());
    GroundTruth truth = TruthBuilder.build(result, fleet, info, files, duplicates, written.droppedEngineLines());
    Path truthFile = outDir.resolve("truth.json");
    truth.write(truthFile);
    return new GenerationSummary(outDir, truthFile, written.files(), raw, bytes, result.requests(),
        written.litellmRecords(), written.otlpSpans(), truth.summary());
  }

  private static void requireEmpty(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      try (Stream<Path> entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new IOException("output directory " + dir + " is not empty; choose a new or empty directory");
        }
      }
    } else if (Files.exists(dir)) {
      throw new IOException("output path " + dir + " exists and is not a directory");
    }
  }

  private static CodecPolicy codecs(OutputCompression c) {
    return switch (c) {
      case PLAIN -> CodecPolicy.plain();
      case ROTATED -> CodecPolicy.rotated();
      case ZSTD -> CodecPolicy.uniform(Codec.ZSTD);
      case ZSTD_MAX -> CodecPolicy.uniform(Codec.ZSTD_MAX);
    };
  }
}
