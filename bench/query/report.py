#!/usr/bin/python3
"""Prints the bench/query tables from what bench/query/run collected.

Inputs: --results (TSV: round system name run ms rows bytes cpu_ms, or round system name
error - - - message; systems quarry, sql, tracker, pysql, pyovh), --loads (TSV: label wall_s cpu_s
others%), --manifest (gen_files.py's JSON), --music N, optional --compile (compile_bench's
JSON). Warm = median (min-max) of runs 1..N of every round; first = median of each round's
run 0 (the first run of the query in a fresh process). Two tables: wall time, and the CPU
time the measuring process used during each run (steadier when other processes take CPUs).
"""

import argparse
import datetime
import json
import os
import statistics
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import queries  # noqa: E402

GOAL_RATIO = 1.5
GOAL_COMPILE_US = 200


def read_results(path):
    """{(system, name): {"warm"/"first"/"cpu_warm"/"cpu_first": [ms], "rows": set, "error"}}"""
    out = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 7:
                continue
            entry = out.setdefault((cols[1], cols[2]),
                                   {"warm": [], "first": [], "cpu_warm": [], "cpu_first": [],
                                    "rows": set(), "error": None})
            if cols[3] == "error":
                entry["error"] = cols[7] if len(cols) > 7 else "error"
                continue
            kind = "first" if cols[3] == "0" else "warm"
            entry[kind].append(float(cols[4]))
            if len(cols) > 7:
                entry["cpu_" + kind].append(float(cols[7]))
            entry["rows"].add(int(cols[5]))
    return out


def median(values):
    return statistics.median(values) if values else None


def fmt_ms(value):
    if value is None:
        return "-"
    return "%.3f" % value if value < 10 else "%.1f" % value


def fmt_range(values):
    if not values:
        return "-"
    return "%s (%s-%s)" % (fmt_ms(median(values)), fmt_ms(min(values)), fmt_ms(max(values)))


def expected_rows(manifest, music):
    return {"a_artist_names": max(1, music // 50),
            "b_file_mtimes": manifest["files"] + manifest["folders"],
            "c_fts_match": manifest["fts_documents"], "d_plain_text": manifest["documents"],
            "e_title_idx_100": min(100, music), "e_title_idx_all": music,
            "f_title_noidx_100": 100, "g_folder_mtimes": manifest["target_files"]}


def row_note(results, name, expected):
    """'' when Quarry, Tracker and the SQL agree with each other and the expectation."""
    seen = {}
    for system in ("quarry", "tracker", "sql"):
        entry = results.get((system, name))
        if entry and entry["rows"]:
            seen[system] = sorted(entry["rows"])
    problems = []
    if expected is not None:
        problems += ["%s %s" % (s, r) for s, r in seen.items() if r != [expected]]
    elif len({tuple(r) for r in seen.values()}) > 1:
        problems += ["%s %s" % (s, r) for s, r in seen.items()]
    if problems:
        return "rows differ (expected %s): %s" % (expected, ", ".join(problems))
    return ""


def print_query_table(results, manifest, music, cpu):
    """One table, of wall (cpu False) or CPU times. Returns (notes, names below the goal)."""
    warm, first = ("cpu_warm", "cpu_first") if cpu else ("warm", "first")
    header = ("%-18s %7s %-22s %-22s %7s %6s %6s %9s %6s %8s %8s" % (
        "query", "rows", "Quarry ms", "Tracker ms", "py ovh", "ratio", "r.adj", "SQL ms",
        "Q/SQL", "Q first", "T first"))
    print(header)
    print("-" * len(header))
    notes, slow = [], []
    expected = expected_rows(manifest, music)
    for name, _, _, _ in queries.QUERIES:
        q = results.get(("quarry", name), {})
        t = results.get(("tracker", name), {})
        s = results.get(("sql", name), {})
        o = results.get(("pyovh", name), {})
        qm, tm, sm = (median(e.get(warm, [])) if e else None for e in (q, t, s))
        om = median(o.get(first, [])) if o else None
        rows = sorted(next((e["rows"] for e in (q, t, s) if e and e["rows"]), set()))
        ratio = tm / qm if qm and tm else None
        adj = (tm - om) / qm if qm and tm and om is not None else ratio
        quarry_cell = fmt_range(q.get(warm, [])) if not q.get("error") else "ERROR (below)"
        tracker_cell = fmt_range(t.get(warm, [])) if not t.get("error") else "ERROR (below)"
        print("%-18s %7s %-22s %-22s %7s %6s %6s %9s %6s %8s %8s" % (
            name, rows[-1] if rows else "-", quarry_cell, tracker_cell, fmt_ms(om),
            "%.2fx" % ratio if ratio else "-", "%.2fx" % adj if adj else "-", fmt_ms(sm),
            "%.1fx" % (qm / sm) if qm and sm else "-", fmt_ms(median(q.get(first, []))),
            fmt_ms(median(t.get(first, [])))))
        for system, entry in (("Quarry", q), ("Tracker", t), ("SQL", s)):
            if entry and entry.get("error"):
                notes.append("%s %s: %s" % (system, name, entry["error"]))
        if note := row_note(results, name, expected.get(name)):
            notes.append("%s: %s" % (name, note))
        if q.get("error") or (adj is not None and adj < GOAL_RATIO):
            slow.append(name)
    return notes, slow


def print_python_check(results):
    """The SQL through Python's sqlite3 module against the C driver: Python's per-row cost."""
    print("\nPython per-row cost, same hand-written SQL on Quarry's file (warm CPU medians):")
    print("%-18s %7s %10s %12s %12s" % ("query", "rows", "C ms", "Python ms", "µs/row extra"))
    for name, _, _, _ in queries.QUERIES:
        c = results.get(("sql", name))
        p = results.get(("pysql", name))
        if not c or not p or not c["warm"] or not p["warm"]:
            continue
        rows = max(c["rows"])
        cm, pm = median(c["cpu_warm"] or c["warm"]), median(p["cpu_warm"] or p["warm"])
        print("%-18s %7d %10s %12s %12s" % (name, rows, fmt_ms(cm), fmt_ms(pm),
                                           "%.2f" % ((pm - cm) * 1000 / rows) if rows else "-"))


def print_compile(path):
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    medians = {}
    for bench in data.get("benchmarks", []):
        if bench.get("aggregate_name") != "median":
            continue
        step, name = bench["run_name"].split("/")[:2]  # "compile/q/iterations:…/repeats:…"
        scale = {"ns": 0.001, "us": 1.0, "ms": 1000.0}.get(bench.get("time_unit", "us"), 1.0)
        medians.setdefault(name, {})[step] = bench["cpu_time"] * scale
    print("\nCompile time (compile_bench: CPU time, median of repetitions; goal < %d µs):" %
          GOAL_COMPILE_US)
    print("%-16s %10s %12s %12s" % ("query", "parse µs", "compile µs", "translate µs"))
    for name, steps in medians.items():
        parse, comp = steps.get("parse"), steps.get("compile")
        print("%-16s %10s %12s %12s%s" % (
            name, "%.1f" % parse if parse else "-", "%.1f" % comp if comp else "-",
            "%.1f" % (comp - parse) if parse and comp else "-",
            "  ABOVE GOAL" if comp and comp >= GOAL_COMPILE_US else ""))


def print_loads(path):
    print("\nProcesses (wall s, CPU s, busy% = share of the CPUs other processes used meanwhile):")
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            label, wall, cpu, others = line.rstrip("\n").split("\t")
            print("  %-22s %8s s %8s s CPU %4s%%%s" % (
                label, wall, cpu, others, "  (busy: numbers unreliable)" if
                float(others) > 25 else ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", required=True)
    parser.add_argument("--loads", required=True)
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--music", type=int, required=True)
    parser.add_argument("--compile")
    parser.add_argument("--note", default="")
    parser.add_argument("--runs", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=0)
    args = parser.parse_args()
    with open(args.manifest, encoding="utf-8") as handle:
        manifest = json.load(handle)
    results = read_results(args.results)
    print("bench/query  music=%d files=%d folders=%d docs=%d target folder=%d files  "
          "fts word=%s  %d warm runs x %d rounds  %s  %s" % (
              args.music, manifest["files"], manifest["folders"], manifest["documents"],
              manifest["target_files"], manifest["fts_word"], args.runs, args.rounds,
              datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), os.uname().nodename))
    if args.note:
        print(args.note)
    print("\nWall time (ms):")
    notes, slow = print_query_table(results, manifest, args.music, cpu=False)
    print("\nCPU time of the measuring process (ms):")
    _, slow_cpu = print_query_table(results, manifest, args.music, cpu=True)
    print("\nms: warm median (min-max); ratio = Tracker / Quarry; r.adj = (Tracker - py ovh) / "
          "Quarry, the goal is r.adj >= %.1fx; Q/SQL = Quarry / hand-written SQL." % GOAL_RATIO)
    for note in notes:
        print("NOTE " + note)
    print("Below the goal, wall time: %s" % (", ".join(slow) if slow else "none"))
    print("Below the goal, CPU time:  %s" % (", ".join(slow_cpu) if slow_cpu else "none"))
    print_python_check(results)
    if args.compile and os.path.exists(args.compile):
        print_compile(args.compile)
    print_loads(args.loads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
