package io.kvscope.ingest.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvscope.ingest.NodeAddresses;
import io.kvscope.ingest.json.Times;
import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.VersionOrigin;
import io.kvscope.ingest.record.VersionRecord;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What one Kubernetes object (as {@code kubectl get -o json|yaml} prints it, or as a manifest
 * declares it) tells about engine nodes. Only containers that run an engine count: an SGLang or
 * vLLM server image ({@link ImageReference#engine()}), or a command that launches one.
 * <ul>
 *   <li>a {@code Pod}: its name is a node; its {@code status.podIP}, alone and with each engine
 *       container port ({@code ports[].containerPort}, or {@code --port N} in the command), are
 *       aliases of it; the running container's image ({@code status.containerStatuses[].image},
 *       else the spec's) is the version since {@code state.running.startedAt}; the pod spec's image
 *       stands, less firmly, for the pod's earlier containers back to {@code status.startTime};
 *   <li>a {@code Deployment}, {@code StatefulSet}, {@code ReplicaSet} or {@code DaemonSet}: the pod
 *       template's image covers the workload's pods ({@code <name>-<ordinal>},
 *       {@code <name>-<hash>-<suffix>}), undated: a template tells what new pods get, not since when;
 *       only a template never changed ({@code metadata.generation} 1, or a ReplicaSet's) is dated
 *       from its {@code creationTimestamp};
 *   <li>a {@code List} (or {@code PodList}, ...): each of its {@code items}.
 * </ul>
 */
final class KubernetesObjects {

  private static final Set<String> WORKLOADS = Set.of("Deployment", "StatefulSet", "ReplicaSet", "DaemonSet");

  private final String file;

  KubernetesObjects(String file) {
    this.file = file;
  }

  /** The records {@code object}, found at {@code line} of the file, gives. */
  List<Ingested> read(JsonNode object, long line) {
    List<Ingested> out = new ArrayList<>();
    String kind = object.path("kind").asText("");
    if (kind.equals("Pod")) {
      pod(object, line, out);
    } else if (WORKLOADS.contains(kind)) {
      workload(kind, object, line, out);
    } else if (kind.endsWith("List") && object.path("items").isArray()) {
      for (JsonNode item : object.path("items")) {
        out.addAll(read(item, line));
      }
    }
    return out;
  }

  private void pod(JsonNode pod, long line, List<Ingested> out) {
    String name = text(pod.path("metadata").path("name"));
    if (name == null) {
      return;
    }
    JsonNode status = pod.path("status");
    String podIp = text(status.path("podIP"));
    Long podStart = time(status.path("startTime"));
    if (podStart == null) {
      podStart = time(pod.path("metadata").path("creationTimestamp"));
    }
    boolean addressed = false;
    for (JsonNode container : pod.path("spec").path("containers")) {
      EngineContainer engine = EngineContainer.of(container);
      if (engine == null) {
        continue;
      }
      if (NodeAddresses.concrete(podIp)) {
        for (Long port : engine.ports()) {
          out.add(new NodeAlias(name, NodeAddresses.hostPort(podIp, port), AliasOrigin.KUBERNETES, file, line));
        }
        if (!addressed) {
          out.add(new NodeAlias(name, NodeAddresses.hostOf(podIp), AliasOrigin.KUBERNETES, file, line));
          addressed = true;
        }
      }
      JsonNode state = statusOf(status, text(container.path("name")));
      ImageReference running = state == null ? null : ImageReference.parse(text(state.path("image")));
      if (running == null || running.version() == null && engine.image() != null && engine.image().version() != null) {
        running = engine.image(); // a status image shown by digest only: the spec's tag tells the release
      }
      Long startedAt = state == null ? null : startedAt(state);
      if (startedAt != null) {
        out.add(version(name, false, engine, running, startedAt, null, VersionOrigin.POD_STATUS, line));
        if (podStart != null && podStart < startedAt) {
          out.add(version(name, false, engine, engine.image(), podStart, startedAt, VersionOrigin.POD_SPEC, line));
        }
      } else {
        out.add(version(name, false, engine, engine.image(), podStart, null, VersionOrigin.POD_SPEC, line));
      }
    }
  }

  private void workload(String kind, JsonNode workload, long line, List<Ingested> out) {
    JsonNode meta = workload.path("metadata");
    String name = text(meta.path("name"));
    if (name == null) {
      return;
    }
    boolean unchanged = kind.equals("ReplicaSet") || meta.path("generation").asLong(0) == 1;
    Long from = unchanged ? time(meta.path("creationTimestamp")) : null;
    for (JsonNode container : workload.path("spec").path("template").path("spec").path("containers")) {
      EngineContainer engine = EngineContainer.of(container);
      if (engine != null) {
        out.add(version(name, true, engine, engine.image(), from, null, VersionOrigin.WORKLOAD_TEMPLATE, line));
      }
    }
  }

  private VersionRecord version(String node, boolean workload, EngineContainer engine, ImageReference image,
      Long from, Long to, VersionOrigin origin, long line) {
    return new VersionRecord(node, workload, engine.engine(), image == null ? null : image.version(),
        image == null ? null : image.reference(), from, to, origin, file, line);
  }

  /** The container's status entry in {@code status.containerStatuses}, by name. */
  private static JsonNode statusOf(JsonNode status, String container) {
    for (JsonNode s : status.path("containerStatuses")) {
      if (container == null || container.equals(text(s.path("name")))) {
        return s;
      }
    }
    return null;
  }

  /** When the container now shown started: running, or run and terminated. */
  private static Long startedAt(JsonNode containerStatus) {
    JsonNode state = containerStatus.path("state");
    Long running = time(state.path("running").path("startedAt"));
    return running != null ? running : time(state.path("terminated").path("startedAt"));
  }

  static String text(JsonNode node) {
    if (node == null || !node.isValueNode() || node.isNull()) {
      return null;
    }
    String t = node.asText();
    return t == null || t.isBlank() ? null : t.strip();
  }

  static Long time(JsonNode node) {
    String t = text(node);
    if (t == null) {
      return null;
    }
    try {
      return Times.fromIso(t);
    } catch (IllegalArgumentException notATime) {
      return null;
    }
  }

  /** A container that runs an engine server, with its image and the ports it serves on. */
  record EngineContainer(String engine, ImageReference image, List<Long> ports) {

    static EngineContainer of(JsonNode container) {
      ImageReference image = ImageReference.parse(text(container.path("image")));
      List<String> words = new ArrayList<>();
      container.path("command").forEach(w -> words.add(w.asText("")));
      container.path("args").forEach(w -> words.add(w.asText("")));
      String engine = image == null ? null : image.engine();
      if (engine == null) {
        engine = launchedEngine(words);
      }
      if (engine == null) {
        return null;
      }
      Set<Long> ports = new LinkedHashSet<>();
      for (JsonNode port : container.path("ports")) {
        long p = port.path("containerPort").asLong(0);
        if (p > 0) {
          ports.add(p);
        }
      }
      Long flag = portFlag(words);
      if (flag != null) {
        ports.add(flag);
      }
      return new EngineContainer(engine, image, List.copyOf(ports));
    }

    /** {@code python -m sglang.launch_server ...}, {@code sglang serve}, {@code vllm serve}, in any word of the command. */
    private static String launchedEngine(List<String> words) {
      String all = String.join(" ", words).toLowerCase(Locale.ROOT);
      if (all.contains("sglang.launch_server") || all.contains("sglang serve")) {
        return "sglang";
      }
      if (all.contains("vllm serve") || all.contains("vllm.entrypoints")) {
        return "vllm";
      }
      return null;
    }

    /** {@code --port N} or {@code --port=N}, also inside a shell command string. */
    private static Long portFlag(List<String> words) {
      String all = String.join(" ", words);
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("--port[= ]+(\\d{2,5})\\b").matcher(all);
      return m.find() ? Long.valueOf(m.group(1)) : null;
    }
  }
}
