package io.kvscope.probe.enginedouble;

/**
 * Runs the engine double until killed, for trying {@code kvscope probe} by hand:
 * {@code java -cp "probe/target/test-classes:cli/target/lib/*" io.kvscope.probe.enginedouble.EngineDoubleMain [--fixed] [--port N] [--prefill-us M]}.
 * The router listens on N (default 30000), the prefill node on N+1, the decode node on N+2; a
 * prefill takes M microseconds per token (default 1000: slow enough that the first-token times
 * stand out of a busy machine's noise).
 */
public final class EngineDoubleMain {

  private EngineDoubleMain() {}

  public static void main(String[] args) throws Exception {
    DoubleConfig.Admission admission = DoubleConfig.Admission.BUGGY;
    int port = 30_000;
    long prefillMicros = 1_000;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--fixed" -> admission = DoubleConfig.Admission.FIXED;
        case "--buggy" -> admission = DoubleConfig.Admission.BUGGY;
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--prefill-us" -> prefillMicros = Long.parseLong(args[++i]);
        default -> throw new IllegalArgumentException("usage: EngineDoubleMain [--fixed|--buggy] [--port N] [--prefill-us M]");
      }
    }
    EngineDouble d = EngineDouble.start(DoubleConfig.incident(admission).withPrefillMicrosPerToken(prefillMicros), port, port + 1, port + 2);
    System.out.println("engine double (" + admission.name().toLowerCase(java.util.Locale.ROOT) + " admission): router "
        + d.routerUri() + ", prefill " + d.prefillUri() + ", decode " + d.decodeUri());
    Thread.currentThread().join();
  }
}
