package io.kvscope.samples.out;

/** Which codec each output file gets. */
public interface CodecPolicy {

  Codec gatewayDay(String day);

  Codec traces();

  Codec engine(String node);

  /** Deployment records (a manifest, a pod listing): small files nobody rotates, plain unless all are packed. */
  default Codec deployment() {
    return Codec.PLAIN;
  }

  /** Everything plain: fastest to write and to read. */
  static CodecPolicy plain() {
    return uniform(Codec.PLAIN);
  }

  static CodecPolicy uniform(Codec codec) {
    return new CodecPolicy() {
      @Override
      public Codec gatewayDay(String day) {
        return codec;
      }

      @Override
      public Codec traces() {
        return codec;
      }

      @Override
      public Codec engine(String node) {
        return codec;
      }

      @Override
      public Codec deployment() {
        return codec;
      }
    };
  }

  /** As a log rotator leaves it: the first days' gateway files and one engine log gzipped. */
  static CodecPolicy rotated() {
    return new CodecPolicy() {
      @Override
      public Codec gatewayDay(String day) {
        return day.compareTo("2026-08-23") < 0 ? Codec.GZIP : Codec.PLAIN;
      }

      @Override
      public Codec traces() {
        return Codec.PLAIN;
      }

      @Override
      public Codec engine(String node) {
        return node.equals("sglang-decode-b0") ? Codec.GZIP : Codec.PLAIN;
      }
    };
  }
}
