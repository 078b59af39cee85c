package io.kvscope.samples;

import java.nio.file.Path;

/**
 * Developer tool (test sources): generates an incident and prints sizes and throughput.
 * Arguments: outDir seed scale [plain|rotated|zstd] [incident|clean].
 */
public final class GenerateTool {

  private GenerateTool() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    long seed = Long.parseLong(args[1]);
    Scale scale = Scale.parse(args[2]);
    OutputCompression c = args.length > 3 ? OutputCompression.valueOf(args[3].toUpperCase()) : OutputCompression.ROTATED;
    FleetMode mode = args.length > 4 ? FleetMode.valueOf(args[4].toUpperCase()) : FleetMode.INCIDENT;
    long t0 = System.nanoTime();
    GenerationSummary s = new IncidentGenerator().generate(out, new GeneratorOptions(seed, scale, mode, c));
    double secs = (System.nanoTime() - t0) / 1e9;
    System.out.printf("requests=%d litellm=%d otlp=%d raw=%.1f MB disk=%.1f MB time=%.2f s throughput=%.1f MB/s raw%n",
        s.requests(), s.litellmRecords(), s.otlpSpans(), s.rawBytes() / 1e6, s.bytes() / 1e6, secs,
        s.rawBytes() / 1e6 / secs);
    System.out.println(s.expected());
    Runtime rt = Runtime.getRuntime();
    System.out.printf("heap used=%.0f MB%n", (rt.totalMemory() - rt.freeMemory()) / 1e6);
  }
}
