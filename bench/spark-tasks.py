#!/usr/bin/env python3
"""The tasks of a kvscope Spark job, Spark stage by Spark stage, from its event log.

    bench/spark-tasks.py EVENTLOG [KVSCOPE_STAGE ...] [--top N]

EVENTLOG is what bench/spark-timeline.py reads (a log file, or Spark 4's folder of rolled zstd
files). For each Spark stage whose job ran under one of the given kvscope stages (the job's
kvscope.stage property; all stages when none is given) it prints the stage's tasks, their run
time and executor CPU summed, then its N longest tasks (default 6): run seconds, executor CPU
seconds, shuffle read and write MB and the records read. Where spark-timeline.py says how full the
cores were, this says which tasks held them: two shard tasks of unequal CPU, a stage of many
near-empty tasks.
"""
import argparse
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
timeline = __import__("spark-timeline")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("eventlog")
    parser.add_argument("stages", nargs="*", help="kvscope stages to show (default: all)")
    parser.add_argument("--top", type=int, default=6)
    args = parser.parse_args()

    kvscope_stage, names, tasks = {}, {}, defaultdict(list)
    for event in timeline.read_events(args.eventlog):
        kind = event["Event"]
        if kind == "SparkListenerJobStart":
            stage = (event.get("Properties") or {}).get("kvscope.stage")
            for info in event.get("Stage Infos", []):
                kvscope_stage[info["Stage ID"]] = stage
                names[info["Stage ID"]] = info["Stage Name"]
        elif kind == "SparkListenerTaskEnd":
            info, metrics = event["Task Info"], event.get("Task Metrics") or {}
            read = metrics.get("Shuffle Read Metrics") or {}
            tasks[event["Stage ID"]].append({
                "index": info["Index"],
                "run": (info["Finish Time"] - info["Launch Time"]) / 1e3,
                "cpu": metrics.get("Executor CPU Time", 0) / 1e9,
                "read": (read.get("Remote Bytes Read", 0) + read.get("Local Bytes Read", 0)) / 1e6,
                "written": (metrics.get("Shuffle Write Metrics") or {}).get("Shuffle Bytes Written", 0) / 1e6,
                "records": (metrics.get("Input Metrics") or {}).get("Records Read", 0),
            })
    for stage in sorted(tasks):
        if args.stages and kvscope_stage.get(stage) not in args.stages:
            continue
        done = tasks[stage]
        print(f"Spark stage {stage} [{kvscope_stage.get(stage)}] {names.get(stage, '')[:50]}: {len(done)} tasks, "
              f"{sum(t['run'] for t in done):.1f} run s, {sum(t['cpu'] for t in done):.2f} CPU s")
        for t in sorted(done, key=lambda t: -t["run"])[:args.top]:
            print(f"  task {t['index']}: {t['run']:.2f} run s, {t['cpu']:.2f} CPU s, shuffle read {t['read']:.1f} MB, "
                  f"written {t['written']:.1f} MB, {t['records']} records read")


if __name__ == "__main__":
    main()
