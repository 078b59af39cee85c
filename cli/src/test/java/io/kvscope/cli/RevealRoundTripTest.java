package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The way from a redacted report to its revealed copy, as a responder takes it: run the command
 * report.html prints, in the report's folder, exactly as printed. It must work, write a copy that
 * cannot pass for the redacted one, and leave the redacted files (the ones that may be sent on)
 * byte for byte as they were.
 */
class RevealRoundTripTest {

  private static final Pattern COMMAND = Pattern.compile("<code>(kvscope report [^<]*--reveal)</code>");

  @Test
  void theCommandReportHtmlPrintsWritesARevealedCopyBesideTheRedactedReports(@TempDir Path tmp) throws Exception {
    Path reports = CliTestSupport.analyzedIncident(tmp, "0.05x", "4").reports();
    Map<Path, String> redacted = hashes(reports);
    String redactedHtml = Files.readString(reports.resolve("report.html"));
    assertThat(redactedHtml).contains("<meta name=\"kvscope-content\" content=\"redacted\">").doesNotContain("REVEALED");

    Matcher printed = COMMAND.matcher(redactedHtml);
    assertThat(printed.find()).as("report.html prints the reveal command").isTrue();
    List<String> args = asRunIn(reports, unescape(printed.group(1)));
    CliTestSupport.Run reveal = CliTestSupport.run(args.toArray(String[]::new));

    assertThat(reveal.exitCode()).as(reveal.err()).isZero();
    assertThat(hashes(reports)).as("the redacted reports are untouched").containsAllEntriesOf(redacted);
    Path copy = reports.resolve("revealed");
    String revealedHtml = Files.readString(copy.resolve("report.html"));
    assertThat(revealedHtml).contains("<meta name=\"kvscope-content\" content=\"revealed\">")
        .contains("<title>REVEALED").contains("id=\"revealed-banner\"")
        .contains("Revealed: the text below is other customers' data");
    assertThat(Files.readString(copy.resolve("report.md"))).contains("kvscope-content: revealed").contains("**REVEALED**");

    // Pointed at the redacted reports themselves, the reveal refuses and leaves them as they are.
    List<String> over = new ArrayList<>(args);
    over.addAll(List.of("--out", reports.toString()));
    CliTestSupport.Run refused = CliTestSupport.run(over.toArray(String[]::new));
    assertThat(refused.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(refused.err()).contains("is a redacted report").contains("does not write revealed text over it");
    assertThat(hashes(reports)).containsAllEntriesOf(redacted);
    // A revealed copy may be rewritten in place (after an upgrade, say).
    assertThat(CliTestSupport.run(args.toArray(String[]::new)).exitCode()).isZero();
  }

  /** The printed command's arguments, with relative paths resolved as a shell in {@code folder} would. */
  private static List<String> asRunIn(Path folder, String command) {
    List<String> words = new ArrayList<>();
    Matcher word = Pattern.compile("'((?:[^']|'\\\\'')*)'|(\\S+)").matcher(command);
    while (word.find()) {
      words.add(word.group(1) != null ? word.group(1).replace("'\\''", "'") : word.group(2));
    }
    assertThat(words.subList(0, 2)).containsExactly("kvscope", "report");
    List<String> args = new ArrayList<>();
    for (String w : words.subList(1, words.size())) {
      args.add(w.startsWith("-") || w.equals("report") || Path.of(w).isAbsolute() ? w : folder.resolve(w).toString());
    }
    return args;
  }

  private static String unescape(String html) {
    return html.replace("&#39;", "'").replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
  }

  /** The sha-256 of each file in the folder (not below it: the revealed copy is a folder of its own). */
  private static Map<Path, String> hashes(Path folder) throws IOException, NoSuchAlgorithmException {
    Map<Path, String> hashes = new TreeMap<>();
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path f : files.filter(Files::isRegularFile).filter(f -> !f.startsWith(folder.resolve("revealed"))).toList()) {
        hashes.put(folder.relativize(f), HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f))));
      }
    }
    return hashes;
  }
}
