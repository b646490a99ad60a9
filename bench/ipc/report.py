#!/usr/bin/python3
"""bench/ipc report: the best of the runs per path, as Markdown tables with ratios from the same
session (README.md). Input: run's results.tsv, one line per run:
system path run ms rows bytes client_cpu_ms client_peak_kb server_cpu_ms server_peak_kb
[bus_cpu_ms] (the dbus-daemon's CPU per run; older files lack it)
System "quarry" / "tracker3.4" is the 30-column result; "q:NAME" the seed's four queries.
"""
import argparse
import collections


def load(path):
    runs = collections.defaultdict(list)
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        runs[(f[0], f[1])].append({
            "ms": float(f[3]), "rows": int(f[4]), "bytes": int(f[5]), "ccpu": float(f[6]),
            "cpeak": int(f[7]), "scpu": int(f[8]), "speak": int(f[9] or 0),
            "bcpu": int(f[10]) if len(f) > 10 and f[10] else 0})
    return runs


def cpu(r):
    """Client plus server plus dbus-daemon CPU: on a loaded machine steadier than wall time."""
    return r["ccpu"] + r["scpu"] + r["bcpu"]


def wide_table(best, rows, runs):
    direct = best.get(("quarry", "direct"))
    tracker = best.get(("tracker3.4", "tracker"))
    print(f"{rows:,} rows x 30 columns, best of {runs} runs\n")
    print("| path | ms | x direct | Tracker / path | client CPU ms | server CPU ms | bus CPU ms "
          "| CPU x direct | client peak MB | server peak MB | rows |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for key, r in best.items():
        if key[0].startswith("q:"):
            continue
        vs_direct = f"{r['ms'] / direct['ms']:.2f}" if direct else "-"
        vs_tracker = f"{tracker['ms'] / r['ms']:.2f}" if tracker else "-"
        cpu_direct = f"{cpu(r) / cpu(direct):.2f}" if direct and cpu(direct) > 0 else "-"
        print(f"| {key[0]} {key[1]} | {r['ms']:.0f} | {vs_direct} | {vs_tracker} | "
              f"{r['ccpu']:.0f} | {r['scpu']} | {r['bcpu']} | {cpu_direct} | "
              f"{r['cpeak'] / 1024:.0f} | "
              f"{r['speak'] / 1024:.0f} | {r['rows']:,} |")
    for key, r in best.items():
        if not key[0].startswith("q:") and r["rows"] != rows:
            print(f"\nWARNING: {key[0]} {key[1]} returned {r['rows']} rows, not {rows}")


def query_table(best):
    names = sorted({key[0] for key in best if key[0].startswith("q:")})
    if not names:
        return
    print("\nThe seed's four queries (best run; ms, and CPU ms client+server+bus in brackets)\n")
    print("| query | rows | direct | fd | dbus | tracker | fd x direct | dbus x direct "
          "| Tracker / fd | Tracker / dbus |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in names:
        d, f, b, t = (best.get((name, path)) for path in ("direct", "fd", "dbus", "tracker"))
        cell = lambda r: f"{r['ms']:.1f} ({cpu(r):.0f})" if r else "-"
        ratio = lambda r, base: (f"{r['ms'] / base['ms']:.2f}"
                                 if r and base and base["ms"] > 0 else "-")
        rows = d["rows"] if d else "-"
        print(f"| {name[2:]} | {rows} | {cell(d)} | {cell(f)} | {cell(b)} | {cell(t)} | "
              f"{ratio(f, d)} | {ratio(b, d)} | {ratio(t, f)} | {ratio(t, b)} |")
        for path, r in (("fd", f), ("dbus", b), ("tracker", t)):
            if r and d and r["rows"] != d["rows"]:
                print(f"\nWARNING: {name[2:]} {path} returned {r['rows']} rows, not {d['rows']}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--rows", type=int, required=True)
    args = parser.parse_args()
    runs = load(args.results)
    best = {key: min(values, key=lambda r: r["ms"]) for key, values in runs.items()}
    wide_table(best, args.rows, max(len(v) for v in runs.values()))
    query_table(best)


if __name__ == "__main__":
    main()
