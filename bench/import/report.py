#!/usr/bin/python3
"""Prints the bench/import table and ratios from the rows bench/import/run collected.

Usage: report.py RESULTS.tsv [NOTE...]   (notes are printed under the title)
Input: a TSV, one row per measurement:
  label kind method run n triples load_s whole_s rss_kb cpu_s others_pct [inproc_rss_kb]
load_s is the in-process "update only" time (Tracker only; empty for the others), whole_s and
rss_kb come from /usr/bin/time for the whole process; others_pct is the share of the machine's
CPU capacity other processes used during the measurement. Medians over the runs, with min-max.
"""

import datetime
import os
import statistics
import sys


def read_rows(path):
    rows = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 11:
                continue
            rows.append({"label": cols[0], "kind": cols[1], "method": cols[2],
                         "n": int(cols[4]), "triples": int(cols[5]),
                         "load_s": float(cols[6]) if cols[6] else None,
                         "whole_s": float(cols[7]), "rss_kb": int(cols[8]),
                         "cpu_s": float(cols[9]), "others": float(cols[10])})
    return rows


def summarize(rows):
    """label -> medians (and ranges) of its runs, in first-seen order."""
    groups = {}
    for row in rows:
        groups.setdefault(row["label"], []).append(row)
    out = {}
    for label, runs in groups.items():
        def stat(key):
            values = [r[key] for r in runs if r[key] is not None]
            if not values:
                return None
            return statistics.median(values), min(values), max(values)
        out[label] = {"kind": runs[0]["kind"], "runs": len(runs), "load_s": stat("load_s"),
                      "whole_s": stat("whole_s"), "rss_kb": stat("rss_kb"),
                      "cpu_s": stat("cpu_s"),
                      "others": statistics.median(r["others"] for r in runs),
                      "triples": runs[0]["triples"], "n": runs[0]["n"]}
    return out


def fmt_s(stat):
    if stat is None:
        return "-"
    median, low, high = stat
    return "%.2f (%.2f-%.2f)" % (median, low, high)


def rate(triples, stat):
    return triples / stat[0] if stat else None


def fmt_rate(value):
    return "-" if value is None else "{:,.0f}".format(value)


def measurable(s):
    """busy% of runs shorter than half a second is mostly clock-tick rounding."""
    return s["whole_s"][0] >= 0.5


def print_table(summary):
    header = "%-23s %-20s %-20s %12s %12s %9s %7s %5s" % (
        "system", "load s (in-process)", "whole process s", "triples/s ld", "triples/s wh",
        "peak MB", "CPU s", "busy%")
    print(header)
    print("-" * len(header))
    for label, s in summary.items():
        print("%-23s %-20s %-20s %12s %12s %9.1f %7.2f %5s" % (
            label, fmt_s(s["load_s"]), fmt_s(s["whole_s"]),
            fmt_rate(rate(s["triples"], s["load_s"])), fmt_rate(rate(s["triples"], s["whole_s"])),
            s["rss_kb"][0] / 1024, s["cpu_s"][0],
            "%.0f" % s["others"] if measurable(s) else "-"))


def print_ratios(summary):
    quarry = summary.get("quarry")
    trackers = {k: v for k, v in summary.items() if v["kind"] == "tracker"}
    flat = summary.get("sqlite3 flat")
    print()
    if trackers:
        best = min(trackers, key=lambda k: trackers[k]["load_s"][0])
        t = trackers[best]
        print("Tracker's fastest single-batch path: %s (update only %.2f s, whole process %.2f s)"
              % (best, t["load_s"][0], t["whole_s"][0]))
    if quarry and trackers:
        q_whole = quarry["whole_s"][0]
        print("Quarry / Tracker insert rate, update only:   %.2fx  (goal >= 3x; Quarry timed as a"
              " whole process, so this favours Tracker)" % (t["load_s"][0] / q_whole))
        print("Quarry / Tracker insert rate, whole process: %.2fx" % (t["whole_s"][0] / q_whole))
        print("Quarry / Tracker by CPU time, whole process: %.2fx  (steadier than wall time when"
              " the machine is busy)" % (t["cpu_s"][0] / quarry["cpu_s"][0]))
        print("Peak RSS Tracker / Quarry: %.2fx  (%.0f MB / %.0f MB; Tracker's includes Python and"
              " the file as a Python str)" % (t["rss_kb"][0] / quarry["rss_kb"][0],
                                               t["rss_kb"][0] / 1024, quarry["rss_kb"][0] / 1024))
        single = summary.get("tracker3.4 update")
        if single and single is not t:
            print("Peak RSS Tracker update (the one INSERT DATA as one update) / Quarry: %.2fx"
                  "  (%.0f MB)" % (single["rss_kb"][0] / quarry["rss_kb"][0],
                                   single["rss_kb"][0] / 1024))
    elif trackers:
        print("Quarry not measured: no ratio (see the SKIPPING message above).")
    if quarry and flat:
        print("Quarry vs sqlite3 physical limit: %.2fx the limit's time (%.0f%% of its rate)" % (
            quarry["whole_s"][0] / flat["whole_s"][0],
            100 * flat["whole_s"][0] / quarry["whole_s"][0]))
    if trackers and flat:
        print("Tracker (%s) vs sqlite3 physical limit: %.1fx the limit's time (update only)" % (
            best, t["load_s"][0] / flat["whole_s"][0]))
    # The loaders are (mostly) single-threaded: on 2 CPUs, others using up to about one CPU
    # barely slow them (CPU s stays close to the wall time); beyond that they wait.
    busy = [k for k, v in summary.items() if measurable(v) and v["others"] > 25]
    if busy:
        print("WARNING: other processes used more than 25%% of the CPUs (median) during: %s"
              " (busy%% column; compare CPU s with the wall time)" % ", ".join(busy))


def main():
    rows = read_rows(sys.argv[1])
    if not rows:
        sys.exit("report: no measurements in %s" % sys.argv[1])
    summary = summarize(rows)
    first = rows[0]
    print()
    print("bench/import  n=%d nmm:MusicPiece  triples=%d  runs=%d  median (min-max)  %s  %s" % (
        first["n"], first["triples"], max(s["runs"] for s in summary.values()),
        datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), os.uname().nodename))
    for note in sys.argv[2:]:
        print(note)
    print_table(summary)
    print_ratios(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
