package io.kvscope.ingest.deployment;

import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes objects saved as JSON or YAML ({@code kubectl get pods -o json}, {@code -o yaml}, a
 * Deployment or StatefulSet manifest): the engine version each pod's container image names, and the
 * pod names and addresses that are aliases of engine nodes ({@link KubernetesObjects}).
 */
public final class KubernetesIngestor implements Ingestor {

  private static final Set<String> KINDS = Set.of("Pod", "List", "PodList", "Deployment", "DeploymentList",
      "StatefulSet", "StatefulSetList", "ReplicaSet", "ReplicaSetList", "DaemonSet", "DaemonSetList");
  private static final Pattern JSON_KIND = Pattern.compile("\"kind\"\\s*:\\s*\"(\\w+)\"");
  private static final Pattern YAML_KIND = Pattern.compile("(?m)^(?:- |  )?kind:\\s*[\"']?(\\w+)");
  private static final Pattern YAML_API = Pattern.compile("(?m)^(?:- |  )?apiVersion:\\s*\\S");
  /** A key of a top-level YAML mapping: the head of a file that shows one is no huge first scalar. */
  private static final Pattern YAML_TOP_LEVEL_KEY = Pattern.compile("(?m)^[A-Za-z_][\\w.-]*:(?:\\s|$)");
  private static final Pattern YAML_NAME = Pattern.compile("(?i).*\\.ya?ml(?:\\.(?:gz|zst|bz2|xz))?$");

  @Override
  public String name() {
    return "kubernetes";
  }

  @Override
  public String description() {
    return "Kubernetes pods and workloads (JSON or YAML): engine versions from image tags, pod names and IPs";
  }

  @Override
  public int detect(Sniff sniff, IngestOptions options) {
    String head = sniff.text();
    if (sniff.startsWith('{')) {
      return head.contains("\"apiVersion\"") && knownKind(JSON_KIND.matcher(head)) ? 92 : 0;
    }
    if (sniff.startsWith('[')) {
      return 0;
    }
    if (YAML_API.matcher(head).find() && knownKind(YAML_KIND.matcher(head))) {
      return 92;
    }
    // A first document larger than the head (a scalar of megabytes) hides the objects after it:
    // a YAML file whose whole head is that one document is read, and shows what it holds.
    return sniff.head().length >= Sniff.HEAD_BYTES && YAML_NAME.matcher(sniff.fileName()).matches()
        && !YAML_TOP_LEVEL_KEY.matcher(head).find() ? 20 : 0;
  }

  private static boolean knownKind(Matcher kinds) {
    while (kinds.find()) {
      if (KINDS.contains(kinds.group(1))) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    boolean yaml = !file.sniff().startsWith('{');
    KubernetesObjects objects = new KubernetesObjects(file.name());
    try (InputStream in = file.open()) {
      new StructuredDocuments().read(in, yaml, (object, line) -> objects.read(object, line).forEach(sink::accept));
    } catch (StructuredDocuments.Malformed bad) {
      sink.malformed(new BadInput(file.name(), bad.line(), (yaml ? "YAML" : "JSON") + " cannot be read: "
          + bad.getMessage() + "; the objects before it were read"), null);
    }
  }

  /** Deployment records tell engine facts only, so they are read with the engine logs. */
  @Override
  public boolean carriesRequests() {
    return false;
  }
}
