#!/usr/bin/python3
"""Tracker 3.4 side of bench/query: load the data into a local (direct) store, time queries.

  tracker_query.py load --store DIR FILE.rq...
      New store in DIR (Tracker.SparqlConnection.new, nepomuk ontology, in this process); each
      file (gen_music.py / gen_files.py SPARQL layout) goes in as bench/import's fastest path:
      its INSERT DATA cut into updates of 1,000 resources, one TrackerBatch per file. Prints
      `tracker3.4 load seconds=… files=…`.
  tracker_query.py query --store DIR --manifest FILES.json [--runs N] [--quarry-db DIR]
      Opens the store again and runs every query of queries.py: run 0 (the first in this
      process) and runs 1..N (only 1..2 when run 0 took over 2 s), each reading every row
      (cursor.next) and every column (cursor.get_string) into a Python list. Lines on stdout,
      as quarry_query_bench prints them:
        tracker name run ms rows bytes cpu_ms   |   tracker name error - - - message
      plus, per query, `pyovh name 0 ms rows cells cpu_ms`: the same loop with a trivial
      GObject call (get_n_columns) in place of next/get_string, i.e. what Python and the GI
      binding alone cost for that many rows and cells (median of 3), which a C client would not pay.
      With --quarry-db, `pysql` rows time the hand-written SQL through Python's sqlite3 module
      on Quarry's file (for comparison with the C driver's `sql` rows: Python's per-row cost).
Run with /usr/bin/python3 (the Debian interpreter that has gi).
"""

import argparse
import json
import os
import sqlite3
import statistics
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree for the sibling imports
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "import"))
sys.path.insert(0, HERE)
import queries  # noqa: E402
import tracker_import  # noqa: E402  (bench/import: gi set-up and the chunked batch loader)
from tracker_import import Gio, GLib, Tracker  # noqa: E402

CHUNK = 1000
SLOW_MS = 2000  # a query whose first run takes longer gets only SLOW_RUNS warm runs
SLOW_RUNS = 2


def open_store(path):
    return Tracker.SparqlConnection.new(Tracker.SparqlConnectionFlags.NONE,
                                        Gio.File.new_for_path(path),
                                        Tracker.sparql_get_ontology_nepomuk(), None)


def load(args):
    os.makedirs(args.store, exist_ok=True)
    connection = open_store(args.store)
    start = time.perf_counter()
    try:
        for path in args.files:
            tracker_import.load_batch_chunks(connection, tracker_import.read_chunks(path, CHUNK))
    finally:
        connection.close()
    print("tracker3.4 load seconds=%.3f files=%d" % (time.perf_counter() - start, len(args.files)),
          flush=True)


def read_all(connection, sparql):
    """One timed run: every row, every column, into a list. Returns (ms, cpu_ms, rows, cells)."""
    cpu_start = time.process_time()
    start = time.perf_counter()
    cursor = connection.query(sparql, None)
    cells, rows = [], 0
    columns = cursor.get_n_columns()
    while cursor.next(None):
        for c in range(columns):
            cells.append(cursor.get_string(c)[0])
        rows += 1
    ms = (time.perf_counter() - start) * 1000
    cpu_ms = (time.process_time() - cpu_start) * 1000
    cursor.close()
    return ms, cpu_ms, rows, cells


def binding_floor(connection, sparql, rows):
    """The loop of read_all with a trivial GI call in place of each next/get_string."""
    cursor = connection.query(sparql, None)
    columns = cursor.get_n_columns()
    times, cpu_times = [], []
    for _ in range(3):
        cells = []
        cpu_start = time.process_time()
        start = time.perf_counter()
        for _ in range(rows):
            cursor.get_n_columns()
            for c in range(columns):
                cells.append(cursor.get_n_columns())
        times.append((time.perf_counter() - start) * 1000)
        cpu_times.append((time.process_time() - cpu_start) * 1000)
    cursor.close()
    return statistics.median(times), statistics.median(cpu_times), rows * columns


def text_bytes(cells):
    return sum(len(v.encode("utf-8")) for v in cells if v is not None)


def one_line(text):
    return " ".join(str(text).split())


def time_tracker(connection, name, sparql, runs):
    rows = 0
    run, last = 0, runs
    while run <= last:
        try:
            ms, cpu_ms, rows, cells = read_all(connection, sparql)
        except GLib.Error as error:
            print("tracker\t%s\terror\t-\t-\t-\t%s" % (name, one_line(error.message)), flush=True)
            return
        print("tracker\t%s\t%d\t%.4f\t%d\t%d\t%.4f" % (name, run, ms, rows, text_bytes(cells),
                                                       cpu_ms), flush=True)
        if run == 0 and ms > SLOW_MS:
            last = min(runs, SLOW_RUNS)  # as TRACKER3-BASELINE.md: fewer runs of slow queries
        run += 1
    ms, cpu_ms, cells = binding_floor(connection, sparql, rows)
    print("pyovh\t%s\t0\t%.4f\t%d\t%d\t%.4f" % (name, ms, rows, cells, cpu_ms), flush=True)


def time_pysql(db, name, sql, runs):
    for run in range(runs + 1):
        cpu_start = time.process_time()
        start = time.perf_counter()
        cells, rows = [], 0
        for row in db.execute(sql):
            cells.extend(row)
            rows += 1
        ms = (time.perf_counter() - start) * 1000
        cpu_ms = (time.process_time() - cpu_start) * 1000
        print("pysql\t%s\t%d\t%.4f\t%d\t%d\t%.4f" % (
            name, run, ms, rows, text_bytes(str(v) for v in cells), cpu_ms), flush=True)


def query(args):
    with open(args.manifest, encoding="utf-8") as handle:
        manifest = json.load(handle)
    connection = open_store(args.store)
    db = None
    if args.quarry_db:
        db = sqlite3.connect("file:%s?mode=ro" % os.path.join(args.quarry_db, "meta.db"),
                             uri=True)
        # Quarry's connection settings, as quarry_query_bench uses them for the C side.
        db.executescript("PRAGMA temp_store=MEMORY; PRAGMA cache_size=-16384; "
                         "PRAGMA mmap_size=268435456;")
    try:
        for name, _, sparql, sql in queries.resolved(manifest, args.only):
            time_tracker(connection, name, sparql, args.runs)
            if db is not None:
                time_pysql(db, name, sql, args.runs)
    finally:
        connection.close()
        if db is not None:
            db.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_load = sub.add_parser("load", help="create a store and load SPARQL files into it")
    p_load.add_argument("--store", required=True)
    p_load.add_argument("files", nargs="+")
    p_query = sub.add_parser("query", help="time the queries on an existing store")
    p_query.add_argument("--store", required=True)
    p_query.add_argument("--manifest", required=True, help="gen_files.py's JSON manifest")
    p_query.add_argument("--runs", type=int, default=5)
    p_query.add_argument("--only", nargs="*", help="query names (default all)")
    p_query.add_argument("--quarry-db", help="also time the SQL via Python's sqlite3 here")
    args = parser.parse_args()
    try:
        load(args) if args.command == "load" else query(args)
    except GLib.Error as error:
        sys.exit("tracker_query: %s failed: %s" % (args.command, error.message))
    return 0


if __name__ == "__main__":
    sys.exit(main())
