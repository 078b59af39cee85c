#!/usr/bin/env python3
"""Folds a JFR recording of kvscope's analysis into its phases: the CPU samples of each thread,
the main thread's by the phase of the analysis its stack was in.

    bench/jfr-phases.py RECORDING.jfr [JDK_HOME]     e.g. after bench/scope-pairs.sh with SCOPE_PAIRS_JFR=1

Reads `jfr print --events jdk.ExecutionSample --stack-depth 256` (the JDK's own `jfr` tool) and
prints, per phase, the samples and their share of the main thread's, then the samples per thread
name (numbers taken out). A sample belongs to the first phase below whose frame is anywhere on
its stack, so the verification the focused pass sets off counts as verification, not as the
focused pass. JFR samples threads that are running Java code, every 10 ms under
`settings=profile`; the JIT compilers and the GC are not sampled (bench/thread-cpu.sh has them).
"""
import re
import subprocess
import sys
from collections import Counter

# (phase, frames that put a sample in it): checked in this order, the first match wins; "A & B"
# matches a stack holding both.
PHASES = [
    # Loaded once, by whichever analyzer asks first (AnalysisContext's lazy getters).
    ("request columns loaded", ["analysis.RequestColumns.load("]),
    ("mechanisms, reach and epochs built", ["analysis.AnalysisContext.mechanisms(", "analysis.AnalysisContext.reach(",
                                            "analysis.AnalysisContext.epochs("]),
    ("passage facts (holders looked up, the rules' facts)", ["PassageGatherer.facts(", "PassageGatherer.holder("]),
    ("findings built", ["OverlapFindings.", "ReplyCopyFindings."]),
    ("span verification: the own prompt read and verified, once a passage is found",
     ["analyzers.OverlapRecipients.judge("]),
    ("span verification: the runs found (SpanVerifier) in the sources' texts",
     ["analyzers.OverlapRecipients.collect( & SpanVerifier."]),
    ("span verification: the sources' texts read and tokenized", ["analyzers.OverlapRecipients.collect("]),
    ("span verification: the recipient's text read and tokenized", ["analyzers.OverlapRecipients.accept("]),
    ("focused pass, step 2: window lookups", ["CrossTenantOverlap.latestHolders("]),
    ("focused pass, step 1: its responses fingerprinted, their postings walked", ["CrossTenantOverlap.focusedPass("]),
    ("general join: the pairs file read", ["analyzers.PairsFile"]),
    ("general join: the index's Lucene join", ["fingerprint.FingerprintJoin", "analyzers.IndexJoin"]),
    ("cross-tenant overlap: the rest (cut-off, stock phrases, set-up)", ["CrossTenantOverlap.analyze("]),
]

# Checked after a sample's analyzer (below): these hold no analyzer's frame.
OUTSIDE_ANALYZERS = [
    ("the report's model (impact, windows, coverage)", ["analysis.impact.", "analysis.CoverageScan",
                                                        "analysis.Analysis.evidence("]),
    ("the exposure summary printed", ["io.kvscope.cli.SummaryPrinter."]),
    ("the report files written", ["io.kvscope.cli.ReportOutput.", "analysis.report."]),
    ("the index opened", ["io.kvscope.index.IndexSearch.open("]),
    ("the harness compiled (java's source launcher)", ["com.sun.tools.javac.", "jdk.internal.jshell", "javax.tools."]),
]

# A sample in another analyzer is named by it: its class's analyze frame.
ANALYZER = re.compile(r"io\.kvscope\.analysis\.analyzers\.([A-Za-z]+)\.analyze\(")


def matches(text, frames):
    return any(all(part in text for part in f.split(" & ")) for f in frames)


def phase(stack):
    text = "\n".join(stack)
    for name, frames in PHASES:
        if matches(text, frames):
            return name
    analyzer = ANALYZER.search(text)
    if analyzer:
        return "analyzer " + analyzer.group(1)
    for name, frames in OUTSIDE_ANALYZERS:
        if matches(text, frames):
            return name
    return "elsewhere (JVM start, class loading, the harness)"


def samples(recording, jdk):
    jfr = f"{jdk}/bin/jfr" if jdk else "jfr"
    out = subprocess.run([jfr, "print", "--events", "jdk.ExecutionSample", "--stack-depth", "256", recording],
                         check=True, capture_output=True, text=True).stdout
    for event in out.split("jdk.ExecutionSample {")[1:]:
        thread = re.search(r'sampledThread = "([^"]*)"', event)
        stack = re.search(r"stackTrace = \[\n(.*?)\n\s*\]", event, re.S)
        yield (thread.group(1) if thread else "?"), (stack.group(1).splitlines() if stack else [])


def main():
    recording = sys.argv[1]
    jdk = sys.argv[2] if len(sys.argv) > 2 else None
    threads = Counter()
    phases = Counter()
    for thread, stack in samples(recording, jdk):
        threads[re.sub(r"[0-9#-]+$", "", thread)] += 1
        if thread == "main":
            phases[phase(stack)] += 1
    main_total = sum(phases.values())
    print(f"main thread: {main_total} samples")
    print("| phase | samples | share of the main thread's |")
    print("|---|---|---|")
    for name, count in phases.most_common():
        print(f"| {name} | {count} | {100.0 * count / max(main_total, 1):.1f} % |")
    print()
    print("samples per thread: " + ", ".join(f"{name} {count}" for name, count in threads.most_common()))


if __name__ == "__main__":
    main()
