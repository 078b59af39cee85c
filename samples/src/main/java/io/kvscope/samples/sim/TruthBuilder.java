package io.kvscope.samples.sim;

import io.kvscope.samples.fleet.EngineConfig;
import io.kvscope.samples.fleet.Epoch;
import io.kvscope.samples.fleet.Fleet;
import io.kvscope.samples.fleet.NodeTimeline;
import io.kvscope.samples.truth.ConfigEpochTruth;
import io.kvscope.samples.truth.DecoyTruth;
import io.kvscope.samples.truth.DuplicateTruth;
import io.kvscope.samples.truth.FileTruth;
import io.kvscope.samples.truth.GapTruth;
import io.kvscope.samples.truth.GeneratorInfo;
import io.kvscope.samples.truth.GroundTruth;
import io.kvscope.samples.truth.HolderTruth;
import io.kvscope.samples.truth.LeakTruth;
import io.kvscope.samples.truth.NodeTruth;
import io.kvscope.samples.truth.OverLengthTruth;
import io.kvscope.samples.truth.RejectionTruth;
import io.kvscope.samples.truth.SourceTruth;
import io.kvscope.samples.truth.SummaryTruth;
import io.kvscope.samples.truth.UnderrunTruth;
import io.kvscope.samples.truth.WindowTruth;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** Turns a finished simulation into {@link GroundTruth}. */
public final class TruthBuilder {

  private TruthBuilder() {}

  public static GroundTruth build(Simulator.Result result, Fleet fleet, GeneratorInfo generator,
      List<FileTruth> files, List<DuplicateTruth> duplicates, Map<String, Long> droppedLines) {
    List<NodeTruth> nodes = new ArrayList<>();
    List<ConfigEpochTruth> epochs = new ArrayList<>();
    for (NodeTimeline tl : fleet.timelines()) {
      String file = null;
      for (FileTruth f : files) {
        if (f.path().startsWith("engine/" + tl.node().name() + ".log")) {
          file = f.path();
        }
      }
      nodes.add(new NodeTruth(tl.node().name(), tl.node().deployment(), tl.node().role().name().toLowerCase(Locale.ROOT),
          tl.node().clockSkewMs(), file));
      for (Epoch e : tl.epochs()) {
        EngineConfig c = e.config();
        boolean vulnerable = tl.node().role() == io.kvscope.ingest.record.NodeRole.PREFILL && Fleet.vulnerable(c);
        epochs.add(new ConfigEpochTruth(tl.node().name(), at(e.start()), e.cause(), c.version(), c.contextLength(),
            c.poolTokens(), c.pageSize(), c.kvCanary(), c.kvChecksum(), vulnerable));
      }
    }
    List<WindowTruth> windows = new ArrayList<>();
    for (Fleet.Window w : fleet.vulnerableWindows()) {
      windows.add(new WindowTruth("vulnerable", w.node(), w.deployment(), at(w.start()), at(w.end()), w.reason(),
          w.closedBy()));
    }
    List<LeakTruth> leaked = new ArrayList<>();
    List<LeakTruth> sameTenant = new ArrayList<>();
    List<OverLengthTruth> overLength = new ArrayList<>();
    List<UnderrunTruth> underruns = new ArrayList<>();
    TreeSet<String> victims = new TreeSet<>();
    TreeSet<String> recipients = new TreeSet<>();
    TreeSet<String> sourceIds = new TreeSet<>();
    Instant first = null;
    Instant last = null;
    for (StubLeak leak : result.stubs()) {
      RequestPlan p = leak.recipient();
      List<SourceTruth> cross = new ArrayList<>();
      List<SourceTruth> own = new ArrayList<>();
      for (Fragment f : leak.fragments()) {
        SourceTruth s = source(f);
        if (f.source().tenant == p.tenant) {
          own.add(s);
        } else {
          cross.add(s);
          victims.add(s.tenant());
          sourceIds.add(s.requestId());
        }
      }
      LeakTruth lt = new LeakTruth(p.requestId(), p.rid, p.tenant.id, p.deployment.name(), p.prefillNode.name(),
          p.decodeNode.name(), at(p.arrival), at(p.gatewayEnd), p.promptTokens, p.reportedPromptTokens,
          leak.reservedPages(), leak.stalePages(), leak.staleOwners(), cross, own);
      String kind = "none";
      if (!cross.isEmpty()) {
        leaked.add(lt);
        recipients.add(p.tenant.id);
        kind = "cross_tenant";
        Instant t = at(p.arrival);
        first = first == null || t.isBefore(first) ? t : first;
        last = last == null || t.isAfter(last) ? t : last;
      } else if (!own.isEmpty()) {
        sameTenant.add(lt);
        kind = "same_tenant";
      }
      EngineConfig pc = p.prefillConfig;
      overLength.add(new OverLengthTruth(p.requestId(), p.rid, p.tenant.id, p.deployment.name(), p.prefillNode.name(),
          p.decodeNode.name(), at(p.arrival), p.promptTokens, p.promptChars, p.reportedPromptTokens,
          Math.min(pc.contextLength(), pc.poolTokens()), p.statusCode, kind));
      underruns.add(new UnderrunTruth(p.requestId(), p.rid, p.prefillNode.name(), p.decodeNode.name(), at(p.arrival),
          p.promptTokens, 1, leak.reservedPages(), 1));
    }
    List<RejectionTruth> rejected = new ArrayList<>();
    for (RequestPlan p : result.rejected()) {
      boolean otlp = p.tenant.channel == Channel.OTLP;
      String id = otlp ? p.traceId + ":" + p.spanId : p.callId;
      boolean context = p.outcome == Outcome.REJECTED_CONTEXT;
      long limit = context
          ? (p.promptTokens >= p.prefillConfig.contextLength() ? p.prefillConfig.contextLength()
              : p.decodeConfig.contextLength())
          : p.prefillConfig.maxInputLen();
      rejected.add(new RejectionTruth(id, p.rid, p.tenant.id, otlp ? "otlp" : "litellm", at(p.arrival),
          p.promptTokens, p.statusCode, context ? "context_length" : "max_input_length", limit,
          p.promptTokens > p.prefillConfig.poolTokens(), p.prefillNode.name()));
    }
    List<GapTruth> gaps = new ArrayList<>();
    for (Fleet.Gap g : fleet.gaps()) {
      gaps.add(new GapTruth(g.node(), at(g.start()), at(g.end()), "engine_log_missing",
          droppedLines.getOrDefault(g.node(), 0L)));
    }
    SummaryTruth summary = new SummaryTruth(leaked.size(), sourceIds.size(), victims.size(), recipients.size(),
        overLength.size(), underruns.size(), first, last);
    return new GroundTruth(GroundTruth.VERSION, generator, at(Fleet.PERIOD_START), at(Fleet.PERIOD_END), nodes,
        epochs, windows, leaked, sameTenant, overLength, underruns, rejected, gaps, duplicates,
        List.copyOf(victims), List.copyOf(recipients), summary, files,
        result.decoys().stream().map(TruthBuilder::decoy).toList());
  }

  private static SourceTruth source(Fragment f) {
    RequestPlan s = f.source();
    List<HolderTruth> holders = f.holders().stream()
        .map(h -> new HolderTruth(h.requestId(), h.tenant.id, at(h.arrival))).toList();
    return new SourceTruth(s.requestId(), s.rid, s.tenant.id, at(s.arrival), f.part(),
        f.identifier() ? "identifier" : "span", f.category() == null ? null : f.category().jsonName(),
        f.matchedTokens(), f.words(), f.responseStart(), f.responseEnd(), f.sourceMessageIndex(), f.sourceStart(),
        f.sourceEnd(), holders, f.notExpected());
  }

  private static DecoyTruth decoy(Decoy d) {
    RequestPlan p = d.request();
    return new DecoyTruth(p.requestId(), p.tenant.id, at(p.arrival), d.kind(), d.responseStart(), d.responseEnd(),
        d.words(), d.holders().stream().map(h -> new HolderTruth(h.requestId(), h.tenant.id, at(h.arrival))).toList(),
        d.tenants());
  }

  private static Instant at(long ms) {
    return Instant.ofEpochMilli(ms);
  }
}
