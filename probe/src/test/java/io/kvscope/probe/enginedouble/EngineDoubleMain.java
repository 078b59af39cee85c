package io.kvscope.probe.enginedouble;

/**
 * Runs the engine double until killed, for trying {@code kvscope probe} by hand:
 * {@code java -cp <test classes and kvscope's jars> io.kvscope.probe.enginedouble.EngineDoubleMain [--fixed] [--port N]}.
 * The router listens on N (default 30000), the prefill node on N+1, the decode node on N+2.
 */
public final class EngineDoubleMain {

  private EngineDoubleMain() {}

  public static void main(String[] args) throws Exception {
    DoubleConfig.Admission admission = DoubleConfig.Admission.BUGGY;
    int port = 30_000;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--fixed" -> admission = DoubleConfig.Admission.FIXED;
        case "--buggy" -> admission = DoubleConfig.Admission.BUGGY;
        case "--port" -> port = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("usage: EngineDoubleMain [--fixed|--buggy] [--port N]");
      }
    }
    EngineDouble d = EngineDouble.start(DoubleConfig.incident(admission), port, port + 1, port + 2);
    System.out.println("engine double (" + admission.name().toLowerCase(java.util.Locale.ROOT) + " admission): router "
        + d.routerUri() + ", prefill " + d.prefillUri() + ", decode " + d.decodeUri());
    Thread.currentThread().join();
  }
}
