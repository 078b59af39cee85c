package io.kvscope.gui;

import io.kvscope.analysis.Analysis;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.impact.Report;
import io.kvscope.index.IndexIngest;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.store.IndexStore;
import io.kvscope.index.IngestProgress;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import io.kvscope.samples.GeneratorOptions;
import io.kvscope.samples.IncidentGenerator;
import io.kvscope.samples.OutputCompression;
import io.kvscope.samples.Scale;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * The incident {@code kvscope demo} shows a newcomer (seed 1, small scale: its node names, tenant
 * names and request counts), generated, ingested and analyzed for real, as the workbench's layout
 * tests need it: what has to fit at 1280 x 800 is what users will see first.
 */
record DemoIncident(Path index, Report report) {

  static final long SEED = 1;

  static DemoIncident write(Path dir) throws IOException {
    Path incident = dir.resolve("incident");
    new IncidentGenerator().generate(incident,
        GeneratorOptions.incident(SEED, Scale.SMALL).withCompression(OutputCompression.ROTATED));
    Path index = dir.resolve("index");
    try (IndexStore store = IndexStore.open(index)) {
      new IndexIngest(store, Ingestors.discover(), IngestOptions.defaults(), IngestProgress.NONE, Clock.systemUTC())
          .run(List.of(incident));
    }
    try (IndexSearch search = IndexSearch.open(index)) {
      Report report = Analysis.standard().run(search, AnalysisOptions.defaults(), (name, i, n) -> { });
      return new DemoIncident(index, report);
    }
  }
}
