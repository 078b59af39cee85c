package io.kvscope.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The bash/zsh completion script, as picocli generates it, for {@code ./kvscope} in a source
 * checkout as well as for {@code kvscope} on the PATH: zsh's bash emulation finds a completion by
 * the command word as typed, so {@code ./kvscope} needs its own entry.
 */
@Command(
    name = "generate-completion",
    mixinStandardHelpOptions = true,
    description = "Print the bash/zsh completion script for kvscope and ./kvscope. Use it with "
        + "'source <(kvscope generate-completion)', or save it into /etc/bash_completion.d.")
final class CompletionCommand implements Callable<Integer> {

  /** The names the script completes: the command on the PATH, the checkout's launcher, picocli's own extras. */
  static final String NAMES = "kvscope ./kvscope kvscope.sh kvscope.bash";

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    String script = AutoComplete.bash("kvscope", spec.root().commandLine());
    String registration = "complete -F _complete_kvscope -o default kvscope kvscope.sh kvscope.bash";
    if (!script.contains(registration)) {
      throw new IllegalStateException("picocli's completion script no longer ends with the expected registration");
    }
    System.out.print(script.replace(registration, "complete -F _complete_kvscope -o default " + NAMES));
    return ExitCodes.OK;
  }
}
