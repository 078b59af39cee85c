package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A run is given the model of the subcommand it runs only (picocli builds every model it is given);
 * the usage, help, completion and a mistyped name get every subcommand, in the usage's order.
 */
class CommandModelTest {

  private static final List<String> ALL = List.of("ingest", "search", "analyze", "analyse", "scope", "audit", "probe",
      "report", "generate", "demo", "gui", "score", "help", "generate-completion");

  @Test
  void aRunHoldsOnlyTheSubcommandItRuns() {
    assertThat(KvScope.model("analyze", "--index", "x").getSubcommands().keySet()).containsExactly("analyze", "analyse");
    assertThat(KvScope.model("analyse").getSubcommands().keySet()).containsExactly("analyze", "analyse");
    assertThat(KvScope.model("ingest", "--help").getSubcommands().keySet()).containsExactly("ingest");
  }

  @Test
  void theUsageHelpCompletionAndUnknownNamesHoldEverySubcommandInOrder() {
    for (String[] args : new String[][] {{}, {"--help"}, {"help", "analyze"}, {"generate-completion"}, {"analyz"},
        {"-V"}}) {
      assertThat(KvScope.model(args).getSubcommands().keySet()).as(String.join(" ", args)).containsExactlyElementsOf(ALL);
    }
  }

  @Test
  void theHelpCommandStillPrintsASubcommandsUsage() {
    CliTestSupport.Run help = CliTestSupport.run("help", "analyze");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("Usage: kvscope analyze");
    CliTestSupport.Run own = CliTestSupport.run("analyze", "--help");
    assertThat(own.out()).isEqualTo(help.out());
  }
}
