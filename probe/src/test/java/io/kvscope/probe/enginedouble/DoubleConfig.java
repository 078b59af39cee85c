package io.kvscope.probe.enginedouble;

/**
 * How the engine double is set up: a prefill/decode pair behind a router, sized like the incident
 * scaled down (prefill pool half the context, decode pool the whole context).
 *
 * @param admission {@link Admission#BUGGY}: the incident's PD admission path; {@link Admission#FIXED}:
 *     refused with 400 at admission
 * @param prefillMicrosPerToken how long the double's prefill takes per prompt token
 */
public record DoubleConfig(Admission admission, long contextLength, long prefillPoolTokens, long decodePoolTokens,
    int pageSize, String version, long prefillMicrosPerToken, String model) {

  /** What the router does with a prompt past the smallest pool but within the context. */
  public enum Admission { BUGGY, FIXED }

  /** The incident's shape at a size tests run in well under a second. */
  public static DoubleConfig incident(Admission admission) {
    return new DoubleConfig(admission, 16_384, 8_192, 16_384, 16, admission == Admission.FIXED ? "0.5.22" : "0.5.21", 100,
        "probe-double/llama-1m");
  }

  public DoubleConfig withVersion(String v) {
    return new DoubleConfig(admission, contextLength, prefillPoolTokens, decodePoolTokens, pageSize, v, prefillMicrosPerToken, model);
  }

  public DoubleConfig withPrefillMicrosPerToken(long micros) {
    return new DoubleConfig(admission, contextLength, prefillPoolTokens, decodePoolTokens, pageSize, version, micros, model);
  }

  public DoubleConfig withAdmission(Admission a) {
    return new DoubleConfig(a, contextLength, prefillPoolTokens, decodePoolTokens, pageSize, version, prefillMicrosPerToken, model);
  }
}
