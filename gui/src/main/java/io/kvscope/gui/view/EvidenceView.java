package io.kvscope.gui.view;

import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Span;
import io.kvscope.model.finding.Tenants;
import io.kvscope.analysis.report.ContentRedactor;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.analysis.report.TraceLinks;
import io.kvscope.gui.data.IndexData;
import io.kvscope.gui.data.StoredRequest;
import io.kvscope.gui.model.FindingGroup;
import io.kvscope.gui.model.WorkbenchModel;
import io.kvscope.gui.text.Mark;
import io.kvscope.gui.text.TextPieces;
import io.kvscope.index.store.Redaction;
import io.kvscope.index.doc.Schema;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.concurrent.Task;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar.ButtonData;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * One finding's evidence: the recipient's response and the source's prompt or response side by
 * side, the shared spans marked on both and the chosen one scrolled into view, and the engine facts
 * of both requests. Content is masked (lengths, hashes, where the spans lie) until the user asks to
 * reveal it and confirms.
 */
public final class EvidenceView extends BorderPane {

  private final WorkbenchModel model;
  private final ViewContext ctx;
  private final Label summary = new Label(NOTHING_SELECTED);
  private final ComboBox<Choice<Finding>> findingChoice = new ComboBox<>();
  private final ComboBox<Choice<Integer>> sourceChoice = new ComboBox<>();
  private final ComboBox<Choice<Integer>> spanChoice = new ComboBox<>();
  private final Button reveal = new Button();
  private final Button traceLink = new Button("Copy trace link");
  private final ProgressIndicator loading = new ProgressIndicator();
  private final MarkedTextPane recipientPane = new MarkedTextPane("recipientText");
  private final MarkedTextPane sourcePane = new MarkedTextPane("sourceText");
  private final ToggleButton promptToggle = new ToggleButton("Prompt");
  private final ToggleButton responseToggle = new ToggleButton("Response");
  private final TableView<FactRow> facts = new TableView<>();
  private final TableView<FactRow> evidence = new TableView<>();
  private final Label factsNote = new Label();
  private final ReadOnlyObjectWrapper<Finding> shown = new ReadOnlyObjectWrapper<>(this, "shown");
  private Loaded data;
  private int sourceIndex;
  private int spanIndex;
  private String sourceField = Schema.PROMPT_TEXT;
  private Task<Loaded> pending;
  private boolean updatingChoices;

  private static final String NOTHING_SELECTED =
      "Select a finding in the Findings tab (double-click or Enter) to see its evidence.";

  /**
   * A span whose words at its offsets are not its source's on the texts it names ({@link #onItsTexts}):
   * found in a logged copy it does not name (a report written before spans named their copies).
   */
  static final String ANOTHER_COPY = "in another logged copy of the reply or the source's prompt: not marked";

  /** A span whose offsets are in a logged copy it names: the panes show that copy, named, when it is chosen. */
  static final String IN_A_COPY = "in a logged copy";

  /** The least width the source chooser shrinks to in a crowded bar. */
  private static final double SHRINKABLE_CHOOSER = 140;

  /**
   * The finding and the requests read for it; {@code sources} align with the finding's sources
   * (null: not in the index); {@code copies} holds the texts of the logged copies its spans name
   * ({@link #copyKey}; null: not in the index); {@code described} holds each text's redacted
   * description, made off the FX thread (an over-length prompt is megabytes).
   */
  private record Loaded(Finding finding, StoredRequest recipient, List<StoredRequest> sources,
      Map<String, String> copies, Map<String, String> described, Redaction redaction) {

    String describe(String text) {
      return text == null ? "no text stored" : described.getOrDefault(text, "");
    }

    /** The recipient's reply span {@code s}'s offsets are in: its kept reply, or the copy {@code s} names. */
    String response(Span s) {
      if (s == null || s.responseCopy() == null) {
        return recipient == null ? null : recipient.record().responseText();
      }
      return copies.get(copyKey(finding.requestId(), Schema.RESPONSE_TEXT, s.responseCopy()));
    }

    /**
     * Source {@code index}'s text of {@code field} as span {@code s} saw it: the copy {@code s} names
     * when it is of that field, else the kept text.
     */
    String held(int index, Span s, String field) {
      if (s == null || s.sourceCopy() == null || !field.equals(s.sourceField())) {
        StoredRequest source = index < sources.size() ? sources.get(index) : null;
        return source == null ? null : source.text(field);
      }
      return copies.get(copyKey(finding.sources().get(index).requestId(), field, s.sourceCopy()));
    }
  }

  private static String copyKey(String requestId, String field, String copy) {
    return requestId + '\u0000' + field + '\u0000' + copy;
  }

  public EvidenceView(ViewContext ctx) {
    this.ctx = ctx;
    this.model = ctx.model();
    setId("evidenceView");
    summary.setId("evidenceSummary");
    summary.getStyleClass().add("evidence-summary");
    summary.setWrapText(true);
    findingChoice.setId("findingChoice");
    sourceChoice.setId("sourceChoice");
    spanChoice.setId("spanChoice");
    reveal.setId("revealButton");
    traceLink.setId("traceLinkButton");
    traceLink.setDisable(true);
    traceLink.setTooltip(new javafx.scene.control.Tooltip("Copy the link to this request's trace in your tracing tool "
        + "(kvscope gui --trace-url)"));
    // Only with a template: without one there is nothing to copy, and the bar keeps its room.
    traceLink.setVisible(ctx.traceLinks().enabled());
    traceLink.setManaged(ctx.traceLinks().enabled());
    loading.setId("evidenceLoading");
    loading.setPrefSize(18, 18);
    loading.setVisible(false);
    promptToggle.setId("sourcePromptToggle");
    responseToggle.setId("sourceResponseToggle");
    facts.setId("factsTable");
    evidence.setId("evidenceTable");

    Button previous = new Button("\u25C0");
    previous.setId("previousSpan");
    Button next = new Button("\u25B6");
    next.setId("nextSpan");
    previous.setOnAction(e -> stepSpan(-1));
    next.setOnAction(e -> stepSpan(1));
    Region grow = new Region();
    HBox.setHgrow(grow, Priority.ALWAYS);
    HBox bar = new HBox(8, new Label("Finding"), findingChoice, new Label("Source"), sourceChoice, new Label("Span"),
        spanChoice, previous, next, grow, loading, traceLink, reveal);
    bar.setAlignment(Pos.CENTER_LEFT);
    for (var n : bar.getChildren()) {
      if (n instanceof Region r && n != grow) {
        r.setMinWidth(Region.USE_PREF_SIZE);
      }
    }
    // A chooser is as wide as its longest entry. The sources' entries differ most in length (tenant
    // names, "possible source"), so when the bar is wider than the window the source chooser gives
    // up the room its shown entry does not need, rather than the bar pushing Reveal past the edge.
    sourceChoice.setMinWidth(SHRINKABLE_CHOOSER);
    findingChoice.setTooltip(new javafx.scene.control.Tooltip("The findings about this request, most severe first"));
    VBox top = new VBox(6, summary, bar);
    top.setPadding(new Insets(8, 10, 6, 10));
    setTop(top);

    ToggleGroup fields = new ToggleGroup();
    promptToggle.setToggleGroup(fields);
    responseToggle.setToggleGroup(fields);
    promptToggle.setMinWidth(Region.USE_PREF_SIZE);
    responseToggle.setMinWidth(Region.USE_PREF_SIZE);
    promptToggle.setOnAction(e -> chooseField(Schema.PROMPT_TEXT));
    responseToggle.setOnAction(e -> chooseField(Schema.RESPONSE_TEXT));
    sourcePane.setTools(promptToggle, responseToggle);

    buildTables();
    Label factsTitle = new Label("Engine facts");
    factsTitle.getStyleClass().add("pane-title");
    Label evidenceTitle = new Label("Analyzer evidence");
    evidenceTitle.getStyleClass().add("pane-title");
    VBox.setVgrow(facts, Priority.ALWAYS);
    evidence.setPrefHeight(150);
    evidence.setMinHeight(90);
    VBox side = new VBox(4, factsTitle, facts, evidenceTitle, evidence);
    side.setMinWidth(300);
    SplitPane split = new SplitPane(recipientPane, sourcePane, side);
    split.setDividerPositions(0.29, 0.58);
    setCenter(split);
    BorderPane.setMargin(split, new Insets(0, 6, 6, 6));

    findingChoice.setOnAction(e -> {
      if (!updatingChoices && findingChoice.getValue() != null) {
        model.selectedProperty().set(findingChoice.getValue().value());
      }
    });
    sourceChoice.setOnAction(e -> {
      if (!updatingChoices && sourceChoice.getValue() != null) {
        chooseSource(sourceChoice.getValue().value());
      }
    });
    spanChoice.setOnAction(e -> {
      if (!updatingChoices && spanChoice.getValue() != null) {
        chooseSpan(spanChoice.getValue().value());
      }
    });
    reveal.setOnAction(e -> toggleReveal());
    traceLink.setOnAction(e -> copyTraceLink());
    model.revealedProperty().addListener((obs, old, now) -> {
      updateRevealButton();
      render();
    });
    model.selectedProperty().addListener((obs, old, f) -> load(f));
    updateRevealButton();
    load(model.selectedProperty().get());
  }

  /** The finding whose evidence is on screen (null while loading or when none is selected). */
  public ReadOnlyObjectProperty<Finding> shownProperty() {
    return shown.getReadOnlyProperty();
  }

  private void load(Finding finding) {
    if (pending != null) {
      pending.cancel(true);
      pending = null;
    }
    shown.set(null);
    IndexData index = model.index();
    if (finding == null || index == null) {
      data = null;
      render();
      return;
    }
    loading.setVisible(true);
    pending = ctx.work().run("Reading evidence", p -> read(index, finding), loaded -> {
      pending = null;
      loading.setVisible(false);
      show(loaded);
    }, error -> {
      pending = null;
      loading.setVisible(false);
      ctx.status().error("Could not read the evidence of " + finding.id() + ": " + error.getMessage());
    });
  }

  private static Loaded read(IndexData index, Finding f) throws java.io.IOException {
    StoredRequest recipient = f.requestId() == null ? null : index.request(f.requestId(), f.engineRid()).orElse(null);
    List<StoredRequest> sources = new ArrayList<>();
    for (Source s : f.sources()) {
      Optional<StoredRequest> stored = index.request(s.requestId(), s.engineRid());
      sources.add(stored.orElse(null));
    }
    // The logged copies the spans name, read once each.
    Map<String, String> copies = new java.util.HashMap<>();
    for (Source s : f.sources()) {
      for (Span span : s.spans()) {
        if (span.responseCopy() != null && !copies.containsKey(copyKey(f.requestId(), Schema.RESPONSE_TEXT, span.responseCopy()))) {
          copies.put(copyKey(f.requestId(), Schema.RESPONSE_TEXT, span.responseCopy()),
              index.text(f.requestId(), Schema.RESPONSE_TEXT, span.responseCopy()));
        }
        if (span.sourceCopy() != null && !copies.containsKey(copyKey(s.requestId(), span.sourceField(), span.sourceCopy()))) {
          copies.put(copyKey(s.requestId(), span.sourceField(), span.sourceCopy()),
              index.text(s.requestId(), span.sourceField(), span.sourceCopy()));
        }
      }
    }
    Map<String, String> described = new IdentityHashMap<>();
    for (String text : copies.values()) {
      if (text != null) {
        described.computeIfAbsent(text, x -> describe(x, index.redaction()));
      }
    }
    List<StoredRequest> all = new ArrayList<>(sources);
    all.add(recipient);
    for (StoredRequest r : all) {
      if (r != null) {
        for (String text : new String[] {r.record().promptText(), r.record().responseText()}) {
          if (text != null) {
            described.computeIfAbsent(text, x -> describe(x, index.redaction()));
          }
        }
      }
    }
    return new Loaded(f, recipient, sources, copies, described, index.redaction());
  }

  /**
   * "1,945 chars · hmac 3e6321f4 · email, account_number": what can be said of a text without showing
   * it (the hash is keyed by the case, so it cannot be reversed by guessing).
   */
  static String describe(String text, Redaction redaction) {
    List<String> categories = ContentRedactor.categories(text);
    return Formats.count(text.length()) + " chars \u00B7 hmac " + redaction.hash(text)
        + (categories.isEmpty() ? " \u00B7 no identifiers found" : " \u00B7 " + String.join(", ", categories));
  }

  private void show(Loaded loaded) {
    data = loaded;
    sourceIndex = 0;
    spanIndex = 0;
    sourceField = firstField(loaded.finding(), 0);
    updatingChoices = true;
    FindingGroup group = model.groupOf(loaded.finding());
    List<Finding> related = group == null ? List.of(loaded.finding()) : group.findings();
    List<Choice<Finding>> findingChoices = related.stream()
        .map(f -> new Choice<>(Formats.kind(f.kind()) + " \u00B7 " + f.confidence().id(), f)).toList();
    findingChoice.setItems(FXCollections.observableArrayList(findingChoices));
    findingChoices.stream().filter(c -> c.value() == loaded.finding()).findFirst().ifPresent(findingChoice::setValue);
    findingChoice.setDisable(findingChoices.size() < 2);
    List<Source> sources = loaded.finding().sources();
    List<Choice<Integer>> choices = new ArrayList<>();
    for (int i = 0; i < sources.size(); i++) {
      Source s = sources.get(i);
      choices.add(new Choice<>((i + 1) + ". " + Tenants.nameOf(s.tenant()) + " \u00B7 " + Formats.count(s.matchedTokens())
          + " tokens" + (s.sole() ? "" : " \u00B7 possible source"), i));
    }
    sourceChoice.setItems(FXCollections.observableArrayList(choices));
    sourceChoice.setDisable(choices.isEmpty());
    if (!choices.isEmpty()) {
      sourceChoice.setValue(choices.get(0));
    }
    updatingChoices = false;
    refreshSpanChoices();
    render();
    shown.set(loaded.finding());
  }

  private static String firstField(Finding f, int source) {
    if (source < f.sources().size() && !f.sources().get(source).spans().isEmpty()) {
      String field = f.sources().get(source).spans().get(0).sourceField();
      return Schema.RESPONSE_TEXT.equals(field) ? Schema.RESPONSE_TEXT : Schema.PROMPT_TEXT;
    }
    return Schema.PROMPT_TEXT;
  }

  private void chooseSource(int index) {
    sourceIndex = index;
    spanIndex = 0;
    sourceField = firstField(data.finding(), index);
    refreshSpanChoices();
    render();
  }

  private void chooseSpan(int index) {
    spanIndex = index;
    List<Span> spans = currentSpans();
    if (index < spans.size()) {
      sourceField = Schema.RESPONSE_TEXT.equals(spans.get(index).sourceField()) ? Schema.RESPONSE_TEXT : Schema.PROMPT_TEXT;
    }
    render();
  }

  private void stepSpan(int delta) {
    int n = currentSpans().size();
    if (n == 0) {
      return;
    }
    int next = Math.floorMod(spanIndex + delta, n);
    updatingChoices = true;
    spanChoice.setValue(spanChoice.getItems().get(next));
    updatingChoices = false;
    chooseSpan(next);
  }

  private void chooseField(String field) {
    sourceField = field;
    render();
  }

  private List<Span> currentSpans() {
    if (data == null || sourceIndex >= data.finding().sources().size()) {
      return List.of();
    }
    return data.finding().sources().get(sourceIndex).spans();
  }

  /**
   * Whether span {@code s} of the current source lies on the texts it names: the reply's words at
   * its offsets (the kept reply, or the logged copy it names) are the source text's at its end (the
   * kept text, or the copy of its prompt it names). A span of a report that names no copy, found in
   * one, holds other words there and is never marked. A source not in the index contradicts nothing.
   */
  private boolean onItsTexts(Span s) {
    String response = data.response(s);
    String held = data.held(sourceIndex, s, s.sourceField());
    if (held == null) {
      return s.sourceCopy() == null && response != null && s.responseEnd() <= response.length();
    }
    return s.wordsAgree(response, held);
  }

  private void refreshSpanChoices() {
    updatingChoices = true;
    List<Span> spans = currentSpans();
    List<Choice<Integer>> choices = new ArrayList<>();
    for (int i = 0; i < spans.size(); i++) {
      Span s = spans.get(i);
      choices.add(new Choice<>(String.format("%d of %d \u00B7 %,d tokens \u00B7 response chars %,d\u2013%,d", i + 1,
          spans.size(), s.tokens(), s.responseStart(), s.responseEnd())
          + (!onItsTexts(s) ? " \u00B7 " + ANOTHER_COPY : s.inKeptTexts() ? "" : " \u00B7 " + IN_A_COPY),
          i));
    }
    spanChoice.setItems(FXCollections.observableArrayList(choices));
    spanChoice.setDisable(choices.isEmpty());
    if (!choices.isEmpty()) {
      spanChoice.setValue(choices.get(0));
    }
    updatingChoices = false;
  }

  private void render() {
    boolean revealed = model.revealedProperty().get();
    if (data == null) {
      summary.setText(NOTHING_SELECTED);
      findingChoice.getItems().clear();
      recipientPane.setTitle("Recipient response");
      recipientPane.setDetail("");
      recipientPane.show(List.of(), -1);
      sourcePane.setTitle("Source");
      sourcePane.setDetail("");
      sourcePane.show(List.of(), -1);
      facts.getItems().clear();
      factsNote.setText("");
      evidence.getItems().clear();
      return;
    }
    Finding f = data.finding();
    summary.setText(f.kind().id() + " \u00B7 " + f.confidence().id()
        + (f.requestId() == null ? " \u00B7 node " + f.node() : " \u00B7 " + f.requestId() + " \u00B7 recipient "
            + Tenants.nameOf(f.tenant()))
        + (f.sources().isEmpty() ? "" : " \u00B7 " + Formats.count(f.matchedTokens()) + " tokens from "
            + f.sources().size() + (f.sources().size() == 1 ? " source" : " sources"))
        + " \u00B7 " + Formats.second(f.time()));

    List<Span> spans = currentSpans();
    // The texts the current span is in: a logged copy where it names one, else the kept texts. The
    // other spans are marked where they lie on the same texts.
    Span at = spans.isEmpty() ? null : spans.get(spanIndex);
    String responseCopy = at == null ? null : at.responseCopy();
    String sourceCopy = at != null && sourceField.equals(at.sourceField()) ? at.sourceCopy() : null;
    List<Mark> responseMarks = new ArrayList<>();
    List<Mark> sourceMarks = new ArrayList<>();
    for (int i = 0; i < spans.size(); i++) {
      Span s = spans.get(i);
      if (!onItsTexts(s) || !java.util.Objects.equals(s.responseCopy(), responseCopy)) {
        continue;
      }
      responseMarks.add(new Mark(s.responseStart(), s.responseEnd(), i));
      if (sourceField.equals(s.sourceField()) && java.util.Objects.equals(s.sourceCopy(), sourceCopy)) {
        sourceMarks.add(new Mark(s.sourceStart(), s.sourceEnd(), i));
      }
    }
    int current = spans.isEmpty() ? -1 : spanIndex;

    String response = data.response(at);
    recipientPane.setTitle(responseCopy == null ? "Recipient response" : "Recipient response, logged copy");
    recipientPane.setDetail(detail(data.recipient(), f.requestId(), f.tenant(), response, responseCopy));
    recipientPane.show(TextPieces.render(response, responseMarks, revealed, TextPieces.Limits.DEFAULT, data.redaction()),
        current);

    boolean hasSource = !f.sources().isEmpty();
    StoredRequest src = hasSource ? data.sources().get(sourceIndex) : data.recipient();
    String text = hasSource ? data.held(sourceIndex, at, sourceField) : src == null ? null : src.text(sourceField);
    String fieldName = Schema.PROMPT_TEXT.equals(sourceField) ? "prompt" : "response";
    sourcePane.setTitle(hasSource ? "Source " + fieldName + (sourceCopy == null ? "" : ", logged copy")
        : "Own " + fieldName + " (no source)");
    sourcePane.setDetail(hasSource
        ? detail(src, f.sources().get(sourceIndex).requestId(), f.sources().get(sourceIndex).tenant(), text, sourceCopy)
        : detail(src, f.requestId(), f.tenant(), text, null));
    sourcePane.show(TextPieces.render(text, hasSource ? sourceMarks : List.of(), revealed, TextPieces.Limits.DEFAULT,
        data.redaction()), current);
    promptToggle.setSelected(Schema.PROMPT_TEXT.equals(sourceField));
    responseToggle.setSelected(Schema.RESPONSE_TEXT.equals(sourceField));
    promptToggle.setDisable(src == null);
    responseToggle.setDisable(src == null);

    if (f.requestId() == null) {
      // A config finding is about a node, not a request: its evidence says it all.
      facts.getItems().clear();
      factsNote.setText("About node " + f.node() + ": see the analyzer evidence and the Config audit tab.");
    } else {
      facts.getItems().setAll(RequestFacts.rows(f, data.recipient(), hasSource ? src : null, data.redaction()));
    }
    traceLink.setDisable(traceUrl() == null);
    facts.getColumns().get(2).setVisible(hasSource);
    evidence.getItems().setAll(ReportJson.fields(f.evidence()).entrySet().stream()
        .map(e -> new FactRow(e.getKey(), evidenceValue(e.getValue()), "", false)).toList());
  }

  /** The link to the trace of the shown finding's request, or null (no template, request or trace id). */
  String traceUrl() {
    if (data == null || data.recipient() == null) {
      return null;
    }
    return ctx.traceLinks().url(TraceLinks.traceIdOf(data.recipient().record().aliases()));
  }

  /**
   * Puts the trace link on the clipboard: the workbench starts JavaFX without an Application, so
   * it has no host services to open a browser with, and a copied link also goes into a ticket.
   */
  private void copyTraceLink() {
    String url = traceUrl();
    if (url == null) {
      return;
    }
    ClipboardContent content = new ClipboardContent();
    content.putString(url);
    Clipboard.getSystemClipboard().setContent(content);
    ctx.status().info("Copied the trace link: " + url);
  }

  /**
   * "birchfield-energy · chatcmpl-… · 1,945 chars · hmac 3e6321f4 · email", with "copy from
   * gateway a.jsonl:7" before the description when {@code copy} names the logged copy shown.
   */
  private String detail(StoredRequest request, String id, String tenant, String text, String copy) {
    if (id == null) {
      return "a config finding: no request";
    }
    String who = Tenants.nameOf(tenant) + " \u00B7 " + id;
    if (request == null) {
      return who + " \u00B7 not in the index";
    }
    return who + (copy == null ? "" : " \u00B7 copy from " + copy) + " \u00B7 " + data.describe(text);
  }

  private static String evidenceValue(Object value) {
    if (value instanceof Number n) {
      return n instanceof Double || n instanceof Float ? String.format(java.util.Locale.ROOT, "%,.2f", n.doubleValue())
          : Formats.count(n.longValue());
    }
    if (value instanceof List<?> list) {
      return list.stream().map(EvidenceView::evidenceValue).collect(Collectors.joining(", "));
    }
    if (value instanceof Map<?, ?> map) {
      return map.entrySet().stream().map(e -> e.getKey() + "=" + evidenceValue(e.getValue()))
          .collect(Collectors.joining(", "));
    }
    return String.valueOf(value);
  }

  private void buildTables() {
    facts.getColumns().add(factColumn("Fact", 150, FactRow::fact, false));
    facts.getColumns().add(factColumn("Recipient", 190, FactRow::recipient, true));
    facts.getColumns().add(factColumn("Source", 190, FactRow::source, false));
    facts.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
    factsNote.setWrapText(true);
    factsNote.setPadding(new Insets(8));
    facts.setPlaceholder(factsNote);
    evidence.getColumns().add(factColumn("Key", 220, FactRow::fact, false));
    evidence.getColumns().add(factColumn("Value", 310, FactRow::recipient, false));
    evidence.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
    evidence.setPlaceholder(new Label("No evidence values"));
  }

  /**
   * A column whose cells wrap instead of cutting long values (request ids, file paths, analyzer
   * reasons); with {@code flagsWarnings}, values that are red flags are marked.
   */
  private static TableColumn<FactRow, String> factColumn(String title, double width,
      java.util.function.Function<FactRow, String> value, boolean flagsWarnings) {
    TableColumn<FactRow, String> col = new TableColumn<>(title);
    col.setPrefWidth(width);
    col.setSortable(false);
    col.setCellValueFactory(c -> new ReadOnlyStringWrapper(value.apply(c.getValue())));
    col.setCellFactory(c -> new TableCell<>() {
      private final javafx.scene.text.Text text = new javafx.scene.text.Text();

      {
        text.getStyleClass().add("fact-text");
        text.wrappingWidthProperty().bind(col.widthProperty().subtract(12));
        setContentDisplay(javafx.scene.control.ContentDisplay.GRAPHIC_ONLY);
      }

      @Override
      protected void updateItem(String item, boolean empty) {
        super.updateItem(item, empty);
        FactRow row = Cells.rowValue(this, empty);
        boolean warning = flagsWarnings && row != null && row.warning();
        text.getStyleClass().remove("fact-warning");
        if (warning) {
          text.getStyleClass().add("fact-warning");
        }
        text.setText(empty || item == null ? null : item);
        setText(empty ? null : item);
        setGraphic(empty ? null : text);
      }
    });
    return col;
  }

  private void updateRevealButton() {
    boolean revealed = model.revealedProperty().get();
    reveal.setText(revealed ? "Hide content" : "Reveal content\u2026");
    reveal.getStyleClass().remove("revealed");
    if (revealed) {
      reveal.getStyleClass().add("revealed");
    }
  }

  /** Hiding needs no confirmation; revealing customers' text does. */
  private void toggleReveal() {
    if (model.revealedProperty().get()) {
      model.revealedProperty().set(false);
      return;
    }
    ButtonType confirm = new ButtonType("Reveal", ButtonData.OK_DONE);
    Alert alert = new Alert(Alert.AlertType.CONFIRMATION, "", confirm, ButtonType.CANCEL);
    alert.initOwner(getScene().getWindow());
    alert.setTitle("Reveal content");
    alert.setHeaderText("Show prompt and response text?");
    alert.setContentText("These texts are customers' data, including what leaked from other tenants. Reveal "
        + "them only as far as the investigation needs, on a screen nobody else can see. They stay visible "
        + "until you press Hide content.");
    alert.getDialogPane().setId("revealDialog");
    // Enter must not reveal by accident: Cancel is the default.
    ((Button) alert.getDialogPane().lookupButton(confirm)).setDefaultButton(false);
    ((Button) alert.getDialogPane().lookupButton(ButtonType.CANCEL)).setDefaultButton(true);
    alert.showAndWait().filter(b -> b == confirm).ifPresent(b -> model.revealedProperty().set(true));
  }

  MarkedTextPane recipientPane() {
    return recipientPane;
  }

  MarkedTextPane sourcePane() {
    return sourcePane;
  }
}
