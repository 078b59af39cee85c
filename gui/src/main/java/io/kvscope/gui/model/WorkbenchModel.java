package io.kvscope.gui.model;

import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Tenants;
import io.kvscope.analysis.impact.HourCount;
import io.kvscope.analysis.impact.ImpactModel;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.report.FindingOrder;
import io.kvscope.gui.data.IndexData;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;

/**
 * The state all views share, touched only on the FX thread. Setting the {@link #filterProperty()}
 * re-filters {@link #visibleFindings()} (and their rows, {@link #visibleGroups()}) and recounts
 * {@link #impactProperty()} and {@link #hoursProperty()}; views follow those. Nothing is counted
 * here: the whole report's figures are the report's own, a selection's come from the analysis'
 * {@link ImpactModel} applied to the selected findings.
 */
public final class WorkbenchModel {

  private final ReadOnlyObjectWrapper<Report> report = new ReadOnlyObjectWrapper<>(this, "report");
  private final ObservableList<Finding> findings = FXCollections.observableArrayList();
  private final FilteredList<Finding> visible = new FilteredList<>(findings, f -> true);
  private final ObjectProperty<FindingFilter> filter = new SimpleObjectProperty<>(this, "filter", FindingFilter.NONE);
  private final ObjectProperty<Finding> selected = new SimpleObjectProperty<>(this, "selected");
  private final BooleanProperty revealed = new SimpleBooleanProperty(this, "revealed", false);
  private final ObjectProperty<IndexData> index = new SimpleObjectProperty<>(this, "index");
  private final ReadOnlyObjectWrapper<Impact> impact =
      new ReadOnlyObjectWrapper<>(this, "impact", new Impact(List.of(), List.of()));
  private final ReadOnlyObjectWrapper<List<HourCount>> hours = new ReadOnlyObjectWrapper<>(this, "hours", List.of());
  private final ObservableList<FindingGroup> groups = FXCollections.observableArrayList();
  // One read-only view each: listeners added to a view live as long as the view does.
  private final ObservableList<Finding> allFindingsView = FXCollections.unmodifiableObservableList(findings);
  private final ObservableList<FindingGroup> groupsView = FXCollections.unmodifiableObservableList(groups);
  private Map<String, ImpactModel.Response> leaks = Map.of();
  private Map<String, FindingGroup> groupByKey = Map.of();
  private List<FindingGroup> allGroups = List.of();

  /** Rows in reading order: leaked responses first, then the rest, each most severe first (as reports list findings). */
  static final Comparator<FindingGroup> LEAKS_FIRST = Comparator.comparing((FindingGroup g) -> g.leak() == null)
      .thenComparing(FindingGroup::lead, FindingOrder.MOST_SEVERE_FIRST);

  public WorkbenchModel() {
    filter.addListener((obs, old, now) -> refilter());
  }

  /** Replaces the report; the filter and selection are reset since they referred to the old one. */
  public void setReport(Report value) {
    selected.set(null);
    filter.set(FindingFilter.NONE);
    // Findings first: listeners of the report read them.
    findings.setAll(value == null ? List.of() : value.findings());
    leaks = ImpactModel.leakedResponses(findings);
    allGroups = FindingGroup.of(findings, leaks);
    groupByKey = new HashMap<>();
    allGroups.forEach(g -> groupByKey.put(g.key(), g));
    report.set(value);
    refilter();
  }

  private void refilter() {
    FindingFilter current = filter.get();
    visible.setPredicate(current);
    groups.setAll(FindingGroup.of(visible, leaks).stream().sorted(LEAKS_FIRST).toList());
    Report r = report.get();
    if (r == null) {
      impact.set(new Impact(List.of(), List.of()));
      hours.set(List.of());
      return;
    }
    impact.set(current.isNeutral() ? Impact.of(r) : Impact.of(ImpactModel.tally(List.copyOf(visible))));
    FindingFilter unranged = current.withoutRange();
    if (unranged.isNeutral() && !r.timeline().isEmpty()) {
      hours.set(r.timeline());
    } else {
      hours.set(ImpactModel.timeline(List.copyOf(findings.filtered(unranged))));
    }
    if (selected.get() != null && !current.test(selected.get())) {
      selected.set(null);
    }
  }

  public void updateFilter(UnaryOperator<FindingFilter> change) {
    filter.set(change.apply(filter.get()));
  }

  /** Every tenant named by a request finding, as recipient or as source ({@link Tenants#UNKNOWN} for unresolved ones). */
  public SortedSet<String> tenants() {
    SortedSet<String> names = new TreeSet<>();
    for (Finding f : findings) {
      if (f.requestId() != null) {
        names.add(Tenants.nameOf(f.tenant()));
      }
      for (Source s : f.sources()) {
        names.add(Tenants.nameOf(s.tenant()));
      }
    }
    return names;
  }

  /** Every row of the report, whatever the filter. */
  public List<FindingGroup> allGroups() {
    return allGroups;
  }

  /** The row (every finding of its request or node epoch, whatever the filter) {@code finding} belongs to. */
  public FindingGroup groupOf(Finding finding) {
    return finding == null ? null : groupByKey.get(FindingGroup.keyOf(finding));
  }

  /** Every node named by a finding. */
  public SortedSet<String> nodes() {
    SortedSet<String> names = new TreeSet<>();
    for (Finding f : findings) {
      if (f.node() != null) {
        names.add(f.node());
      }
      if (f.decodeNode() != null) {
        names.add(f.decodeNode());
      }
    }
    return names;
  }

  public ReadOnlyObjectProperty<Report> reportProperty() {
    return report.getReadOnlyProperty();
  }

  public Report report() {
    return report.get();
  }

  public ObservableList<Finding> allFindings() {
    return allFindingsView;
  }

  public ObservableList<Finding> visibleFindings() {
    return visible;
  }

  /** The visible findings as table rows, one per request or node epoch, leaked responses first. */
  public ObservableList<FindingGroup> visibleGroups() {
    return groupsView;
  }

  public ObjectProperty<FindingFilter> filterProperty() {
    return filter;
  }

  public FindingFilter filter() {
    return filter.get();
  }

  public ObjectProperty<Finding> selectedProperty() {
    return selected;
  }

  /** The open index, or null while it is being opened (or failed to open). */
  public ObjectProperty<IndexData> indexProperty() {
    return index;
  }

  public IndexData index() {
    return index.get();
  }

  public BooleanProperty revealedProperty() {
    return revealed;
  }

  public ReadOnlyObjectProperty<Impact> impactProperty() {
    return impact.getReadOnlyProperty();
  }

  public ReadOnlyObjectProperty<List<HourCount>> hoursProperty() {
    return hours.getReadOnlyProperty();
  }
}
