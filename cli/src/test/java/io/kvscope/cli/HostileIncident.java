package io.kvscope.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A small incident in the real formats whose customer-controlled values are hostile: one tenant's
 * passage leaks into another tenant's response on an underrun (so analyze reports one confirmed
 * leak and writes both tenants' bundles), while tenant names and gateway request ids carry
 * terminal escapes, line breaks, spreadsheet formulas and Markdown links, and the file and node
 * names carry control characters a person who can drop files into the log folder can choose.
 */
final class HostileIncident {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** OSC 52 (write the clipboard), a bell, a clear-screen and a NUL: each must show as an escape. */
  static final String VICTIM = "org-\u001b]52;c;SGVsbG8=\u0007victim\u001b[2J\u0000";
  /** A formula, a forged line and a Markdown link, image beacon and javascript: link. */
  static final String RECIPIENT = "=HYPERLINK(\"https://evil.example/x\",\"open\")\r\nforged line "
      + "[click](https://evil.example) ![x](https://evil.example/pixel.png) [js](javascript:alert(1))\u202e";
  static final String VICTIM_REQUEST = "gw-101\u001b[31m\u009b2J";
  static final String RECIPIENT_REQUEST = "@SUM(1+1)*cmd|' /C calc'!A0\nForged: request";
  /** A gateway file whose name forges a summary line; it holds one bad line so it is listed. */
  static final String FORGING_FILE = "litellm\nIngested 999 of 999 files (forged).jsonl";
  /** An engine log whose name (and so its node name) holds an escape. */
  static final String ENGINE_FILE = "sglang-decode-\u001b[1m0.log";

  static final String PASSAGE = "the merger memo says the board approved the sale of the northern plant to the buyer "
      + "for forty million before the audit with the signed term sheet and the escrow letter by friday morning";

  private HostileIncident() {}

  /** Writes the incident under {@code in}. */
  static void write(Path in) throws IOException {
    long base = FleetFiles.BASE;
    StringBuilder gateway = new StringBuilder();
    for (int i = 300; i < 340; i++) {
      gateway.append(litellm("gw-" + i, i, "org-bg-" + i % 4, base + (i - 300) * 60_000L,
          "routine question number " + i, "routine answer number " + i)).append('\n');
    }
    gateway.append(litellm(VICTIM_REQUEST, 101, VICTIM, base + 3_000_000, "Please summarise: " + PASSAGE,
        "Summary: a sale was approved")).append('\n');
    gateway.append(litellm(RECIPIENT_REQUEST, 202, RECIPIENT, base + 3_600_000, "What is the weather like on the coast",
        "Sunny. Also " + PASSAGE + " regards")).append('\n');
    FleetFiles.write(in.resolve("gateway/litellm.jsonl"), gateway.toString(), false);
    FleetFiles.write(in.resolve("gateway").resolve(FORGING_FILE),
        litellm("gw-400", 400, "org-bg-1", base, "another question", "another answer") + "\n{\"id\":\"cut\n", false);

    StringBuilder decode = new StringBuilder(FleetFiles.sglangStartup(base - 3_600_000, "decode", 681_280, 1_048_576));
    StringBuilder prefill = new StringBuilder(FleetFiles.sglangStartup(base - 3_600_000, "prefill", 681_280, 1_048_576));
    for (int i : new int[] {101, 202}) {
      long at = base + (i == 101 ? 3_000_000 : 3_600_000);
      prefill.append(FleetFiles.sglangTimeStats(at, i, "prefill", i == 202 ? 1 : 60));
      decode.append(FleetFiles.sglangTimeStats(at, i, "decode", 60));
    }
    for (int i = 300; i < 340; i++) {
      decode.append(FleetFiles.sglangTimeStats(base + (i - 300) * 60_000L, i, "decode", 8));
    }
    FleetFiles.write(in.resolve("engine").resolve(ENGINE_FILE), decode.toString(), false);
    FleetFiles.write(in.resolve("engine/sglang-prefill-0.log"), prefill.toString(), false);
  }

  /** A LiteLLM payload; the response id {@code chatcmpl-rid-<rid>} joins it to the engine lines. */
  static String litellm(String id, int rid, String tenant, long startMillis, String prompt, String response) {
    double start = startMillis / 1000.0;
    ObjectNode line = JSON.createObjectNode();
    line.put("id", id);
    line.put("call_type", "acompletion");
    line.put("status", "success");
    line.put("model", "qwen3");
    line.put("model_group", "qwen3-long");
    line.put("startTime", start);
    line.put("endTime", start + 2);
    line.put("completionStartTime", start + 0.3);
    line.put("prompt_tokens", 10 + prompt.length() / 4);
    line.put("completion_tokens", 5 + response.length() / 4);
    line.putObject("metadata").put("user_api_key_org_id", tenant);
    line.putArray("messages").addObject().put("role", "user").put("content", prompt);
    ObjectNode reply = line.putObject("response");
    reply.put("id", "chatcmpl-rid-" + rid);
    reply.putArray("choices").addObject().put("finish_reason", "stop").putObject("message").put("content", response);
    return line.toString();
  }

  /** Every character a reader must never get raw (see {@link io.kvscope.ingest.Printable}), except the line feed. */
  static List<Integer> rawControls(String text) {
    return text.codePoints().filter(c -> c != '\n' && io.kvscope.ingest.Printable.isUnsafe(c)).boxed().toList();
  }
}
