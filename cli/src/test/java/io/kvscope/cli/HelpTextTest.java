package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's help, as {@code kvscope CMD --help} prints it: within 80 columns, and different
 * from picocli's own unwrapped layout in whitespace only (so no word, file name or query was cut),
 * with each quoted query example on one line.
 */
class HelpTextTest {

  /** Each command's help as printed, by command name ("kvscope" for the top level). */
  private static Map<String, String> helps(CommandLine cli) {
    Map<String, String> helps = new LinkedHashMap<>();
    helps.put("kvscope", cli.getUsageMessage());
    cli.getSubcommands().forEach((name, sub) -> helps.putIfAbsent(sub.getCommandName(), sub.getUsageMessage()));
    return helps;
  }

  /** The same help laid out by picocli alone on lines wide enough never to wrap. */
  private static Map<String, String> unwrapped() {
    CommandLine cli = KvScope.model();
    cli.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
    cli.setUsageHelpWidth(4_000);
    return helps(cli);
  }

  @Test
  void everyCommandsHelpFitsEightyColumns() {
    Map<String, String> helps = helps(KvScope.commandLine());
    assertThat(helps.keySet()).contains("kvscope", "ingest", "search", "analyze", "probe", "report", "gui");
    List<String> tooWide = new ArrayList<>();
    helps.forEach((command, help) -> help.lines()
        .filter(line -> line.length() > HelpText.WIDTH)
        // A single word longer than the line (a URL, say) stays whole rather than being cut.
        .filter(line -> line.strip().contains(" "))
        .forEach(line -> tooWide.add(command + ": " + line)));
    assertThat(tooWide).isEmpty();
  }

  @Test
  void wrappingOnlyMovesLineBreaksBetweenWords() {
    Map<String, String> wrapped = helps(KvScope.commandLine());
    Map<String, String> unwrapped = unwrapped();
    assertThat(wrapped.keySet()).isEqualTo(unwrapped.keySet());
    for (String command : wrapped.keySet()) {
      assertThat(words(wrapped.get(command))).as(command).isEqualTo(words(unwrapped.get(command)));
    }
    // The cuts picocli made: a file name at its dot, a query at a colon.
    assertThat(wrapped.get("analyze")).contains("report.md,").contains("report.html,");
  }

  @Test
  void queryExamplesStayOnOneLine() {
    // A quoted example starts after a space and ends before one (an apostrophe in prose does not).
    Pattern quoted = Pattern.compile("(?<=\\s)'[^'\\n]+'(?=[\\s,.;)]|$)");
    Map<String, String> wrapped = helps(KvScope.commandLine());
    int examples = 0;
    for (Map.Entry<String, String> help : unwrapped().entrySet()) {
      Matcher m = quoted.matcher(help.getValue());
      while (m.find()) {
        if (m.group().contains(":")) {
          examples++;
          String example = m.group();
          assertThat(wrapped.get(help.getKey()).lines().anyMatch(line -> line.contains(example)))
              .as("%s on one line of %s --help", example, help.getKey()).isTrue();
        }
      }
    }
    assertThat(examples).as("query examples in the help").isGreaterThanOrEqualTo(4);
  }

  @Test
  void anOptionsDescriptionContinuesUnderItself() {
    String wrapped = HelpText.wrap("  -o, --out=DIR     " + "word ".repeat(30).strip(), -1);
    List<String> lines = wrapped.lines().toList();
    assertThat(lines).hasSizeGreaterThan(1);
    assertThat(lines.getFirst()).startsWith("  -o, --out=DIR     word");
    int column = "  -o, --out=DIR     ".length();
    assertThat(lines.subList(1, lines.size())).allMatch(line -> line.startsWith(" ".repeat(column) + "word"));
    assertThat(HelpText.words("try 'a:b AND c:d', or \"x y\" and server's one"))
        .containsExactly("try", "'a:b AND c:d',", "or", "\"x y\"", "and", "server's", "one");
  }

  private static List<String> words(String text) {
    return Arrays.stream(text.strip().split("\\s+")).toList();
  }
}
