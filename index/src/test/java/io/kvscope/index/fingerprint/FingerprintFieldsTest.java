package io.kvscope.index.fingerprint;

import io.kvscope.model.fingerprint.Words;
import io.kvscope.model.fingerprint.FingerprintConfig;
import io.kvscope.model.fingerprint.Fingerprinter;
import io.kvscope.model.fingerprint.Fingerprints;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

class FingerprintFieldsTest {

  @Test
  void pointValuesRoundTripAndSortInUnsignedHashOrder() {
    Random random = new Random(1);
    for (int i = 0; i < 10_000; i++) {
      long a = random.nextLong();
      long b = random.nextInt(3) == 0 ? a ^ (1L << random.nextInt(64)) : random.nextLong();
      BytesRef ta = FingerprintFields.packed(a);
      BytesRef tb = FingerprintFields.packed(b);
      assertThat(ta.length).isEqualTo(FingerprintFields.BYTES);
      assertThat(FingerprintFields.hash(ta.bytes)).isEqualTo(a);
      assertThat(Integer.signum(ta.compareTo(tb))).isEqualTo(Integer.signum(Long.compareUnsigned(a, b)));
    }
  }

  @Test
  void distinctHashesAreUniqueAndInPointOrder() {
    Fingerprints fp = new Fingerprinter(FingerprintConfig.defaults())
        .fingerprint(Words.join(new Words(8).words(5000)) + " " + Words.join(new Words(8).words(5000)));
    long[] distinct = fp.distinctHashes();

    assertThat(distinct.length).isLessThan(fp.size());
    for (int i = 1; i < distinct.length; i++) {
      assertThat(FingerprintFields.packed(distinct[i - 1]).compareTo(FingerprintFields.packed(distinct[i])))
          .isNegative();
    }
  }
}
