package io.kvscope.spark;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.UserAliases;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link ScopeJob#main}'s command line: {@code INPUT... --out DIR [--master URL] [--tenant-key KEY]...
 * [--node NAME] [--node-alias ALIAS=NODE]... [--mapping FILE] [--salt-work UPDATES]}. The ingest options
 * mean what they mean to {@code kvscope ingest}, {@code --node-alias} by the same rule
 * ({@link UserAliases}: an alias given as two nodes is a usage error); a mapping file must be
 * readable at that path on every executor.
 */
record JobArguments(List<String> inputs, String out, String master, long saltWork, IngestOptions ingest) {

  static final String USAGE = "usage: ScopeJob INPUT... --out DIR [--master URL] [--tenant-key KEY]... [--node NAME]"
      + " [--node-alias ALIAS=NODE]... [--mapping FILE] [--salt-work UPDATES]";

  JobArguments {
    inputs = List.copyOf(inputs);
  }

  /**
   * @param defaultMaster the master when none is given (spark-submit passes its own as {@code spark.master})
   * @throws IllegalArgumentException saying what is wrong, for a usage error
   */
  static JobArguments parse(String[] args, String defaultMaster) {
    List<String> inputs = new ArrayList<>();
    List<String> tenantKeys = new ArrayList<>();
    List<String> aliases = new ArrayList<>();
    String out = null;
    String master = defaultMaster;
    String node = null;
    Path mapping = null;
    long saltWork = PairStage.SALT_WORK;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      switch (arg) {
        case "--out" -> out = value(args, ++i, arg);
        case "--master" -> master = value(args, ++i, arg);
        // Repeatable or comma-separated, first present wins: as kvscope ingest takes it.
        case "--tenant-key" -> List.of(value(args, ++i, arg).split(",")).stream().map(String::strip)
            .filter(key -> !key.isEmpty()).forEach(tenantKeys::add);
        case "--node" -> node = value(args, ++i, arg);
        case "--node-alias" -> aliases.add(value(args, ++i, arg));
        case "--mapping" -> mapping = Path.of(value(args, ++i, arg));
        case "--salt-work" -> saltWork = Long.parseLong(value(args, ++i, arg));
        default -> {
          if (arg.startsWith("--")) {
            throw new IllegalArgumentException("the job does not take " + arg);
          }
          inputs.add(arg);
        }
      }
    }
    if (out == null || inputs.isEmpty()) {
      throw new IllegalArgumentException("the job needs at least one INPUT and --out");
    }
    return new JobArguments(inputs, out, master, saltWork,
        new IngestOptions(tenantKeys, node, mapping, UserAliases.parse(aliases)));
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }
}
