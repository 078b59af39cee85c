package io.kvscope.ingest;

import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeActivity;
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

  public List<EngineEvent> events(EngineEvent.Kind kind) {
    return events().stream().filter(e -> e.kind() == kind).toList();
  }

  public List<ConfigEpoch> epochs() {
    return items.stream().filter(ConfigEpoch.class::isInstance).map(ConfigEpoch.class::cast).toList();
  }

  public List<io.kvscope.ingest.record.NodeAlias> aliases() {
    return items.stream().filter(io.kvscope.ingest.record.NodeAlias.class::isInstance)
        .map(io.kvscope.ingest.record.NodeAlias.class::cast).toList();
  }

  public List<io.kvscope.ingest.record.VersionRecord> versions() {
    return items.stream().filter(io.kvscope.ingest.record.VersionRecord.class::isInstance)
        .map(io.kvscope.ingest.record.VersionRecord.class::cast).toList();
  }

  public List<NodeActivity> activity() {
    return items.stream().filter(NodeActivity.class::isInstance).map(NodeActivity.class::cast).toList();
  }

  /** Every string of every record, to prove something (prompt text) never got into one. */
  public String allRecordText() {
    StringBuilder all = new StringBuilder();
    for (Ingested item : items) {
      all.append(item).append('\n');
    }
    for (BadInput b : bad) {
      all.append(b.reason()).append('\n');
    }
    return all.toString();
  }
}
