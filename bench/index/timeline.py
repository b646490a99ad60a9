#!/usr/bin/python3
"""bench/index/timeline.py BUILD CORPUS WORK [quarry-extract args...]: one Quarry initial index
(the services of index_bench.QuarryRun, same config) with a line every TIMELINE_INTERVAL
seconds (environment, default 0.5): the miner's state and counts (files found by the crawl,
indexed = basic facts written, handed off to quarry-extract), files extracted, queued and
unwritten, the extractor's write batches, the milliseconds its worker slots waited in that
interval for a job while files were queued (starved) and for room to keep a result (blocked:
the store is behind), and the CPU seconds each process used in that
interval, from index_bench.Accounting's /proc sampler (every 50 ms: utime + stime of each
process in /proc/PID/stat; "sum": all but dbus-daemon; "idle": the cores times the time since
the previous line, minus sum). Shows where the pipeline waits (README.md "Where the pipeline waited",
"Time to idle: the timeline"). Not a benchmark: it asks three GetStatus-like calls per line."""
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
    last_waits = {}  # the extractor's starved_ms / blocked_ms at the previous line
    try:
        run.start_services()
        run.start_miner()
        interval = float(os.environ.get("TIMELINE_INTERVAL", "0.5"))
        cores = os.cpu_count() or 1
        last_line = time.monotonic()
        while True:
            time.sleep(interval)
            status = run.bus.call("org.quarry.Extract1", "/org/quarry/Extract1", "org.quarry.Extract1",
                                  "GetStatus", reply="(a{sv})")[0]
            miner = run.miner_status() or "-"
            try:
                counts = run.bus.call(run.MINER, "/org/quarry/Miner/Files", "org.quarry.Miner.Files.Index",
                                      "GetCounts", reply="(a{st})")[0]
            except Exception:  # noqa: BLE001 (the miner not on the bus yet)
                counts = {}
            cpu = {name: value[0] for name, value in accounting.snapshot().items()}
            used = {name: cpu[name] - last.get(name, 0.0) for name in cpu}
            last = cpu
            waits = dict(last_waits)
            last_waits.update({key: status.get(key, 0) for key in ("starved_ms", "blocked_ms")})
            now = time.monotonic()
            elapsed, last_line = now - last_line, now  # the calls above take time too
            busy = sum(v for n, v in used.items() if n != 'dbus-daemon')
            print(f"{time.monotonic() - start:6.2f} s miner={miner:10s} found={counts.get('found', 0):6d} "
                  f"indexed={counts.get('indexed', 0):6d} handed={counts.get('handed_off', 0):6d} extracted={status.get('extracted', 0):6d} "
                  f"queued={status.get('queued', 0):6d} unwritten={status.get('unwritten', 0):4d} "
                  f"batches={status.get('write_batches', 0):4d} "
                  f"starved={status.get('starved_ms', 0) - waits.get('starved_ms', 0):4d} "
                  f"blocked={status.get('blocked_ms', 0) - waits.get('blocked_ms', 0):4d} | "
                  + " ".join(f"{name}={value:.2f}" for name, value in sorted(used.items()))
                  + f" | sum={busy:.2f} idle={cores * elapsed - busy:.2f}", flush=True)
            if miner == "Idle" and status.get("state") == "idle" and status.get("queued", 0) == 0:
                break
        print(f"{time.monotonic() - start:.2f} s to idle; slots starved {last_waits.get('starved_ms', 0)} ms, "
              f"blocked {last_waits.get('blocked_ms', 0)} ms in all")
        print("CPU s:", {name: round(value[0], 2) for name, value in accounting.snapshot().items()})
    finally:
        run.close()


if __name__ == "__main__":
    main()
