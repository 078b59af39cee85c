package io.kvscope.samples.random;

/**
 * A small, fast, seeded generator (xoshiro256**, seeded through SplitMix64). Its algorithm is fixed
 * here rather than borrowed from the JDK so output never changes with the Java version, and the
 * distributions use {@link StrictMath} so they give the same bits on every platform.
 *
 * <p>Not thread-safe; each stream of decisions owns one instance, forked with {@link #derive}.
 */
public final class Rng {

  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private long s0;
  private long s1;
  private long s2;
  private long s3;
  private double spareGaussian;
  private boolean hasSpare;

  public Rng(long seed) {
    long x = seed;
    s0 = mix(x += GOLDEN);
    s1 = mix(x += GOLDEN);
    s2 = mix(x += GOLDEN);
    s3 = mix(x += GOLDEN);
  }

  /** A generator for the sub-stream {@code keys} of {@code seed}: independent of call order elsewhere. */
  public static Rng derive(long seed, long... keys) {
    return new Rng(deriveSeed(seed, keys));
  }

  /** The seed {@link #derive} would use. */
  public static long deriveSeed(long seed, long... keys) {
    long h = mix(seed ^ 0x243F6A8885A308D3L);
    for (long k : keys) {
      h = mix(h ^ mix(k + GOLDEN));
    }
    return h;
  }

  /** A stable 64-bit key for a stream name (no dependence on {@link String#hashCode()} quirks). */
  public static long key(String name) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < name.length(); i++) {
      h ^= name.charAt(i);
      h *= 0x100000001b3L;
    }
    return mix(h);
  }

  /** SplitMix64 finaliser: a good 64-bit bit mixer. */
  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  public long nextLong() {
    long result = Long.rotateLeft(s1 * 5, 7) * 9;
    long t = s1 << 17;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = Long.rotateLeft(s3, 45);
    return result;
  }

  /** Uniform in [0, bound). */
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive: " + bound);
    }
    return (int) nextLong(bound);
  }

  /** Uniform in [0, bound), unbiased (Lemire's method with rejection). */
  public long nextLong(long bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive: " + bound);
    }
    long threshold = Long.remainderUnsigned(-bound, bound);
    while (true) {
      long x = nextLong();
      long high = Math.unsignedMultiplyHigh(x, bound);
      long low = x * bound;
      if (Long.compareUnsigned(low, threshold) >= 0) {
        return high;
      }
    }
  }

  /** Uniform in [from, to] inclusive. */
  public int between(int from, int to) {
    return from + nextInt(to - from + 1);
  }

  /** Uniform in [0, 1). */
  public double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  /** Uniform in [from, to). */
  public double uniform(double from, double to) {
    return from + (to - from) * nextDouble();
  }

  public boolean chance(double p) {
    return nextDouble() < p;
  }

  /** Standard normal (Marsaglia polar method). */
  public double gaussian() {
    if (hasSpare) {
      hasSpare = false;
      return spareGaussian;
    }
    double u;
    double v;
    double s;
    do {
      u = nextDouble() * 2 - 1;
      v = nextDouble() * 2 - 1;
      s = u * u + v * v;
    } while (s >= 1 || s == 0);
    double m = Math.sqrt(-2 * StrictMath.log(s) / s);
    spareGaussian = v * m;
    hasSpare = true;
    return u * m;
  }

  /** Log-normal with the given median and log-space sigma. */
  public double logNormal(double median, double sigma) {
    return median * StrictMath.exp(sigma * gaussian());
  }

  /** Exponential with the given mean. */
  public double exponential(double mean) {
    return -mean * StrictMath.log(1 - nextDouble());
  }

  public <T> T pick(T[] items) {
    return items[nextInt(items.length)];
  }

  public <T> T pick(java.util.List<T> items) {
    return items.get(nextInt(items.size()));
  }

  /** Index drawn with probability proportional to {@code weights[i]}. */
  public int weighted(double[] weights) {
    double total = 0;
    for (double w : weights) {
      total += w;
    }
    double x = nextDouble() * total;
    for (int i = 0; i < weights.length; i++) {
      x -= weights[i];
      if (x < 0) {
        return i;
      }
    }
    return weights.length - 1;
  }

  /** Lower-case hex string of {@code digits} random digits. */
  public String hex(int digits) {
    StringBuilder sb = new StringBuilder(digits);
    while (sb.length() < digits) {
      long x = nextLong();
      for (int i = 0; i < 16 && sb.length() < digits; i++) {
        sb.append(Character.forDigit((int) (x & 0xF), 16));
        x >>>= 4;
      }
    }
    return sb.toString();
  }

  /** A random version-4 UUID in canonical form. */
  public String uuid() {
    String h = hex(32);
    char variant = "89ab".charAt(nextInt(4));
    return h.substring(0, 8) + "-" + h.substring(8, 12) + "-4" + h.substring(13, 16) + "-" + variant
        + h.substring(17, 20) + "-" + h.substring(20, 32);
  }
}
