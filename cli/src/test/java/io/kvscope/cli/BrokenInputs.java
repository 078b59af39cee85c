package io.kvscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A folder of broken inputs in the real formats, each file with the engine rids of the good
 * records it holds (what an ingest must index) and whether it must show up in the per-file
 * problem list. Ground truth for damaged archives comes from the JDK's and zstd's own readers.
 */
final class BrokenInputs {

  /** One file of the corpus. */
  record Case(Path file, Set<String> goodRids, boolean mustBeReported, int lines) {
    Case(Path file, Set<String> goodRids, boolean mustBeReported) {
      this(file, goodRids, mustBeReported, -1);
    }

    /** True when every non-blank line must end up a record or a reported bad line. */
    boolean accounted() {
      return lines >= 0;
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  final List<Case> cases = new ArrayList<>();
  /** Files that only need to be survived (no records expected, no report required). */
  final List<Path> survive = new ArrayList<>();
  /** kvscope's own outputs: never evidence, skipped and said so, never on the problem list. */
  final List<Path> ownOutputs = new ArrayList<>();

  private final Path root;
  private final Random random = new Random(20260828L);

  BrokenInputs(Path root) {
    this.root = root;
  }

  /** Writes every broken file; {@code hugeLineBytes} sizes the single-line file (50 MB in the suite). */
  BrokenInputs writeAll(int hugeLineBytes) throws IOException {
    truncatedArchive("gateway/truncated.jsonl.gz", 20_000, false);
    truncatedArchive("gateway/truncated.jsonl.zst", 30_000, true);
    invalidUtf8();
    nulBytes();
    hugeLine(hugeLineBytes);
    deepNesting();
    wrongTypes();
    otlpMissingIds();
    sglangCut();
    interleaved();
    emptyFiles();
    garbage();
    symlinks();
    extremeNumbers();
    duplicateKeys();
    badZstdChecksum();
    hostileFileNames();
    selfProduced();
    return this;
  }

  Set<String> allGoodRids() {
    Set<String> all = new LinkedHashSet<>();
    cases.forEach(c -> all.addAll(c.goodRids()));
    return all;
  }

  // ------------------------------------------------------------------ archives

  private void truncatedArchive(String name, int first, boolean zstd) throws IOException {
    StringBuilder text = new StringBuilder();
    int lines = 1500;
    for (int i = first; i < first + lines; i++) {
      text.append(FleetFiles.litellm(i, "org-" + i % 7, 100 + i, words(40 + i % 30))).append('\n');
    }
    byte[] packed = zstd ? zstd(text.toString()) : gzip(text.toString());
    byte[] cut = java.util.Arrays.copyOf(packed, packed.length / 2);
    Path file = write(name, cut);
    // What a careful reader can recover: the complete lines before the damage.
    String recovered = readUntilDamage(zstd ? new ZstdInputStream(new ByteArrayInputStream(cut))
        : new GZIPInputStream(new ByteArrayInputStream(cut)));
    Set<String> good = new LinkedHashSet<>();
    int complete = recovered.lastIndexOf('\n') + 1;
    for (String line : recovered.substring(0, complete).split("\n")) {
      if (!line.isEmpty()) {
        good.add(ridOf(line));
      }
    }
    if (good.size() < 50 || good.size() >= lines) {
      throw new IllegalStateException("the cut should keep some lines and lose others, kept " + good.size());
    }
    cases.add(new Case(file, good, true));
  }

  private static String readUntilDamage(InputStream in) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[1];
    try (in) {
      while (in.read(buffer) > 0) {
        out.write(buffer[0]); // one byte at a time: nothing decoded before the damage is lost
      }
    } catch (IOException damage) {
      // expected: the archive is cut
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------------ text damage

  private void invalidUtf8() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Set<String> good = new LinkedHashSet<>();
    byte[][] bad = {{(byte) 0xFF, (byte) 0xFE}, {(byte) 0xC3, 0x28}, {(byte) 0x80}, {(byte) 0xC0, (byte) 0xAF},
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}};
    for (int i = 2000; i < 2020; i++) {
      String line = FleetFiles.litellm(i, "org-utf", 200, "MARK" + i + "MARK");
      byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
      if (i % 3 == 0) {
        // invalid bytes inside the prompt string
        String[] parts = line.split("MARK" + i + "MARK", 2);
        out.write(parts[0].getBytes(StandardCharsets.UTF_8));
        out.write(bad[i % bad.length]);
        out.write(parts[1].getBytes(StandardCharsets.UTF_8));
      } else {
        out.write(bytes);
      }
      out.write('\n');
      good.add("rid-" + i);
    }
    cases.add(new Case(write("gateway/invalid-utf8.jsonl", out.toByteArray()), good, false));
  }

  private void nulBytes() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Set<String> good = new LinkedHashSet<>();
    for (int i = 3000; i < 3020; i++) {
      if (i == 3010) {
        out.write(new byte[8192]); // a preallocated log tail left by a crash: NULs, then more lines
        out.write('\n');
      }
      String line = FleetFiles.litellm(i, "org-nul", 200, "prompt " + i);
      if (i == 3015) {
        line = line.replace("prompt " + i, "prompt\u0000" + i); // a raw NUL inside a JSON string
      } else {
        good.add("rid-" + i);
      }
      out.write(line.getBytes(StandardCharsets.UTF_8));
      out.write('\n');
    }
    out.write(new byte[] {0, 0, 0, 0}); // and NULs at the very end, without a newline
    cases.add(new Case(write("gateway/nul-bytes.jsonl", out.toByteArray()), good, true));
  }

  private void hugeLine(int bytes) throws IOException {
    Path file = root.resolve("gateway/huge-line.jsonl");
    Files.createDirectories(file.getParent());
    try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
      out.write((FleetFiles.litellm(4000, "org-huge", 100, "small before") + "\n").getBytes(StandardCharsets.UTF_8));
      String[] parts = FleetFiles.litellm(4001, "org-huge", 12_000_000, "@@PROMPT@@").split("@@PROMPT@@");
      out.write(parts[0].getBytes(StandardCharsets.UTF_8));
      byte[] chunk = (words(2000) + " ").getBytes(StandardCharsets.UTF_8);
      for (long written = 0; written < bytes; written += chunk.length) {
        out.write(chunk);
      }
      out.write(parts[1].getBytes(StandardCharsets.UTF_8));
      out.write('\n');
      out.write((FleetFiles.litellm(4002, "org-huge", 100, "small after") + "\n").getBytes(StandardCharsets.UTF_8));
    }
    cases.add(new Case(file, Set.of("rid-4000", "rid-4001", "rid-4002"), false));
  }

  private void deepNesting() throws IOException {
    StringBuilder text = new StringBuilder();
    Set<String> good = new LinkedHashSet<>();
    for (int i = 5000; i < 5010; i++) {
      String line = FleetFiles.litellm(i, "org-deep", 200, "prompt " + i);
      if (i == 5003) {
        line = line.replace("\"metadata\":{", "\"metadata\":{\"deep\":" + "[".repeat(100_000) + "]".repeat(100_000) + ",");
      } else if (i == 5006) {
        line = line.replace("\"content\":\"prompt " + i + "\"",
            "\"content\":" + "{\"content\":".repeat(20_000) + "\"x\"" + "}".repeat(20_000));
      } else {
        good.add("rid-" + i);
      }
      text.append(line).append('\n');
    }
    cases.add(new Case(write("gateway/deep-nesting.jsonl", text.toString()), good, true));

    StringBuilder traces = new StringBuilder();
    Set<String> goodTraces = new LinkedHashSet<>();
    for (int i = 5100; i < 5106; i++) {
      String line = FleetFiles.otlp(i, "org-deep", 300);
      if (i == 5102) {
        line = line.replace("{\"key\":\"tenant.id\"", "{\"key\":\"deep\",\"value\":" + "{\"arrayValue\":{\"values\":[".repeat(30_000)
            + "{\"intValue\":\"1\"}" + "]}}".repeat(30_000) + "},{\"key\":\"tenant.id\"");
      } else {
        goodTraces.add("rid-" + i);
      }
      traces.append(line).append('\n');
    }
    cases.add(new Case(write("traces/deep-otlp.json", traces.toString()), goodTraces, true));

    StringBuilder log = new StringBuilder(FleetFiles.sglangStartup(FleetFiles.BASE - 60_000, "decode", 681_280, 1_048_576));
    Set<String> goodEngine = new LinkedHashSet<>();
    for (int i = 5200; i < 5206; i++) {
      if (i == 5203) {
        log.append("[2026-08-28 10:00:03.000 TP0] Receive: obj=GenerateReqInput(rid='deep', text=")
            .append("[".repeat(100_000)).append("]".repeat(100_000)).append(", bootstrap_room=1)\n");
      }
      log.append(FleetFiles.sglangTimeStats(FleetFiles.BASE + i, i, "decode", 500));
      goodEngine.add("rid-" + i);
    }
    cases.add(new Case(write("engine/deep-decode-0.log", log.toString()), goodEngine, false));
  }

  // ------------------------------------------------------------------ wrong types

  /** Every field kvscope reads, with a value of each wrong JSON type, each line followed by a good one. */
  private void wrongTypes() throws IOException {
    String[] fields = {"id", "trace_id", "call_type", "status", "model", "model_group", "api_base", "startTime",
        "endTime", "completionStartTime", "response_time", "prompt_tokens", "completion_tokens", "messages",
        "response", "metadata", "end_user", "error_str", "error_information",
        "response.id", "response.choices", "response.usage", "response.usage.prompt_tokens",
        "response.usage.prompt_tokens_details", "metadata.user_api_key_org_id", "response.choices.0.message",
        "response.choices.0.message.content", "response.choices.0.finish_reason", "messages.0.content",
        "error_information.error_code"};
    String[] values = {"123", "-7", "1.5e308", "1e400", "-0.0", "\"text\"", "\"\"", "true", "null", "{}", "[]",
        "[1,\"a\",null]", "{\"a\":{\"b\":[1]}}", "9223372036854775808", "\"2026-13-45T99:99:99Z\""};
    StringBuilder text = new StringBuilder();
    Set<String> good = new LinkedHashSet<>();
    int lines = 0;
    int i = 10_000;
    for (String field : fields) {
      for (String value : values) {
        ObjectNode record = (ObjectNode) JSON.readTree(FleetFiles.litellm(i, "org-types", 300, "typed " + i));
        set(record, field, JSON.readTree(value));
        text.append(JSON.writeValueAsString(record)).append('\n');
        i++;
        text.append(FleetFiles.litellm(i, "org-types", 300, "good " + i)).append('\n');
        good.add("rid-" + i);
        i++;
        lines += 2;
      }
    }
    cases.add(new Case(write("gateway/wrong-types.jsonl", text.toString()), good, true, lines));
  }

  /** Sets a dotted path (numbers index arrays), creating objects on the way. */
  private static void set(ObjectNode record, String path, JsonNode value) {
    String[] steps = path.split("\\.");
    JsonNode node = record;
    for (int s = 0; s < steps.length - 1; s++) {
      JsonNode next = node.isArray() ? node.get(Integer.parseInt(steps[s])) : node.get(steps[s]);
      if (next == null || !(next.isContainerNode())) {
        next = JSON.createObjectNode();
        ((ObjectNode) node).set(steps[s], next);
      }
      node = next;
    }
    String last = steps[steps.length - 1];
    if (node.isArray()) {
      ((com.fasterxml.jackson.databind.node.ArrayNode) node).set(Integer.parseInt(last), value);
    } else {
      ((ObjectNode) node).set(last, value);
    }
  }

  // ------------------------------------------------------------------ OTLP and engine logs

  private void otlpMissingIds() throws IOException {
    StringBuilder text = new StringBuilder();
    Set<String> good = new LinkedHashSet<>();
    String[] breakages = {
        "\"traceId\":\"%032x\",", "\"spanId\":\"%016x\",", "{\"key\":\"gen_ai.response.id\",\"value\":{\"stringValue\":\"chatcmpl-rid-%d\"}},"};
    for (int i = 6000; i < 6030; i++) {
      String line = FleetFiles.otlp(i, "org-otlp", 400);
      switch (i % 10) {
        case 2 -> line = line.replace(String.format(breakages[0], i), "");
        case 4 -> line = line.replace(String.format(breakages[1], i), "");
        case 6 -> line = line.replace(String.format(breakages[0], i), "").replace(String.format(breakages[1], i), "")
            .replace(String.format(breakages[2], i), "");
        case 8 -> line = line.replace("\"startTimeUnixNano\":\"", "\"startTimeUnixNano\":\"abc");
        case 9 -> line = i % 20 == 9 ? "{\"resourceSpans\":[]}" : "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":null}]}]}";
        default -> good.add("rid-" + i);
      }
      text.append(line).append('\n');
    }
    cases.add(new Case(write("traces/otlp-missing-ids.json", text.toString()), good, true));
  }

  private void sglangCut() throws IOException {
    StringBuilder log = new StringBuilder(FleetFiles.sglangStartup(FleetFiles.BASE - 60_000, "prefill", 681_280, 1_048_576));
    Set<String> good = new LinkedHashSet<>();
    for (int i = 7000; i < 7020; i++) {
      String line = FleetFiles.sglangTimeStats(FleetFiles.BASE + i, i, "prefill", 900);
      if (i % 5 == 2) {
        line = line.substring(0, line.indexOf("input_len=") + 6) + "\n"; // cut inside the key=value list
      } else if (i % 5 == 4) {
        line = line.substring(0, line.indexOf("ReqTimeStats(") + 8) + "\n";
      } else {
        good.add("rid-" + i);
      }
      log.append(line);
      if (i == 7007) {
        log.append("[2026-08-28 10:00:07.000 TP0] server_args=ServerArgs(model_path='Qwen/Qwen3', context_length=10485\n");
        log.append("[2026-08-28 10:00:07.100 TP0] Receive: obj=GenerateReqInput(rid='cut-7007', text='the prompt is cu\n");
        log.append("[2026-08-28 10:00:07.200 TP0] Finish: obj=GenerateReqInput(rid='cut-7007'), out={'meta_info': {'id': 'cut-7007', 'prompt_tok\n");
      }
    }
    log.append("[2026-08-28 10:00:09.000 DP0 TP0] ReqTimeStats(rid=rid-7999, bootstrap_room=1, inp"); // last line, no newline
    cases.add(new Case(write("engine/sglang-cut-prefill-0.log", log.toString()), good, false));
  }

  /** LiteLLM, OTLP, SGLang and Prometheus lines in one file. */
  private void interleaved() throws IOException {
    StringBuilder text = new StringBuilder();
    Set<String> good = new LinkedHashSet<>();
    for (int i = 8000; i < 8012; i++) {
      text.append(FleetFiles.litellm(i, "org-mixed", 200, "mixed " + i)).append('\n');
      good.add("rid-" + i);
      switch (i % 3) {
        case 0 -> text.append(FleetFiles.otlp(i + 100, "org-mixed", 200)).append('\n');
        case 1 -> text.append(FleetFiles.sglangTimeStats(FleetFiles.BASE, i + 200, "decode", 5));
        default -> text.append("sglang:max_total_num_tokens{model_name=\"qwen3\"} 681280\n");
      }
    }
    cases.add(new Case(write("mixed/interleaved.jsonl", text.toString()), good, true, 24));
  }

  // ------------------------------------------------------------------ nothing to read

  private void emptyFiles() throws IOException {
    survive.add(write("empty/zero.jsonl", new byte[0]));
    survive.add(write("empty/newlines.jsonl", "\n\n\n"));
    survive.add(write("empty/spaces.log", "   \n\t\r\n"));
    survive.add(write("empty/only-bom.jsonl", new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}));
    survive.add(write("empty/empty-archive.jsonl.gz", gzip("")));
    survive.add(write("empty/zero-bytes.jsonl.gz", new byte[0]));
    survive.add(write("empty/zero-bytes.log.zst", new byte[0]));
  }

  private void garbage() throws IOException {
    byte[] noise = new byte[1 << 20];
    random.nextBytes(noise);
    survive.add(write("misc/random.bin", noise));
    byte[] fakeGzip = noise.clone();
    fakeGzip[0] = 0x1f;
    fakeGzip[1] = (byte) 0x8b;
    fakeGzip[2] = 8;
    fakeGzip[3] = 0;
    survive.add(write("misc/fake.jsonl.gz", fakeGzip));
    byte[] fakeZstd = noise.clone();
    fakeZstd[0] = 0x28;
    fakeZstd[1] = (byte) 0xb5;
    fakeZstd[2] = 0x2f;
    fakeZstd[3] = (byte) 0xfd;
    survive.add(write("misc/fake.log.zst", fakeZstd));
    byte[] fakeArrow = java.util.Arrays.copyOf("ARROW1\0\0".getBytes(StandardCharsets.US_ASCII), 4096);
    System.arraycopy(noise, 0, fakeArrow, 8, 4088);
    survive.add(write("misc/cut.arrow", fakeArrow));
    survive.add(write("misc/prometheus.prom", "# HELP sglang:max_total_num_tokens pool\n# TYPE sglang:max_total_num_tokens gauge\n"
        + "sglang:max_total_num_tokens{model_name=\"qwen3\" 681280\nsglang:context_len{} notanumber\nsglang:page_size\n"));
  }

  private void symlinks() throws IOException {
    Path links = Files.createDirectories(root.resolve("links"));
    Files.createSymbolicLink(links.resolve("self"), links.resolve("self"));
    Files.createSymbolicLink(links.resolve("a"), links.resolve("b"));
    Files.createSymbolicLink(links.resolve("b"), links.resolve("a"));
    Files.createSymbolicLink(links.resolve("up"), links.getParent()); // a folder link back to the root
    Files.createSymbolicLink(links.resolve("dangling.jsonl"), links.resolve("no-such-file"));
    survive.add(links.resolve("self"));
  }

  // ------------------------------------------------------------------ attackers' values

  /**
   * Times and counts no log holds, each between good lines: every one a bad record with its line,
   * never the end of the file. LiteLLM writes epoch seconds; the strings are what some encoders
   * write for non-finite floats, and LiteLLM's own rendering of {@code datetime.max}.
   */
  private void extremeNumbers() throws IOException {
    String[][] variants = {{"startTime", "1e300"}, {"startTime", "-1e300"}, {"startTime", "\"Infinity\""},
        {"startTime", "\"NaN\""}, {"startTime", "\"+300000-01-01T00:00:00Z\""}, {"startTime", "\"+50000-06-01T00:00:00Z\""},
        {"startTime", "\"9999-12-31 23:59:59.999999\""}, {"startTime", "253402300800000000000"},
        {"endTime", "1000000000.0"}, {"completionStartTime", "1.0"}, {"prompt_tokens", "1e30"},
        {"prompt_tokens", "99999999999999999999999"}, {"completion_tokens", "-5"}, {"startTime", "0"}};
    StringBuilder text = new StringBuilder();
    Set<String> good = new LinkedHashSet<>();
    int i = 11_000;
    for (String[] variant : variants) {
      ObjectNode record = (ObjectNode) JSON.readTree(FleetFiles.litellm(i++, "org-extreme", 300, "extreme " + i));
      record.set(variant[0], JSON.readTree(variant[1]));
      text.append(JSON.writeValueAsString(record)).append('\n');
      text.append(FleetFiles.litellm(i, "org-extreme", 300, "good " + i)).append('\n');
      good.add("rid-" + i++);
    }
    cases.add(new Case(write("gateway/extreme-numbers.jsonl", text.toString()), good, true, 2 * variants.length));

    // An engine log whose pool size and lengths overflow 64 bits: those lines only are lost.
    StringBuilder log = new StringBuilder(FleetFiles.sglangStartup(FleetFiles.BASE - 60_000, "prefill", 681_280, 1_048_576)
        .replace("max_total_num_tokens=681280", "max_total_num_tokens=99999999999999999999999"));
    Set<String> goodEngine = new LinkedHashSet<>();
    for (int r = 11_100; r < 11_120; r++) {
      String line = FleetFiles.sglangTimeStats(FleetFiles.BASE + r, r, "prefill", 900);
      if (r % 4 == 1) {
        line = line.replace("input_len=900", "input_len=184467440737095516160");
      } else {
        goodEngine.add("rid-" + r);
      }
      log.append(line);
    }
    cases.add(new Case(write("engine/overflow-prefill-0.log", log.toString()), goodEngine, true));
  }

  /** A key given twice with different values: the record says two things and is a bad record. */
  private void duplicateKeys() throws IOException {
    String[] duplicates = {"\"startTime\":1e300,", "\"id\":\"gw-forged\",", "\"prompt_tokens\":1,"};
    StringBuilder text = new StringBuilder();
    Set<String> good = new LinkedHashSet<>();
    int i = 12_000;
    for (String duplicate : duplicates) {
      String line = FleetFiles.litellm(i++, "org-dup", 300, "duplicated " + i);
      text.append(line.replace("\"call_type\"", duplicate + "\"call_type\"")).append('\n');
      text.append(FleetFiles.litellm(i, "org-dup", 300, "good " + i)).append('\n');
      good.add("rid-" + i++);
    }
    // The same key twice inside a nested object.
    text.append(FleetFiles.litellm(i++, "org-dup", 300, "nested").replace("\"metadata\":{",
        "\"metadata\":{\"user_api_key_org_id\":\"org-victim\",")).append('\n');
    cases.add(new Case(write("gateway/duplicate-keys.jsonl", text.toString()), good, true, 2 * duplicates.length + 1));
  }

  /**
   * A zstd archive whose checksum does not match: the zstd tool still writes what it decoded, so
   * kvscope must keep at least that (ground truth: zstd-jni read in the tool's 128 KiB steps).
   */
  private void badZstdChecksum() throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 13_000; i < 16_000; i++) {
      text.append(FleetFiles.litellm(i, "org-" + i % 5, 300, words(20))).append('\n');
    }
    ByteArrayOutputStream packed = new ByteArrayOutputStream();
    try (ZstdOutputStream out = new ZstdOutputStream(packed)) {
      out.setChecksum(true);
      out.write(text.toString().getBytes(StandardCharsets.UTF_8));
    }
    byte[] bytes = packed.toByteArray();
    bytes[bytes.length - 1] ^= (byte) 0xFF; // the frame's content checksum is its last 4 bytes
    Path file = write("gateway/bad-checksum.jsonl.zst", bytes);
    ByteArrayOutputStream recovered = new ByteArrayOutputStream();
    try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(bytes))) {
      byte[] step = new byte[128 * 1024];
      for (int n; (n = in.read(step)) > 0; ) {
        recovered.write(step, 0, n);
      }
    } catch (IOException checksum) {
      // expected: the tool reports it too
    }
    String decoded = recovered.toString(StandardCharsets.UTF_8);
    Set<String> good = new LinkedHashSet<>();
    for (String line : decoded.substring(0, decoded.lastIndexOf('\n') + 1).split("\n")) {
      if (!line.isEmpty()) {
        good.add(ridOf(line));
      }
    }
    if (good.isEmpty()) {
      throw new IllegalStateException("the zstd tool should recover lines before the checksum");
    }
    cases.add(new Case(file, good, true));
  }

  /**
   * File names chosen by whoever can drop files into the log folder: a newline that would forge a
   * summary line, terminal escapes, a right-to-left override, look-alike letters. Each file holds
   * good records and one bad line, so it is named on the problem list (escaped).
   */
  private void hostileFileNames() throws IOException {
    String[] names = {"gw\nIngested 999 of 999 files.jsonl", "gw\u001b]52;c;SGVsbG8=\u0007.jsonl", "gw\u001b[2J.jsonl",
        "gw\u202elnosj.exe", "g\u0077-\u0430.jsonl", "gw\r.jsonl", "gw\t\u0085.jsonl"};
    int i = 17_000;
    for (String name : names) {
      Set<String> good = new LinkedHashSet<>();
      StringBuilder text = new StringBuilder();
      for (int n = 0; n < 3; n++, i++) {
        text.append(FleetFiles.litellm(i, "org-names", 300, "named " + i)).append('\n');
        good.add("rid-" + i);
      }
      text.append("{\"id\":\"cut\n");
      cases.add(new Case(write("names/" + name, text.toString()), good, true, 4));
    }
  }

  /** kvscope's own outputs dropped among the logs (as copies a colleague made, renamed). */
  private void selfProduced() throws IOException {
    ownOutputs.add(write("gateway/litellm-export.jsonl", "{\"report_version\":\"1.0\",\"findings\":[]}\n"));
    ownOutputs.add(write("gateway/truth.json", "{\"truth_version\":1,\"generator\":{}}\n"));
    ownOutputs.add(write("gateway/bad-records.jsonl", "{\"file\":\"gw.jsonl\",\"line\":3,\"reason\":\"cut\",\"raw\":"
        + JSON.writeValueAsString(FleetFiles.litellm(18_000, "org-own", 300, "quarantined")) + "}\n"));
    Path arrow = root.resolve("gateway/findings-copy.bin");
    var schema = new org.apache.arrow.vector.types.pojo.Schema(List.of(
        org.apache.arrow.vector.types.pojo.Field.nullable("request_id", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE),
        org.apache.arrow.vector.types.pojo.Field.nullable("tenant", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE)),
        java.util.Map.of(io.kvscope.ingest.KvscopeOutputs.ARROW_MARK, "findings"));
    try (var allocator = new org.apache.arrow.memory.RootAllocator();
        var vectors = org.apache.arrow.vector.VectorSchemaRoot.create(schema, allocator);
        var out = java.nio.channels.FileChannel.open(arrow, java.nio.file.StandardOpenOption.CREATE_NEW,
            java.nio.file.StandardOpenOption.WRITE);
        var writer = new org.apache.arrow.vector.ipc.ArrowFileWriter(vectors, null, out)) {
      writer.start();
      var id = (org.apache.arrow.vector.VarCharVector) vectors.getVector("request_id");
      id.setSafe(0, "rid-18001".getBytes(StandardCharsets.UTF_8)); // would replace a real request
      vectors.setRowCount(1);
      writer.writeBatch();
      writer.end();
    }
    ownOutputs.add(arrow);
  }

  // ------------------------------------------------------------------ helpers

  private String words(int n) {
    String[] vocabulary = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
        "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango"};
    StringBuilder out = new StringBuilder();
    for (int w = 0; w < n; w++) {
      if (w > 0) {
        out.append(' ');
      }
      out.append(vocabulary[random.nextInt(vocabulary.length)]).append(random.nextInt(1000));
    }
    return out.toString();
  }

  static String ridOf(String litellmLine) {
    int at = litellmLine.indexOf("chatcmpl-rid-");
    int end = litellmLine.indexOf('"', at);
    return litellmLine.substring(at + "chatcmpl-".length(), end);
  }

  private Path write(String name, String text) throws IOException {
    return write(name, text.getBytes(StandardCharsets.UTF_8));
  }

  private Path write(String name, byte[] bytes) throws IOException {
    Path file = root.resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, bytes);
    return file;
  }

  static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(bytes)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }

  static byte[] zstd(String text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new ZstdOutputStream(bytes)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }
}
