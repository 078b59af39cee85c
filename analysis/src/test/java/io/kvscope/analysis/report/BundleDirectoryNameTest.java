package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BundleDirectoryNameTest {

  /** Names a customer can set, including pairs that collided under the old sanitise-and-hash scheme. */
  static List<String> hostileNames() throws Exception {
    String oldHash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest("x~y".getBytes(StandardCharsets.UTF_8)), 0, 4);
    String aliceHash = HexFormat.of().formatHex(
        MessageDigest.getInstance("SHA-256").digest("alice@corp.example".getBytes(StandardCharsets.UTF_8)), 0, 4);
    return List.of("x~y", "x_y-" + oldHash, "x_y", "alice@corp.example", "alice_corp.example-" + aliceHash,
        ".", "..", "...", "/", "a/b", "a_b", "a:b", "../etc/passwd", "\u0000", "nul\u0000x", "a\nb", "a\rb",
        "\u001b]52;c;SGVsbG8=\u0007", "", " ", "~", "~~", "~41", "Acme", "acme", "ACME", "aCme",
        "\u0430cme", /* Cyrillic a */ "caf\u00e9", "cafe\u0301", /* NFC and NFD */ "\u202eemca", "x".repeat(300),
        "x".repeat(299) + "y", "\u00e9".repeat(200), "\u00e9".repeat(199) + "e", "-rf", ".hidden", "con", "CON",
        "\ud83d\ude00", "org-acme", "team.a-1_b");
  }

  @Test
  void distinctTenantsGetDistinctNamesEvenOnCaseInsensitiveFileSystems() throws Exception {
    Set<String> names = new HashSet<>();
    Set<String> folded = new HashSet<>();
    for (String tenant : hostileNames()) {
      String name = BundleDirectoryName.of(tenant);
      assertThat(names.add(name)).as("%s shares a folder", tenant).isTrue();
      assertThat(folded.add(name.toLowerCase(Locale.ROOT))).as("%s differs only by case", tenant).isTrue();
    }
  }

  @Test
  void everyNameIsOneSafeFolderName() throws Exception {
    for (String tenant : hostileNames()) {
      String name = BundleDirectoryName.of(tenant);
      assertThat(name).as(tenant).matches("[a-z0-9._~-]+").doesNotStartWith(".").isNotIn(".", "..");
      assertThat(name.getBytes(StandardCharsets.UTF_8).length).as(tenant).isLessThanOrEqualTo(255);
    }
  }

  @Test
  void plainNamesStayReadableAndOthersAreEncodedByte_by_byte() {
    assertThat(BundleDirectoryName.of("northwind")).isEqualTo("northwind");
    assertThat(BundleDirectoryName.of("team.a-1_b")).isEqualTo("team.a-1_b");
    assertThat(BundleDirectoryName.of("Acme")).isEqualTo("~41cme");
    assertThat(BundleDirectoryName.of("..")).isEqualTo("~2e.");
    assertThat(BundleDirectoryName.of("x~y")).isEqualTo("x~7ey");
    assertThat(BundleDirectoryName.of("caf\u00e9")).isEqualTo("caf~c3~a9");
    assertThat(BundleDirectoryName.of("")).isEqualTo("~");
    String longName = BundleDirectoryName.of("\u00e9".repeat(200));
    assertThat(longName).contains("~~").hasSizeLessThan(BundleDirectoryName.MAX_ENCODED + 70);
    assertThat(longName.substring(0, longName.indexOf("~~"))).matches("(~[0-9a-f]{2})+");
  }
}
