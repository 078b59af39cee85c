#!/usr/bin/env python3
"""Where a core waits in a kvscope Spark job: a timeline from Spark's event log.

    KVSCOPE_SPARK_JAVA_OPTS='-Dspark.eventLog.enabled=true -Dspark.eventLog.dir=file:///tmp/ev' \\
        bench/spark-stamp.sh scope.log ./kvscope scope INCIDENT --out OUT --master 'local[2]'
    bench/spark-timeline.py /tmp/ev/eventlog_v2_local-... [--cores 2] [--command scope.log]

EVENTLOG is a log file or a folder of rolled ones (Spark 4 writes a folder, zstd-compressed; the
zstd command decompresses them).

Reads the event log's task starts and ends, the jobs' kvscope stage (the local property
kvscope.stage that StageMetrics.begin sets, which Spark copies into every job's properties) and the
application's start and end. For each kvscope stage, in the order its first job was submitted, it
prints:
  wall       from its first job's submission to the next stage's first job (the last stage: to its
             last task's end), so the driver's work before a stage's first job counts under the
             stage before it, where that work is done (the job's Clock laps put it alike)
  tasks      the tasks' run time summed (launch to finish, as the scheduler saw them)
  busy       tasks / (cores x wall): how full the cores were
  idle       core-seconds the stage's own tasks left: (cores x wall) - tasks; with no stage beside
             it, split into
    none     the wall with no task at all (driver only: planning, collecting, the driver's own work)
    partial  the wall with some cores busy and others not (the tail of a stage: its last tasks)
  largest / median task of the Spark stage with the longest task
A stage run beside the main line (its jobs in the fair scheduler's pool "beside", BesideStages) has
no wall of its own: its row gives its tasks' span, first launch to last end, and its tasks' run
time; the "no task running" and "partly idle" figures count every task, those beside included
(they filled those cores), the "idle" figure only the stage's own.
With --command LOG (lines "EPOCH_MS<TAB>text", bench/spark-stamp.sh's), it also prints the command's
phases around the job: from the command's start to the application's start (the launcher, the
job's JVM and Spark session start), and from the application's end to the command's end (the
session's stop, the JVM's exit, the analysis on the driver).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict


def read_events(path):
    """The events of a log file, or of a folder of rolled files (Spark 4's default), zstd or plain."""
    files = [path]
    if os.path.isdir(path):
        files = sorted((os.path.join(path, f) for f in os.listdir(path) if f.startswith("events_")),
                       key=lambda f: int(os.path.basename(f).split("_")[1]))
    for file in files:
        if file.endswith(".zstd") or file.endswith(".zst"):
            text = subprocess.run(["zstd", "-dc", file], check=True, capture_output=True).stdout.decode("utf-8")
        else:
            with open(file, encoding="utf-8") as f:
                text = f.read()
        for line in text.splitlines():
            line = line.strip()
            if line:
                yield json.loads(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("eventlog")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--command", help="the command's stamped output (bench/spark-stamp.sh)")
    args = parser.parse_args()

    app_start = app_end = None
    job_stage = {}          # job id -> kvscope stage
    job_submit = {}         # job id -> ms
    spark_stage_kv = {}     # spark stage id -> kvscope stage
    tasks = []              # (launch ms, finish ms, spark stage id)
    beside = set()          # kvscope stages run beside the main line (BesideStages' pool)
    for event in read_events(args.eventlog):
        kind = event.get("Event")
        if kind == "SparkListenerApplicationStart":
            app_start = event["Timestamp"]
        elif kind == "SparkListenerApplicationEnd":
            app_end = event["Timestamp"]
        elif kind == "SparkListenerJobStart":
            properties = event.get("Properties") or {}
            name = properties.get("kvscope.stage", "other")
            if properties.get("spark.scheduler.pool") == "beside":
                beside.add(name)
            job_stage[event["Job ID"]] = name
            job_submit[event["Job ID"]] = event["Submission Time"]
            for stage_id in event.get("Stage IDs", []):
                spark_stage_kv.setdefault(stage_id, name)
        elif kind == "SparkListenerStageSubmitted":
            name = (event.get("Properties") or {}).get("kvscope.stage")
            if name:
                spark_stage_kv[event["Stage Info"]["Stage ID"]] = name
        elif kind == "SparkListenerTaskEnd":
            info = event["Task Info"]
            tasks.append((info["Launch Time"], info["Finish Time"], event["Stage ID"]))
    if not tasks:
        sys.exit("spark-timeline: no tasks in " + args.eventlog)

    # Each kvscope stage starts at its first job's submission.
    starts = {}
    for job, name in sorted(job_submit.items(), key=lambda kv: kv[1]):
        if job_stage[job] not in beside:
            starts.setdefault(job_stage[job], job_submit[job])
    order = sorted(starts, key=starts.get)
    last_finish = max(t[1] for t in tasks)
    bounds = {}
    for i, name in enumerate(order):
        end = starts[order[i + 1]] if i + 1 < len(order) else last_finish
        bounds[name] = (starts[name], end)

    # The running-task count over time, as steps.
    steps = defaultdict(int)
    for launch, finish, _ in tasks:
        steps[launch] += 1
        steps[finish] -= 1
    times = sorted(steps)

    def idle_in(lo, hi):
        """(ms with no task, core-ms idle while some task ran) within [lo, hi)."""
        none = partial = 0
        running = 0
        prev = lo
        for t in times:
            if t > lo:
                a, b = max(prev, lo), min(t, hi)
                if b > a:
                    if running == 0:
                        none += b - a
                    elif running < args.cores:
                        partial += (args.cores - running) * (b - a)
                prev = t
            running += steps[t]
            if t >= hi:
                break
        if hi > max(prev, lo):
            a = max(prev, lo)
            if running == 0:
                none += hi - a
            elif running < args.cores:
                partial += (args.cores - running) * (hi - a)
        return none, partial

    per_stage_tasks = defaultdict(list)
    for launch, finish, stage_id in tasks:
        per_stage_tasks[stage_id].append(finish - launch)

    print(f"| stage | wall s | tasks s | busy | idle core-s | no task running s | partly idle core-s | largest / median task s |")
    print("|---|---|---|---|---|---|---|---|")
    total = defaultdict(float)
    for name in order:
        lo, hi = bounds[name]
        wall = (hi - lo) / 1000
        own = [t for t in tasks if spark_stage_kv.get(t[2], "other") == name]
        task_s = sum(f - l for l, f, _ in own) / 1000
        none, partial = idle_in(lo, hi)
        idle = args.cores * wall - task_s
        skew = ""
        stage_ids = {t[2] for t in own}
        if stage_ids:
            longest = max(stage_ids, key=lambda s: max(per_stage_tasks[s]))
            runs = per_stage_tasks[longest]
            skew = f"{max(runs) / 1000:.1f} / {statistics.median(runs) / 1000:.1f} ({len(runs)} tasks)"
        busy = task_s / (args.cores * wall) if wall > 0 else 0
        print(f"| {name} | {wall:.1f} | {task_s:.1f} | {busy:.0%} | {idle:.1f} | {none / 1000:.1f} | {partial / 1000:.1f} | {skew} |")
        total["wall"] += wall
        total["tasks"] += task_s
        total["idle"] += idle
        total["none"] += none / 1000
        total["partial"] += partial / 1000
    for name in sorted(beside, key=lambda n: min(t[0] for t in tasks if spark_stage_kv.get(t[2]) == n)):
        own = [t for t in tasks if spark_stage_kv.get(t[2], "other") == name]
        task_s = sum(f - l for l, f, _ in own) / 1000
        span = (max(f for _, f, _ in own) - min(l for l, _, _ in own)) / 1000
        print(f"| {name} (beside: its tasks' span) | {span:.1f} | {task_s:.1f} | | | | | |")
        total["tasks"] += task_s
    busy = total["tasks"] / (args.cores * total["wall"])
    print(f"| **stages** | {total['wall']:.1f} | {total['tasks']:.1f} | {busy:.0%} | {total['idle']:.1f} | "
          f"{total['none']:.1f} | {total['partial']:.1f} | |")
    first = starts[order[0]]
    print(f"\napplication start -> first stage's first job: {(first - app_start) / 1000:.1f} s (the session, then"
          " the driver's listing of the inputs)" if app_start else "")
    if app_end:
        print(f"last task's end -> application end: {(app_end - last_finish) / 1000:.1f} s (the index, the pairs"
              " file's driver part, the metrics, the session's stop)")

    if args.command:
        stamps = []
        with open(args.command, encoding="utf-8", errors="replace") as f:
            for line in f:
                ms, _, text = line.rstrip("\n").partition("\t")
                if ms.isdigit():
                    stamps.append((int(ms), text))
        if stamps and app_start and app_end:
            begin, end = stamps[0][0], stamps[-1][0]
            print(f"\ncommand: {(end - begin) / 1000:.1f} s wall in all")
            print(f"- command start -> Spark application start: {(app_start - begin) / 1000:.1f} s")
            print(f"- Spark application: {(app_end - app_start) / 1000:.1f} s")
            print(f"- application end -> command end (JVM exit, the driver's analysis, the reports):"
                  f" {(end - app_end) / 1000:.1f} s")


if __name__ == "__main__":
    main()
