#!/usr/bin/python3
"""bench/index: no-change restarts of two quarry-miner-fs binaries, alternated on one indexed
store (README.md "Restart A/B"). Starts the services of BUILD as index_bench.py does, indexes
CORPUS once with miner B, then restarts miner A and miner B in turn ROUNDS times each, timing
from the miner's start to its Progress("Idle") signal (the store and extractor stay up), and
prints median (min-max) and the miner's and quarry-store's CPU for each (the store's as the
difference of its clock ticks across the restart), beside `find` over the same tree, timed once
before each restart.

Usage: restart_ab.py --build BUILD --corpus CORPUS --work WORK --a MINER_A --b MINER_B [--rounds N]
"""
import argparse
import ctypes
import os
import statistics
import subprocess
import time

import index_bench as bench


class Miner(bench.QuarryRun):
    binary = None

    def start_miner(self, *extra):
        self.miner = self.accounting.track(subprocess.Popen(
            [self.binary, "--config", self.config, "--folder", self.corpus, *extra],
            env=self.env, stdout=self.log, stderr=subprocess.STDOUT))
        return self.miner


def store_cpu(snapshot):
    """quarry-store's CPU seconds so far (a live process: cumulative, clock ticks)."""
    return next((value[0] for name, value in snapshot.items() if "store" in name), float("nan"))


def restart(system, binary, timeout):
    system.binary = binary
    time.sleep(0.5)
    find_s = bench.find_once(system.corpus)
    system.accounting.reset()
    store_before = store_cpu(system.accounting.snapshot())
    since = time.monotonic()
    system.start_miner()
    idle_at = system.bus.wait_progress(system.MINER_PATH, "Idle", since, timeout)
    bench.wait_idle(system.idle, time.monotonic(), timeout)
    snapshot = system.accounting.snapshot()
    miner = next((name for name in snapshot if "miner" in name), None)
    cpu = snapshot[miner][0] if miner else float("nan")
    system.stop_miner()
    return {"s": idle_at - since, "miner_cpu": cpu, "store_cpu": store_cpu(snapshot) - store_before,
            "find_s": find_s}


def summary(values):
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--a", required=True, help="miner binary A (e.g. before a change)")
    parser.add_argument("--b", required=True, help="miner binary B")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--timeout", type=float, default=1800)
    args = parser.parse_args()
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER, as index_bench.py
    corpus = os.path.realpath(args.corpus)
    accounting = bench.Accounting()
    system = Miner(args.build, corpus, os.path.join(args.work, "quarry"), accounting)
    results = {"A": [], "B": []}
    try:
        system.binary = args.b
        start = time.monotonic()
        system.start_services()
        system.start_miner()
        bench.wait_idle(system.idle, start, args.timeout, work_since=start)
        time.sleep(1.0)
        bench.wait_idle(system.idle, time.monotonic(), args.timeout)
        system.stop_miner()
        for _ in range(args.rounds):
            results["A"].append(restart(system, args.a, args.timeout))
            results["B"].append(restart(system, args.b, args.timeout))
    finally:
        system.close()
    finds = [r["find_s"] for name in results for r in results[name]]
    find_s = statistics.median(finds)
    files = sum(len(names) for _, _, names in os.walk(corpus))
    print(f"| {files} files, {args.rounds} restarts each | restart s, median (min-max) | miner CPU s (median) | "
          "store CPU s (median) | restart / find |")
    print("|---|---|---|---|---|")
    for name, path in (("A", args.a), ("B", args.b)):
        seconds = [r["s"] for r in results[name]]
        cpu = [r["miner_cpu"] for r in results[name]]
        store = [r["store_cpu"] for r in results[name]]
        print(f"| {name}: {path} | {summary(seconds)} | {statistics.median(cpu):.3f} | "
              f"{statistics.median(store):.3f} | {statistics.median(seconds) / find_s:.2f}x |")
    print(f"| `find DIR -printf '%T@ %p\\n'` (median of {len(finds)}, one before each restart) | "
          f"{summary(finds)} | | | |")


if __name__ == "__main__":
    main()
