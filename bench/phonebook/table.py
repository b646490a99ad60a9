#!/usr/bin/python3
# table.py results.tsv: the Markdown tables of RESULTS.md from one run of run.sh — every
# operation at the largest count (µs; save rows per contact, the rest per query) with the
# Tracker / Quarry ratio, peak RSS and RSS per contact at every count, and the goals
# with pass/miss.
import collections
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])][1:]
largest = max(int(r[2]) for r in rows)
value = collections.defaultdict(dict)  # (count, op) -> {system:path: micros}
for system, path, count, op, micros, unit, results in rows:
    value[(int(count), op)][system + ":" + path] = float(micros)
counts = sorted({int(r[2]) for r in rows})
ops = list(dict.fromkeys(r[3] for r in rows if not r[3].endswith("rss_kib")))
# raw_sqlite:direct (raw_sqlite_fetch): hand-written SQL on SQLite, the limit of the reads.
columns = ["quarry:embedded", "quarry:direct", "quarry:store_auto", "quarry:store_fd",
           "quarry:store_dbus", "tracker3.4:local", "raw_sqlite:direct"]


def get(count, op, column):
    by_path = value.get((count, op), {})
    v = by_path.get(column)
    if v is None and column == "quarry:store_fd" and op.startswith("save"):
        v = by_path.get("quarry:store")  # saves go through the store once, not per transport
    return v


def best_quarry(count, op):
    found = [v for c in columns[:5] if (v := get(count, op, c)) is not None]
    return min(found) if found else None


print("### %d contacts (µs; save_* per contact, others per query)\n" % largest)
print("| operation | " + " | ".join(columns) + " | Tracker / best Quarry |")
print("|---" * (len(columns) + 2) + "|")
for op in ops:
    cells = ["–" if (v := get(largest, op, c)) is None else "%.1f" % v for c in columns]
    best, tracker = best_quarry(largest, op), get(largest, op, "tracker3.4:local")
    ratio = "%.1f×" % (tracker / best) if best and tracker else "–"
    print("| %s | %s | %s |" % (op, " | ".join(cells), ratio))


def rss(count, system_path, op):
    return value.get((count, op), {}).get(system_path)


print("\n### Peak RSS (KiB) and RSS per contact\n")
print("| contacts | embedded client | store client + quarry-store | Tracker local client |")
print("|---:|---:|---:|---:|")
for count in counts:
    embedded = rss(count, "quarry:embedded", "client_peak_rss_kib")
    client, server = rss(count, "quarry:store_client", "client_peak_rss_kib"), rss(count, "quarry:store_server", "store_peak_rss_kib")
    tracker = rss(count, "tracker3.4:local", "client_peak_rss_kib")
    both = client + server if client and server else None
    print("| %d | %s | %s | %s |" % (count, *["–" if v is None else "%.0f" % v for v in (embedded, both, tracker)]))
first, last = counts[0], counts[-1]
if last > first:
    def slope(system_path, op):
        a, b = rss(first, system_path, op), rss(last, system_path, op)
        return None if a is None or b is None else (b - a) * 1024 / (last - first)
    per = {
        "embedded": slope("quarry:embedded", "client_peak_rss_kib"),
        "quarry-store": slope("quarry:store_server", "store_peak_rss_kib"),
        "store client": slope("quarry:store_client", "client_peak_rss_kib"),
        "Tracker local": slope("tracker3.4:local", "client_peak_rss_kib"),
    }
    print("\nRSS growth per contact from %d to %d contacts (bytes): %s" % (
        first, last, ", ".join("%s %s" % (k, "–" if v is None else "%.0f" % v) for k, v in per.items())))

goals = [
    ("batch save <= 30 µs per contact", [("save_batch", "quarry:embedded"), ("save_batch", "quarry:store")], 30),
    ("fetch one by UID <= 10 µs direct", [("fetch_one", "quarry:direct"), ("fetch_one", "quarry:embedded")], 10),
    ("fetch one by UID <= 100 µs via the store", [("fetch_one", "quarry:store_auto"), ("fetch_one", "quarry:store_fd"), ("fetch_one", "quarry:store_dbus")], 100),
    ("100 UIDs via the store <= 2 ms", [("fetch_100", "quarry:store_auto"), ("fetch_100", "quarry:store_fd"), ("fetch_100", "quarry:store_dbus")], 2000),
] + [("%s <= 1 ms direct" % f, [(f, "quarry:direct"), (f, "quarry:embedded")], 1000)
     for f in ("prefix_short", "prefix_long", "suffix", "email", "phone_suffix",
               "prefix_short_uids", "prefix_long_uids", "suffix_uids", "email_uids",
               "phone_suffix_uids")]
print("\n### Goals at %d contacts\n" % largest)
print("| goal | measured (µs) | result |")
print("|---|---|---|")
for name, cells, limit in goals:
    measured = [(c, v) for op, c in cells if (v := get(largest, op, c)) is not None]
    verdict = "–" if not measured else ("pass" if all(v <= limit for _, v in measured) else "**miss**")
    text = ", ".join("%s %.1f" % (c.split(":")[1], v) for c, v in measured) or "not measured"
    print("| %s | %s | %s |" % (name, text, verdict))
behind = [op for op in ops if (t := get(largest, op, "tracker3.4:local")) is not None
          and (b := best_quarry(largest, op)) is not None and b >= t]
print("| ahead of Tracker 3.4 on every row | behind on: %s | %s |" % (
    ", ".join(behind) or "none", "pass" if not behind else "**miss**"))
