#!/usr/bin/python3
"""bench/ipc report: the best of the runs per path, as a Markdown table with ratios from the same
session (README.md). Input: run's results.tsv, one line per run:
system path run ms rows bytes client_cpu_ms client_peak_kb server_cpu_ms server_peak_kb
"""
import argparse
import collections


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--rows", type=int, required=True)
    args = parser.parse_args()
    runs = collections.defaultdict(list)
    for line in open(args.results):
        f = line.rstrip("\n").split("\t")
        runs[(f[0], f[1])].append({
            "ms": float(f[3]), "rows": int(f[4]), "bytes": int(f[5]), "ccpu": float(f[6]),
            "cpeak": int(f[7]), "scpu": int(f[8]), "speak": int(f[9] or 0)})
    best = {key: min(values, key=lambda r: r["ms"]) for key, values in runs.items()}
    direct = best.get(("quarry", "direct"))
    tracker = best.get(("tracker3.4", "tracker"))
    print(f"{args.rows:,} rows x 30 columns, best of {max(len(v) for v in runs.values())} runs\n")
    print("| path | ms | x direct | Tracker / path | client CPU ms | server CPU ms "
          "| client peak MB | server peak MB | rows |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for key, r in best.items():
        vs_direct = f"{r['ms'] / direct['ms']:.2f}" if direct else "-"
        vs_tracker = f"{tracker['ms'] / r['ms']:.2f}" if tracker else "-"
        print(f"| {key[0]} {key[1]} | {r['ms']:.0f} | {vs_direct} | {vs_tracker} | "
              f"{r['ccpu']:.0f} | {r['scpu']} | {r['cpeak'] / 1024:.0f} | "
              f"{r['speak'] / 1024:.0f} | {r['rows']:,} |")
    for key, r in best.items():
        if r["rows"] != args.rows:
            print(f"\nWARNING: {key[0]} {key[1]} returned {r['rows']} rows, not {args.rows}")


if __name__ == "__main__":
    main()
