package io.kvscope.gui.view;

import io.kvscope.gui.data.IndexData;
import io.kvscope.gui.data.SearchHits;
import io.kvscope.gui.model.FindingFilter;
import io.kvscope.gui.model.WorkbenchModel;
import io.kvscope.model.finding.Finding;
import java.util.ArrayList;
import java.util.List;
import javafx.concurrent.Task;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The search over the findings table: a Lucene query run against the index on a worker thread, its
 * matches applied to the findings as a filter by request id, and under it what the query matched,
 * why it failed, or how the index read it (a tenant's name typed as a bare word). A new search
 * cancels the one still running.
 */
final class IndexSearchBar extends VBox {

  private final ViewContext ctx;
  private final WorkbenchModel model;
  private final TextField query = new TextField();
  private final Label status = new Label();
  /** How the index read the last query, shown under the bar; it takes no room when there is nothing to say. */
  private final Label note = new Label();
  private final ProgressIndicator searching = new ProgressIndicator();
  private Task<SearchHits> pending;

  /** @param trailing controls that share the search's row, after it */
  IndexSearchBar(ViewContext ctx, Node... trailing) {
    super(6);
    this.ctx = ctx;
    this.model = ctx.model();
    query.setId("searchQuery");
    status.setId("searchStatus");
    status.getStyleClass().add("muted");
    note.setId("searchNote");
    note.getStyleClass().add("search-note");
    note.setWrapText(true);
    showNotes(List.of());
    getChildren().addAll(row(trailing), note);
  }

  /** Clears the query and what was said of it, cancelling a search that runs. */
  void reset() {
    query.clear();
    clearStatus();
    cancel();
  }

  /** The filter changed elsewhere: a search it no longer holds leaves no status behind. */
  void filterChanged(FindingFilter filter) {
    if (filter.searchQuery() == null && !query.getText().isBlank() && pending == null) {
      clearStatus();
    }
  }

  private HBox row(Node... trailing) {
    query.setPromptText("Search the index (Lucene syntax), e.g. response_text:\"account number\" AND prompt_tokens:[681280 TO *]");
    HBox.setHgrow(query, Priority.ALWAYS);
    query.setOnAction(e -> run());
    Button search = new Button("Search");
    search.setId("searchButton");
    search.setOnAction(e -> run());
    Button clear = new Button("Clear");
    clear.setId("clearSearch");
    clear.setOnAction(e -> {
      reset();
      model.updateFilter(f -> f.withSearch(null, null));
    });
    searching.setPrefSize(18, 18);
    searching.setVisible(false);
    search.disableProperty().bind(model.indexProperty().isNull());
    query.disableProperty().bind(model.indexProperty().isNull());
    HBox row = new HBox(8, new Label("Search"), query, search, clear, searching, status);
    row.getChildren().addAll(trailing);
    row.setAlignment(Pos.CENTER_LEFT);
    List<Node> kept = List.of(trailing);
    for (Node n : row.getChildren()) {
      if (n instanceof Region r && (n instanceof Button || kept.contains(n))) {
        r.setMinWidth(Region.USE_PREF_SIZE); // a narrow window squeezes the query, not the buttons
      }
    }
    return row;
  }

  private void run() {
    String text = query.getText().strip();
    IndexData index = model.index();
    if (index == null) {
      return;
    }
    cancel();
    if (text.isEmpty()) {
      model.updateFilter(f -> f.withSearch(null, null));
      clearStatus();
      return;
    }
    List<String> ids = new ArrayList<>();
    for (Finding f : model.allFindings()) {
      if (f.requestId() != null) {
        ids.add(f.requestId());
      }
      if (f.engineRid() != null) {
        ids.add(f.engineRid());
      }
    }
    searching.setVisible(true);
    status.getStyleClass().remove("error");
    status.setText("Searching\u2026");
    showNotes(List.of());
    pending = ctx.work().run("Searching the index", p -> index.matching(text, ids), hits -> {
      pending = null;
      searching.setVisible(false);
      model.updateFilter(f -> f.withSearch(text, hits.ids()));
      status.setText("Query matched " + Formats.count(hits.totalMatches()) + " requests in the index");
      showNotes(hits.notes());
    }, error -> {
      pending = null;
      searching.setVisible(false);
      if (!status.getStyleClass().contains("error")) {
        status.getStyleClass().add("error");
      }
      String reason = error instanceof org.apache.lucene.queryparser.classic.ParseException
          ? "Query not understood: " : "Search failed: ";
      status.setText(reason + firstLine(error.getMessage()));
    });
  }

  private void clearStatus() {
    status.setText("");
    showNotes(List.of());
  }

  /** The index's notes on the query, one a line. */
  private void showNotes(List<String> notes) {
    note.setText(String.join("\n", notes));
    note.setVisible(!notes.isEmpty());
    note.setManaged(!notes.isEmpty());
  }

  private void cancel() {
    if (pending != null) {
      pending.cancel(true);
      pending = null;
      searching.setVisible(false);
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unknown error";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
