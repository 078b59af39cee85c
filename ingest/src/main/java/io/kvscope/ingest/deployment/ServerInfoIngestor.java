package io.kvscope.ingest.deployment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.NodeAddresses;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import io.kvscope.ingest.engine.NodeNames;
import io.kvscope.ingest.json.JsonSupport;
import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.VersionOrigin;
import io.kvscope.ingest.record.VersionRecord;
import java.io.IOException;
import java.io.InputStream;

/**
 * A saved SGLang {@code GET /get_server_info} response (http_server.py {@code get_server_info}: the
 * server's {@code ServerArgs} fields, the scheduler's info such as {@code max_total_num_tokens}, its
 * {@code internal_states}, and {@code version}, the engine release). It tells the version of the
 * process that was running when it was saved, and, when the server was started with a concrete
 * {@code host}, the {@code host:port} the node is known by. The node is {@code --node} or the file
 * name stem, as for logs; the save time is a UTC time in the file name, else the file's
 * modification time (weak: the version is then matched to the epoch running at that time and
 * findings built on it are not confirmed).
 */
public final class ServerInfoIngestor implements Ingestor {

  /** A response is a few kilobytes; anything far larger is not one. */
  private static final long MAX_BYTES = 16L << 20;

  private final ObjectMapper mapper = new ObjectMapper(JsonSupport.newFactory());

  @Override
  public String name() {
    return "sglang-server-info";
  }

  @Override
  public String description() {
    return "Saved SGLang /get_server_info response: engine version and server address of one node";
  }

  @Override
  public int detect(Sniff sniff, IngestOptions options) {
    if (!sniff.startsWith('{')) {
      return 0;
    }
    String head = sniff.text();
    boolean serverArgs = head.contains("\"model_path\"")
        && (head.contains("\"tp_size\"") || head.contains("\"disaggregation_mode\""));
    boolean scheduler = head.contains("\"max_total_num_tokens\"") || head.contains("\"internal_states\"");
    return serverArgs && scheduler && head.contains("\"version\"") && !head.contains("\"resourceSpans\"") ? 88 : 0;
  }

  @Override
  public void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    if (file.size() > MAX_BYTES) {
      sink.malformed(new BadInput(file.name(), 1, "too large for a /get_server_info response; skipped"), null);
      return;
    }
    JsonNode info;
    try (InputStream in = file.open()) {
      info = mapper.readTree(in);
    } catch (JsonProcessingException e) {
      sink.malformed(new BadInput(file.name(), 1, "server info cannot be read: " + JsonSupport.reason(e)), null);
      return;
    }
    if (info == null || !info.isObject()) {
      sink.malformed(new BadInput(file.name(), 1, "server info is not a JSON object"), null);
      return;
    }
    boolean named = options != null && options.nodeName() != null && !options.nodeName().isBlank();
    String node = named ? NodeNames.of(file, options) : SnapshotTime.withoutTime(NodeNames.of(file, options));
    String hostPort = NodeAddresses.hostPort(KubernetesObjects.text(info.path("host")),
        info.path("port").canConvertToLong() ? info.path("port").asLong() : null);
    if (hostPort != null) {
      sink.accept(new NodeAlias(node, hostPort, AliasOrigin.SERVER_INFO, file.name(), 1));
    }
    SnapshotTime saved = SnapshotTime.of(file.path());
    String version = KubernetesObjects.text(info.path("version"));
    sink.accept(new VersionRecord(node, false, "sglang", version, null, saved.millis(), null,
        VersionOrigin.SERVER_INFO, file.name(), 1));
  }

  @Override
  public boolean carriesRequests() {
    return false;
  }
}
