#!/usr/bin/env python3
"""What the C2 compiler spent its time on in one kvscope run, from a JFR recording.

    bench/jit-compiles.py RECORDING.jfr [C2_CPU_SECONDS] [--top N]

Record with every compilation and deoptimization kept (the JDK's own settings drop compilations
under 1 s), e.g. a settings file holding only

    <event name="jdk.Compilation"><setting name="enabled">true</setting><setting name="threshold">0 ms</setting></event>
    <event name="jdk.Deoptimization"><setting name="enabled">true</setting></event>

passed as -XX:StartFlightRecording=filename=R.jfr,settings=FILE.jfc. A compilation's JFR duration is
wall time on the compiler thread, which a loaded machine stretches; the tables give shares of it, and
with C2_CPU_SECONDS (the "C2 CompilerThre" line of bench/thread-cpu.sh) also each share of that CPU.

Prints: C2 time by the package of the compiled (outermost) method; the top N methods, each
summed over its compilations; the compilations thrown away (a method compiled again later, the
earlier code made not entrant), by the reason of the trap that ended them; and the OSR share.
Needs the JDK's `jfr` tool: $JAVA_HOME/bin/jfr, else the one on the PATH.
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys

# Longest prefix first; the first match names the package group.
GROUPS = [
    ("io.kvscope.ingest", "kvscope ingest"), ("io.kvscope.index", "kvscope index"),
    ("io.kvscope.analysis", "kvscope analysis"), ("io.kvscope.model", "kvscope model"),
    ("io.kvscope.cli", "kvscope cli"), ("io.kvscope", "kvscope, other"),
    ("org.apache.lucene", "Lucene"), ("com.fasterxml.jackson", "Jackson"), ("picocli", "picocli"),
    ("org.apache.arrow", "Arrow"), ("io.netty", "Arrow (netty)"), ("com.google.flatbuffers", "Arrow (flatbuffers)"),
    ("java.util.regex", "JDK regex"), ("java.util.stream", "JDK streams"), ("java.util.concurrent", "JDK concurrent"),
    ("java.util.zip", "JDK zip"), ("java.util", "JDK collections, util"), ("java.lang.invoke", "JDK invoke, lambdas"),
    ("java.lang", "JDK lang"), ("jdk.internal.util", "JDK lang"), ("jdk.internal.misc", "JDK lang"),
    ("java.nio", "JDK io, nio"), ("java.io", "JDK io, nio"), ("sun.nio", "JDK io, nio"), ("java.time", "JDK time"),
    ("java.security", "JDK crypto"), ("javax.crypto", "JDK crypto"), ("com.sun.crypto", "JDK crypto"),
    ("sun.security", "JDK crypto"), ("java.math", "JDK math"), ("jdk.jfr", "JFR"),
    ("jdk.internal", "JDK, other"), ("sun.", "JDK, other"),
]


def group(cls):
    return next((name for prefix, name in GROUPS if cls.startswith(prefix)), "other")


def seconds(duration):  # ISO-8601 as jfr prints it: PT0.0123S, PT1M2.5S
    m = re.fullmatch(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?", duration)
    return int(m.group(1) or 0) * 3600 + int(m.group(2) or 0) * 60 + float(m.group(3) or 0)


def events(jfr, recording, name):
    out = subprocess.run([jfr, "print", "--json", "--events", name, recording],
                         capture_output=True, text=True, check=True).stdout
    return [e["values"] for e in json.loads(out)["recording"]["events"]]


def method_name(method):
    # Lambda classes carry an address that differs between runs.
    cls = re.sub(r"\$\$Lambda[./]0x[0-9a-f]+", "$$Lambda", method["type"]["name"].replace("/", "."))
    return cls, cls + "::" + method["name"]


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    top = int(argv[argv.index("--top") + 1]) if "--top" in argv else 30
    if "--top" in argv:
        args.remove(str(top))
    if not args:
        sys.exit(__doc__)
    recording = args[0]
    cpu = float(args[1]) if len(args) > 1 else None
    home = os.environ.get("JAVA_HOME")
    jfr = os.path.join(home, "bin", "jfr") if home and os.path.exists(os.path.join(home, "bin", "jfr")) else shutil.which("jfr")
    if not jfr:
        sys.exit("jit-compiles: no jfr tool (set JAVA_HOME to a JDK)")

    c2 = [v for v in events(jfr, recording, "jdk.Compilation") if v["compiler"] == "c2"]
    total = sum(seconds(v["duration"]) for v in c2) or 1.0

    def share(t):  # a share of the C2 time, and of its CPU when given
        return f"{100 * t / total:.1f}%" + (f" | {cpu * t / total:.2f}" if cpu else "")

    unit = " | est. CPU s" if cpu else ""

    def header(*columns):  # a share column is two columns when the CPU is known
        cells = [c + (unit if c.startswith(("share", "of it")) else "") for c in columns]
        count = sum(c.count("|") + 1 for c in cells)
        return "| " + " | ".join(cells) + " |\n" + "|---" * count + "|"

    print(f"C2 compilations: {len(c2)}, {total:.1f} s on the compiler thread(s)" + (f", {cpu} CPU s" if cpu else ""))

    # A compilation is thrown away when the same method (same OSR kind) is compiled again later.
    by_method = collections.defaultdict(list)
    for v in c2:
        by_method[(method_name(v["method"])[1] + v["method"]["descriptor"], v["isOsr"])].append(v)
    thrown = {v["compileId"] for vs in by_method.values() for v in vs[:-1]}

    groups = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for v in c2:
        g = groups[group(method_name(v["method"])[0])]
        g[0] += 1
        g[1] += seconds(v["duration"])
        g[2] += seconds(v["duration"]) if v["compileId"] in thrown else 0
    print("\n" + header("package", "compilations", "share of C2", "of it thrown away"))
    for name, (n, t, w) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
        print(f"| {name} | {n} | {share(t)} | {share(w)} |")

    methods = collections.defaultdict(lambda: dict(t=0.0, n=0, osr=0, code=0, inlined=0))
    for v in c2:
        m = methods[method_name(v["method"])[1]]
        m["t"] += seconds(v["duration"])
        m["n"] += 1
        m["osr"] += v["isOsr"]
        m["code"] = max(m["code"], v["codeSize"])
        m["inlined"] = max(m["inlined"], v["inlinedBytes"])
    print("\n" + header("method (outermost of the compilation)", "compilations (OSR)", "share of C2",
                        "largest code, bytes", "most bytecode inlined, bytes"))
    for name, m in sorted(methods.items(), key=lambda kv: -kv[1]["t"])[:top]:
        print(f"| `{name}` | {m['n']} ({m['osr']}) | {share(m['t'])} | {m['code']} | {m['inlined']} |")

    # The first trap recorded against a compilation is what ended it (others may follow).
    trap = {}
    deopts = events(jfr, recording, "jdk.Deoptimization")
    for v in deopts:
        trap.setdefault(v["compileId"], (v["reason"], method_name(v["method"])[1]))
    reasons = collections.defaultdict(lambda: [0, 0.0])
    for v in c2:
        if v["compileId"] in thrown:
            r = reasons[trap.get(v["compileId"], ("no trap: replaced or a class loaded", ""))[0]]
            r[0] += 1
            r[1] += seconds(v["duration"])
    print(f"\nThrown away: {len(thrown)} compilations, {share(sum(r[1] for r in reasons.values()))}; deoptimizations: {len(deopts)}")
    print(header("why the code was thrown away", "compilations", "share of C2"))
    for reason, (n, t) in sorted(reasons.items(), key=lambda kv: -kv[1][1]):
        print(f"| {reason} | {n} | {share(t)} |")
    print(header("compilation thrown away", "OSR", "share of C2", "the trap: reason, in"))
    for v in sorted((v for v in c2 if v["compileId"] in thrown), key=lambda v: -seconds(v["duration"]))[:top]:
        reason, where = trap.get(v["compileId"], ("no trap", ""))
        print(f"| `{method_name(v['method'])[1]}` | {'yes' if v['isOsr'] else ''} | {share(seconds(v['duration']))} | {reason}, `{where}` |")

    osr = [v for v in c2 if v["isOsr"]]
    print(f"\nOSR: {len(osr)} compilations, {share(sum(seconds(v['duration']) for v in osr))}")


if __name__ == "__main__":
    main(sys.argv[1:])
