package io.kvscope.ingest;

import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.RequestRecord;
import java.util.ArrayList;
import java.util.List;

/** A sink that keeps everything it is given, for assertions. */
public final class CollectingSink implements RecordSink {

  public final List<Ingested> items = new ArrayList<>();
  public final List<BadInput> bad = new ArrayList<>();
  public final List<String> badRaw = new ArrayList<>();
  public int skipped;

  @Override
  public void accept(Ingested item) {
    items.add(item);
  }

  @Override
  public void malformed(BadInput input, String raw) {
    bad.add(input);
    badRaw.add(raw);
  }

  @Override
  public void skipped() {
    skipped++;
  }

  public List<RequestRecord> records() {
    return items.stream().filter(RequestRecord.class::isInstance).map(RequestRecord.class::cast).toList();
  }

  public List<EngineEvent> events() {
    return items.stream().filter(EngineEvent.class::isInstance).map(EngineEvent.class::cast).toList();
  }

  public List<Long> badLines() {
    return bad.stream().map(BadInput::line).toList();
  }
}
