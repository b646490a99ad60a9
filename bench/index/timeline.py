#!/usr/bin/python3
"""bench/index/timeline.py BUILD CORPUS WORK [quarry-extract args...]: one Quarry initial index
(the services of index_bench.QuarryRun, same config) with a line every 0.5 s: the miner's state,
files extracted, queued and unwritten, the extractor's write batches, and the CPU seconds each
process used in that half second ("sum": all but dbus-daemon; 1.0 is both cores busy). Shows
where the pipeline waits (README.md "Where the pipeline waited"). Not a benchmark: it asks
GetStatus every 0.5 s."""
import ctypes
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import index_bench as ib  # noqa: E402


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    build, corpus, work = sys.argv[1:4]
    extract_args = sys.argv[4:]
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER, as index_bench
    accounting = ib.Accounting()
    run = ib.QuarryRun(build, os.path.realpath(corpus), work, accounting)
    if extract_args:
        spawn = run.spawn
        run.spawn = lambda binary, *args: spawn(binary, *args, *(extract_args if binary.endswith("quarry-extract") else ()))
    start = time.monotonic()
    last = {}
    try:
        run.start_services()
        run.start_miner()
        while True:
            time.sleep(0.5)
            status = run.bus.call("org.quarry.Extract1", "/org/quarry/Extract1", "org.quarry.Extract1",
                                  "GetStatus", reply="(a{sv})")[0]
            miner = run.miner_status() or "-"
            cpu = {name: value[0] for name, value in accounting.snapshot().items()}
            used = {name: cpu[name] - last.get(name, 0.0) for name in cpu}
            last = cpu
            print(f"{time.monotonic() - start:6.1f} s miner={miner:12s} extracted={status.get('extracted', 0):6d} "
                  f"queued={status.get('queued', 0):6d} unwritten={status.get('unwritten', 0):4d} "
                  f"batches={status.get('write_batches', 0):4d} | "
                  + " ".join(f"{name}={value:.2f}" for name, value in sorted(used.items()))
                  + f" | sum={sum(v for n, v in used.items() if n != 'dbus-daemon'):.2f}", flush=True)
            if miner == "Idle" and status.get("state") == "idle" and status.get("queued", 0) == 0:
                break
        print("CPU s:", {name: round(value[0], 2) for name, value in accounting.snapshot().items()})
    finally:
        run.close()


if __name__ == "__main__":
    main()
