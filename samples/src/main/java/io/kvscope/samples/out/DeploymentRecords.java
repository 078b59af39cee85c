package io.kvscope.samples.out;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.samples.fleet.Epoch;
import io.kvscope.samples.fleet.Fleet;
import io.kvscope.samples.fleet.NodeSpec;
import io.kvscope.samples.fleet.NodeTimeline;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * What the platform team has on record about the fleet besides its logs, since no SGLang log line
 * carries the engine version:
 * <ul>
 *   <li>{@code deployment/engine-versions.csv}: the operator's deployment manifest (kvscope's CSV:
 *       node, from, to, version, engine, image, aliases), one row per node and release, times
 *       rounded down to the minute as a change log has them;
 *   <li>{@code deployment/pods-YYYY-MM-DD.json}: the pods as {@code kubectl get pods -o json} printed
 *       them at the end of the period (a {@code List} of {@code Pod}s: image tags, pod IPs and
 *       ports, container start times, restarts after crashes).
 * </ul>
 * Pods are StatefulSet pods named after their nodes: a planned restart (a config change, an
 * upgrade) replaces the pod, a crash restarts its container in place.
 */
final class DeploymentRecords {

  static final int PORT = 30000;
  /** Python starts and imports before the first log line: the container starts a few seconds earlier. */
  private static final long CONTAINER_LEAD_MS = 7_000L;
  /** Scheduling and image pull before the container starts. */
  private static final long POD_LEAD_MS = 40_000L;

  private DeploymentRecords() {}

  static String image(String version) {
    return "lmsysorg/sglang:v" + version + "-cu126";
  }

  /** Writes both records under {@code root}; returns the files written. */
  static List<WrittenFile> write(Path root, Fleet fleet, Codec codec) throws IOException {
    List<WrittenFile> files = new ArrayList<>();
    try (OutputFile manifest = new OutputFile(root, "deployment/engine-versions.csv", "deployment-manifest", codec)) {
      manifest(manifest, fleet);
      manifest.close();
      files.add(manifest.written());
    }
    String day = Instant.ofEpochMilli(Fleet.PERIOD_END).toString().substring(0, 10);
    try (OutputFile pods = new OutputFile(root, "deployment/pods-" + day + ".json", "kubernetes-json", codec)) {
      pods(pods, fleet);
      pods.close();
      files.add(pods.written());
    }
    return files;
  }

  private static void manifest(OutputFile out, Fleet fleet) throws IOException {
    line(out, "# kvscope deployment manifest: the SGLang release each node ran (times UTC, from the change log)");
    line(out, "node,from,to,version,engine,image,aliases");
    for (NodeTimeline tl : fleet.timelines()) {
      NodeSpec n = tl.node();
      List<Epoch> epochs = tl.epochs();
      boolean first = true;
      for (int i = 0; i < epochs.size(); i++) {
        String version = epochs.get(i).config().version();
        if (i > 0 && epochs.get(i - 1).config().version().equals(version)) {
          continue;
        }
        int next = i + 1;
        while (next < epochs.size() && epochs.get(next).config().version().equals(version)) {
          next++;
        }
        String to = next < epochs.size() ? minute(epochs.get(next).start()) : "";
        String aliases = first ? n.ip() + " " + n.ip() + ":" + PORT : "";
        line(out, String.join(",", n.name(), minute(epochs.get(i).start()), to, version, "sglang", image(version),
            aliases));
        first = false;
      }
    }
  }

  private static void pods(OutputFile out, Fleet fleet) throws IOException {
    OutputStream stream = out.stream();
    JsonGenerator g = new JsonFactory().createGenerator(stream);
    com.fasterxml.jackson.core.util.DefaultIndenter indenter = new com.fasterxml.jackson.core.util.DefaultIndenter("    ", "\n");
    g.setPrettyPrinter(new DefaultPrettyPrinter().withObjectIndenter(indenter).withArrayIndenter(indenter));
    g.writeStartObject();
    g.writeStringField("apiVersion", "v1");
    g.writeArrayFieldStart("items");
    int host = 0;
    for (NodeTimeline tl : fleet.timelines()) {
      pod(g, tl, host++);
    }
    g.writeEndArray();
    g.writeStringField("kind", "List");
    g.writeObjectFieldStart("metadata");
    g.writeStringField("resourceVersion", "");
    g.writeEndObject();
    g.writeEndObject();
    g.flush();
    stream.write('\n');
  }

  private static void pod(JsonGenerator g, NodeTimeline tl, int host) throws IOException {
    NodeSpec n = tl.node();
    List<Epoch> epochs = tl.epochs();
    Epoch last = epochs.getLast();
    int podFirst = epochs.size() - 1;
    while (podFirst > 0 && epochs.get(podFirst).cause().equals("crash")) {
      podFirst--; // a crash restarts the container inside the same pod
    }
    long podStart = epochs.get(podFirst).start() - POD_LEAD_MS;
    int restarts = epochs.size() - 1 - podFirst;
    String role = n.role() == NodeRole.PREFILL ? "prefill" : n.role() == NodeRole.DECODE ? "decode" : "null";
    String image = image(last.config().version());
    g.writeStartObject();
    g.writeStringField("apiVersion", "v1");
    g.writeStringField("kind", "Pod");
    g.writeObjectFieldStart("metadata");
    g.writeStringField("creationTimestamp", time(podStart - 2_000L));
    g.writeObjectFieldStart("labels");
    g.writeStringField("app.kubernetes.io/name", "sglang");
    g.writeStringField("deployment", n.deployment());
    g.writeStringField("role", role);
    g.writeEndObject();
    g.writeStringField("name", n.name());
    g.writeStringField("namespace", "inference");
    g.writeEndObject();
    g.writeObjectFieldStart("spec");
    g.writeArrayFieldStart("containers");
    g.writeStartObject();
    g.writeArrayFieldStart("args");
    for (String arg : List.of("--model-path", StartupBanner.MODEL_PATH, "--served-model-name", StartupBanner.SERVED_MODEL,
        "--host", "0.0.0.0", "--port", Integer.toString(PORT), "--disaggregation-mode", role,
        "--tp-size", Integer.toString(last.config().tpSize()), "--page-size", Integer.toString(last.config().pageSize()))) {
      g.writeString(arg);
    }
    g.writeEndArray();
    g.writeArrayFieldStart("command");
    for (String word : List.of("python3", "-m", "sglang.launch_server")) {
      g.writeString(word);
    }
    g.writeEndArray();
    g.writeStringField("image", image);
    g.writeStringField("name", "sglang");
    g.writeArrayFieldStart("ports");
    g.writeStartObject();
    g.writeNumberField("containerPort", PORT);
    g.writeStringField("name", "http");
    g.writeStringField("protocol", "TCP");
    g.writeEndObject();
    g.writeEndArray();
    g.writeEndObject();
    g.writeEndArray();
    g.writeStringField("nodeName", String.format(Locale.ROOT, "gpu-h100-%02d", 11 + host));
    g.writeEndObject();
    g.writeObjectFieldStart("status");
    g.writeArrayFieldStart("containerStatuses");
    g.writeStartObject();
    g.writeStringField("image", "docker.io/" + image);
    g.writeStringField("imageID", "docker.io/lmsysorg/sglang@sha256:" + digest(image));
    if (restarts > 0) {
      Epoch previous = epochs.get(epochs.size() - 2);
      g.writeObjectFieldStart("lastState");
      g.writeObjectFieldStart("terminated");
      g.writeNumberField("exitCode", 139);
      g.writeStringField("finishedAt", time(last.start() - CONTAINER_LEAD_MS - 3_000L));
      g.writeStringField("reason", "Error");
      g.writeStringField("startedAt", time(previous.start() - CONTAINER_LEAD_MS));
      g.writeEndObject();
      g.writeEndObject();
    }
    g.writeStringField("name", "sglang");
    g.writeBooleanField("ready", true);
    g.writeNumberField("restartCount", restarts);
    g.writeBooleanField("started", true);
    g.writeObjectFieldStart("state");
    g.writeObjectFieldStart("running");
    g.writeStringField("startedAt", time(last.start() - CONTAINER_LEAD_MS));
    g.writeEndObject();
    g.writeEndObject();
    g.writeEndObject();
    g.writeEndArray();
    g.writeStringField("hostIP", String.format(Locale.ROOT, "10.0.3.%d", 11 + host));
    g.writeStringField("phase", "Running");
    g.writeStringField("podIP", n.ip());
    g.writeStringField("startTime", time(podStart));
    g.writeEndObject();
    g.writeEndObject();
  }

  private static void line(OutputFile out, String text) throws IOException {
    byte[] bytes = (text + "\n").getBytes(StandardCharsets.UTF_8);
    out.line(bytes, bytes.length);
  }

  /** RFC 3339 to the second, as the Kubernetes API prints times. */
  private static String time(long millis) {
    return Instant.ofEpochMilli(millis).truncatedTo(ChronoUnit.SECONDS).toString();
  }

  private static String minute(long millis) {
    return Instant.ofEpochMilli(millis).truncatedTo(ChronoUnit.MINUTES).toString();
  }

  /** A stable stand-in for the image's registry digest. */
  private static String digest(String image) {
    try {
      return HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
          .digest(image.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException impossible) {
      throw new IllegalStateException(impossible);
    }
  }
}
