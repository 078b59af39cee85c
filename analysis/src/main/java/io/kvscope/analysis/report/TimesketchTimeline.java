package io.kvscope.analysis.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Tenants;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import io.kvscope.ingest.KvscopeOutputs;
import io.kvscope.ingest.json.PrintableJson;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * timesketch.jsonl: the incident as events for Timesketch's JSON-lines import, so it joins the
 * rest of an investigation's timeline. Every line carries the three fields Timesketch requires
 * ({@code message}, {@code datetime} in ISO-8601, {@code timestamp_desc}), {@code timestamp} in
 * microseconds, and kvscope's own attributes: each finding at its time, and each window's start
 * and end. Like every report file it names requests, tenants and nodes, never their text. Its
 * first key marks it as kvscope's output, so an ingest never takes it for evidence.
 */
public final class TimesketchTimeline {

  public static final String FILE_NAME = Format.TIMESKETCH.fileName();

  private static final JsonFactory JSON = JsonFactory.builder().build();

  private TimesketchTimeline() {}

  /** One event before it is written: when, what kind of time, the message, and its attributes. */
  private record Event(Instant time, String timestampDesc, String message, List<String[]> attributes) {}

  public static Path write(Report report, Path target) throws IOException {
    return AtomicFile.write(target, out -> write(report, out));
  }

  static void write(Report report, OutputStream out) throws IOException {
    List<Event> events = new ArrayList<>();
    for (Finding f : report.findings()) {
      if (f.time() != null) {
        events.add(finding(f));
      }
    }
    for (Window w : report.windows()) {
      events.add(window(w, w.start(), "opens"));
      if (w.end() != null) {
        events.add(window(w, w.end(), "closes"));
      }
    }
    events.sort(Comparator.comparing(Event::time));
    try (JsonGenerator g = PrintableJson.configure(JSON.createGenerator(out))) {
      g.setRootValueSeparator(null);
      for (Event e : events) {
        g.writeStartObject();
        g.writeStringField(KvscopeOutputs.EXPORT_FIELD, "timesketch"); // an ingest skips what starts with it
        g.writeStringField("message", e.message());
        g.writeStringField("datetime", e.time().toString());
        g.writeNumberField("timestamp", ChronoUnit.MICROS.between(Instant.EPOCH, e.time()));
        g.writeStringField("timestamp_desc", e.timestampDesc());
        for (String[] attribute : e.attributes()) {
          g.writeStringField(attribute[0], attribute[1]);
        }
        g.writeEndObject();
        g.writeRaw('\n');
      }
    }
  }

  private static Event finding(Finding f) {
    StringBuilder message = new StringBuilder(f.kind().label()).append(" (").append(f.confidence().id()).append(")");
    if (f.requestId() != null) {
      message.append(": request ").append(f.requestId()).append(" of tenant ").append(Tenants.nameOf(f.tenant()));
    } else if (f.node() != null) {
      message.append(": node ").append(f.node());
    }
    List<String> sourceTenants = f.sources().stream().map(Source::tenant).map(Tenants::nameOf).distinct().sorted().toList();
    if (!sourceTenants.isEmpty()) {
      message.append(", data of ").append(String.join(", ", sourceTenants)).append(" (")
          .append(f.matchedTokens()).append(" tokens)");
    }
    List<String[]> attributes = new ArrayList<>();
    attributes.add(new String[] {"kvscope_id", f.id()});
    attributes.add(new String[] {"kind", f.kind().id()});
    attributes.add(new String[] {"confidence", f.confidence().id()});
    add(attributes, "request_id", f.requestId());
    add(attributes, "tenant", f.tenant());
    add(attributes, "node", f.node());
    add(attributes, "decode_node", f.decodeNode());
    String desc = f.kind().isConfig() ? "Config epoch start" : f.requestId() != null ? "Request start" : "Finding time";
    return new Event(f.time(), desc, message.toString(), attributes);
  }

  private static Event window(Window w, Instant at, String what) {
    String kind = w.kind() == Window.Kind.VULNERABLE ? "Vulnerable window" : "Exposure window";
    String where = w.node() != null ? w.node() : w.deployment() != null ? w.deployment() : "unknown node";
    List<String[]> attributes = new ArrayList<>();
    attributes.add(new String[] {"kvscope_id", w.id()});
    attributes.add(new String[] {"kind", w.kind().id() + "_window"});
    add(attributes, "node", w.node());
    add(attributes, "deployment", w.deployment());
    return new Event(at, kind + " " + (what.equals("opens") ? "start" : "end"),
        kind + " " + what + " on " + where + (w.reason() == null ? "" : ": " + w.reason()), attributes);
  }

  private static void add(List<String[]> attributes, String name, String value) {
    if (value != null) {
      attributes.add(new String[] {name, value});
    }
  }
}
