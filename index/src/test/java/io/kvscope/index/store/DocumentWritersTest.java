package io.kvscope.index.store;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.TypedDocs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocumentWritersTest {

  @TempDir Path tmp;

  private static Document doc(String id, String value) {
    Document doc = Documents.base(Schema.TYPE_NODE_HOUR, id);
    Documents.keyword(doc, Schema.NODE, value);
    return doc;
  }

  private static Map<String, String> contents(IndexStore store) throws IOException {
    Map<String, String> found = new TreeMap<>();
    try (DirectoryReader reader = store.openReader()) {
      TypedDocs.forEach(reader, Schema.TYPE_NODE_HOUR, d -> found.put(d.get(Schema.ID), d.get(Schema.NODE)));
    }
    return found;
  }

  @Test
  void documentsWithTheSameRouteAreWrittenInOrderSoTheLastReplacementWins() throws Exception {
    try (IndexStore store = IndexStore.open(tmp.resolve("index"))) {
      try (DocumentWriters writers = new DocumentWriters(store, 3, 1_000)) {
        for (int round = 0; round < 50; round++) {
          for (int id = 0; id < 40; id++) {
            String value = "round-" + round;
            String key = "id-" + id;
            // a large weight against a small budget also exercises the memory bound
            writers.submit(id, 300, () -> doc(key, value));
          }
        }
        writers.flush();
      }
      Map<String, String> found = contents(store);
      assertThat(found).hasSize(40);
      assertThat(found.values()).containsOnly("round-49");
    }
  }

  @Test
  void aFailedBuildIsThrownOnceAndTheDocumentsAroundItAreStillWritten() throws Exception {
    try (IndexStore store = IndexStore.open(tmp.resolve("index"))) {
      try (DocumentWriters writers = new DocumentWriters(store, 2, 1 << 20)) {
        java.util.concurrent.CountDownLatch afterSubmitted = new java.util.concurrent.CountDownLatch(1);
        writers.submit(0, 1, () -> doc("before", "x"));
        writers.submit(1, 1, () -> {
          try {
            afterSubmitted.await(); // fail only once the next document is queued
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          throw new IllegalStateException("parser bug");
        });
        writers.submit(0, 1, () -> doc("after", "y"));
        afterSubmitted.countDown();

        assertThatThrownBy(writers::flush).isInstanceOf(IllegalStateException.class).hasMessage("parser bug");
        writers.flush(); // reported once
      }
      assertThat(contents(store)).containsOnlyKeys("before", "after");
    }
  }

  @Test
  void oneWorkerWritesEveryDocumentOnItsOwnThreadInOrder() throws Exception {
    try (IndexStore store = IndexStore.open(tmp.resolve("index"))) {
      java.util.Set<Thread> writing = java.util.concurrent.ConcurrentHashMap.newKeySet();
      try (DocumentWriters writers = new DocumentWriters(store, 1, 1_000)) {
        for (int round = 0; round < 20; round++) {
          for (int id = 0; id < 10; id++) {
            String value = "round-" + round;
            String key = "id-" + id;
            writers.submit(round * 10 + id, 100, () -> {
              writing.add(Thread.currentThread());
              return doc(key, value);
            });
          }
        }
        writers.flush();
      }
      assertThat(writing).hasSize(1).doesNotContain(Thread.currentThread());
      Map<String, String> found = contents(store);
      assertThat(found).hasSize(10);
      assertThat(found.values()).containsOnly("round-19");
    }
  }

  @Test
  void aWorkerPerCoreUpToFourAndOneCoreNone() {
    assertThat(DocumentWriters.defaultWorkers(1)).isZero();
    assertThat(DocumentWriters.defaultWorkers(2)).isEqualTo(2);
    assertThat(DocumentWriters.defaultWorkers(3)).isEqualTo(3);
    assertThat(DocumentWriters.defaultWorkers(16)).isEqualTo(4);
  }

  @Test
  void noWorkerWritesOnTheCallersThread() throws Exception {
    try (IndexStore store = IndexStore.open(tmp.resolve("index"))) {
      try (DocumentWriters writers = new DocumentWriters(store, 0, 10)) {
        Thread caller = Thread.currentThread();
        writers.submit(0, 100, () -> {
          assertThat(Thread.currentThread()).isSameAs(caller);
          return doc("a", "x");
        });
      }
      assertThat(contents(store)).containsOnlyKeys("a");
    }
  }
}
