package io.kvscope.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the real command line in-process and captures what it prints. */
final class CliTestSupport {

  record Run(int exitCode, String out, String err) {}

  private CliTestSupport() {}

  static synchronized Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      var cli = KvScope.commandLine();
      cli.setOut(new java.io.PrintWriter(System.out, true));
      cli.setErr(new java.io.PrintWriter(System.err, true));
      int code = cli.execute(args);
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }
}
