#!/usr/bin/python3
# table.py results.tsv: the Markdown table of RESULTS.md at the largest count (µs; save rows per
# contact, the rest per query) with Tracker / Quarry ratios from the same run.
import collections
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])][1:]
largest = max(int(r[2]) for r in rows)
value = collections.defaultdict(dict)
for system, path, count, op, micros, unit, results in rows:
    if int(count) == largest:
        value[op][system + ":" + path] = float(micros)
columns = ["quarry:embedded", "quarry:direct", "quarry:store_fd", "quarry:store_dbus", "tracker3.4:local"]
print("At %d contacts (µs; save_* per contact, others per query; RSS in KiB)\n" % largest)
print("| operation | " + " | ".join(columns) + " | Tracker / Quarry embedded |")
print("|---" * (len(columns) + 2) + "|")
for op, by_path in value.items():
    cells = []
    for c in columns:
        v = by_path.get(c)
        if v is None and c.endswith("store_fd"):
            v = by_path.get("quarry:store")
        if v is None and c == "quarry:store_dbus" and op.startswith("store_peak"):
            v = by_path.get("quarry:store_server")
        if v is None and c == "quarry:direct" and op == "client_peak_rss_kib":
            v = by_path.get("quarry:store_client")
        cells.append("–" if v is None else "%.1f" % v)
    base, tracker = by_path.get("quarry:embedded"), by_path.get("tracker3.4:local")
    ratio = "%.1f×" % (tracker / base) if base and tracker else "–"
    print("| %s | %s | %s |" % (op, " | ".join(cells), ratio))
