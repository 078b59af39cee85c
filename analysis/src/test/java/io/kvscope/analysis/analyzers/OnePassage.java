package io.kvscope.analysis.analyzers;

import static io.kvscope.analysis.TestIndex.request;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.TestIndex;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.fingerprint.FingerprintJoin;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The joins' smallest real case: three tenants' replies repeat one passage on one decode node, so
 * each reply is a candidate of the others (six pairs), and the fingerprint join over that index.
 */
record OnePassage(IndexSearch search, FingerprintJoin join) implements AutoCloseable {

  static final String PASSAGE = "The quarterly ledger for the Halvorsen account closed at four hundred"
      + " and twelve thousand crowns after the late transfer from the Bergen office was booked twice and reversed"
      + " on the second of March by the night clerk";

  static OnePassage index(Path dir) throws IOException {
    TestIndex test = new TestIndex(dir);
    String[] tenants = {"a", "b", "c"};
    for (int i = 0; i < tenants.length; i++) {
      test.servedOn(request("r" + i, tenants[i], "2026-03-02T10:0" + i + ":00Z", 40, 200)
          .promptText("Question " + i + " of tenant " + tenants[i]).responseText("Note: " + PASSAGE).build(), "decode-0");
    }
    IndexSearch search = test.open();
    RequestColumns columns = RequestColumns.load(new AnalysisContext(search, AnalysisOptions.defaults()));
    return new OnePassage(search, new FingerprintJoin(search.reader(),
        doc -> columns.isRequest(doc) ? columns.tenant(doc) : -1));
  }

  @Override
  public void close() throws IOException {
    search.close();
  }
}
