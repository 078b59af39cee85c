package io.kvscope.index.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PairCounterTest {

  @TempDir Path spill;

  @Test
  void spillingGivesTheSameSortedCountsAsAPlainMap() throws IOException {
    Random random = new Random(9);
    TreeMap<Long, int[]> reference = new TreeMap<>();
    List<Candidate> emitted = new ArrayList<>();
    int runs;
    try (PairCounter counter = new PairCounter(64, spill)) {
      for (int i = 0; i < 6_000; i++) {
        int recipient = random.nextInt(60);
        int source = random.nextInt(60);
        if (recipient == source) {
          continue;
        }
        boolean viaPrompt = random.nextBoolean();
        counter.add(recipient, source, viaPrompt);
        int[] counts =
            reference.computeIfAbsent(((long) recipient << 32) | source, k -> new int[2]);
        counts[viaPrompt ? 0 : 1]++;
      }
      runs = counter.spilledRuns();
      assertThat(runs).isGreaterThan(10);
      try (Stream<Path> files = Files.list(spill)) {
        for (Path f : files.toList()) {
          assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
              .isEqualTo("rw-------");
        }
      }
      counter.emit(1, emitted::add);
    }

    assertThat(emitted).hasSize(reference.size());
    int i = 0;
    for (Map.Entry<Long, int[]> e : reference.entrySet()) {
      Candidate c = emitted.get(i++);
      assertThat(c.recipientDoc()).isEqualTo((int) (e.getKey() >>> 32));
      assertThat(c.sourceDoc()).isEqualTo((int) (long) e.getKey());
      assertThat(c.sharedWithSourcePrompt()).isEqualTo(e.getValue()[0]);
      assertThat(c.sharedWithSourceResponse()).isEqualTo(e.getValue()[1]);
    }
    try (Stream<Path> files = Files.list(spill)) {
      assertThat(files.toList()).as("runs are deleted on close").isEmpty();
    }
  }

  @Test
  void inMemoryCountsHonourTheMinimum() throws IOException {
    List<Candidate> emitted = new ArrayList<>();
    try (PairCounter counter = new PairCounter(1 << 20, spill)) {
      counter.add(5, 1, true);
      counter.add(5, 1, false);
      counter.add(5, 1, true);
      counter.add(2, 9, true);
      counter.add(0, 3, false);
      counter.emit(2, emitted::add);
      assertThat(counter.spilledRuns()).isZero();
    }
    assertThat(emitted).containsExactly(new Candidate(5, 1, 2, 1));
  }
}
