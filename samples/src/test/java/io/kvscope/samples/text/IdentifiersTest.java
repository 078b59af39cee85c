package io.kvscope.samples.text;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.samples.random.Rng;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IdentifiersTest {

  @Test
  void ibansCarryAValidCheck() {
    Rng rng = new Rng(1);
    for (int i = 0; i < 200; i++) {
      String iban = Identifiers.iban(rng);
      String rearranged = iban.substring(4) + iban.substring(0, 4);
      StringBuilder digits = new StringBuilder();
      for (char c : rearranged.toCharArray()) {
        digits.append(Character.isDigit(c) ? String.valueOf(c) : String.valueOf(c - 'A' + 10));
      }
      assertThat(new BigInteger(digits.toString()).mod(BigInteger.valueOf(97)).intValue()).as(iban).isEqualTo(1);
    }
  }

  @Test
  void requestUniqueIdentifiersNeverRepeatAcrossCountersOrTenants() {
    Set<String> phones = new HashSet<>();
    Set<String> accounts = new HashSet<>();
    for (int tenant = 0; tenant < 20; tenant++) {
      for (long counter = 1; counter < 5_000; counter++) {
        assertThat(phones.add(Identifiers.phone(49, tenant, counter))).isTrue();
        assertThat(accounts.add(Identifiers.account(tenant, counter))).isTrue();
      }
    }
    assertThat(Identifiers.email("Maria", "Keller", 12, "x.example"))
        .isNotEqualTo(Identifiers.email("Maria", "Keller", 1, "x.example"))
        .isEqualTo("maria.keller12@x.example");
    assertThat(Identifiers.canary(new Rng(2))).matches("KVCANARY-[0-9A-F]{16}");
  }
}
