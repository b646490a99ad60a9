#!/usr/bin/python3
"""Tracker 3.4 side of bench/import: load a gen_music.py file into a NEW local (direct) store.

Opens Tracker.SparqlConnection.new(NONE, <fresh dir>, nepomuk) in this process, loads the file
in one batch and verifies with a COUNT that all N pieces are there. Times the store creation
and the load separately; peak RSS is getrusage(RUSAGE_SELF).ru_maxrss (all threads), reported
beside the interpreter's own baseline taken before gi is imported.

Methods (all one transaction for the whole file):
  update       connection.update(text)                      (SPARQL file)
  batch        batch = create_batch(); add_sparql(text); execute()   (SPARQL file)
  batch-chunks the same INSERT DATA split into statements of --chunk resources (one per line in
               gen_music output), all added to one TrackerBatch, one execute()
  deserialize  connection.deserialize_async(Turtle stream)  (Turtle file; into the named
               graph urn:bench:graph, as GI cannot pass the default graph)

Prints one line (stable prefix, extra keys appended):
  tracker3.4 import n=… triples=… seconds=… triples_per_s=… peak_rss_kb=… method=…
  open_seconds=… cpu_seconds=… baseline_rss_kb=… loaded_rss_kb=… store_kb=… stack_mb=…
loaded_rss_kb is the peak after gi is loaded and the input is in memory, before the store is
opened: peak_rss_kb - loaded_rss_kb is what Tracker itself added.

Stack: Tracker 3.4's SPARQL translator recurses once per triples block of an INSERT DATA, so one
update with 100,000 resources overflows the default 8 MiB main-thread stack (SIGSEGV, ~150,000
frames deep). The script re-executes itself with RLIMIT_STACK raised to --stack-mb (default
1024; 0 keeps the inherited limit, to show the crash). Unused stack costs no memory.
Run with /usr/bin/python3 (the Debian interpreter that has gi).
"""

import os
import resource
import sys

DEFAULT_STACK_MB = 1024
STACK_ENV = "BENCH_TRACKER_STACK_RAISED"  # set on the re-executed process, so it happens once


def requested_stack_mb(argv):
    """--stack-mb is needed before argparse runs: the re-exec must precede every heavy import,
    because ru_maxrss survives execve and would carry the first process's peak over."""
    for k, arg in enumerate(argv):
        if arg == "--stack-mb" and k + 1 < len(argv) and argv[k + 1].isdigit():
            return int(argv[k + 1])
        if arg.startswith("--stack-mb=") and arg[len("--stack-mb="):].isdigit():
            return int(arg[len("--stack-mb="):])
    return DEFAULT_STACK_MB


def ensure_stack(stack_mb):
    """Re-executes this script with a larger stack limit (see the module comment)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    want = stack_mb * 1024 * 1024
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if stack_mb == 0 or os.environ.get(STACK_ENV):
        return
    if soft == resource.RLIM_INFINITY or soft >= want:
        return
    resource.setrlimit(resource.RLIMIT_STACK, (want, hard))
    os.environ[STACK_ENV] = "1"
    os.execv(sys.executable, [sys.executable] + sys.argv)


ensure_stack(requested_stack_mb(sys.argv))
BASELINE_RSS_KB = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # before anything heavy

import argparse  # noqa: E402  (imported after the baseline on purpose)
import re  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import gi  # noqa: E402

gi.require_version("Tracker", "3.0")
from gi.repository import Gio, GLib, Tracker  # noqa: E402

DESERIALIZE_GRAPH = "urn:bench:graph"
COUNT_PIECES = ("SELECT (COUNT(?p) AS ?n) WHERE { ?p a "
                "<http://tracker.api.gnome.org/ontology/v3/nmm#MusicPiece> }")


def stack_mb_now():
    soft = resource.getrlimit(resource.RLIMIT_STACK)[0]
    return -1 if soft == resource.RLIM_INFINITY else soft // (1024 * 1024)


def read_header(text, path):
    """n and triples from gen_music.py's first line (`# gen_music n=… triples=…`)."""
    match = re.match(r"#\s*gen_music n=(\d+) .*?triples=(\d+)", text)
    if not match:
        sys.exit("tracker_import: %s has no gen_music header line" % path)
    return int(match.group(1)), int(match.group(2))


def load_update(connection, text):
    connection.update(text, None)


def load_batch(connection, text):
    batch = connection.create_batch()
    batch.add_sparql(text)
    batch.execute(None)


def read_chunks(path, chunk):
    """Splits gen_music's one INSERT DATA (one resource per line) into updates of `chunk` lines,
    kept as UTF-8 bytes: a Python str with one emoji is UCS-4 (4 bytes a character), and 120 MB
    of Python strings would hide Tracker's own memory. Each is decoded just before add_sparql."""
    prefixes, updates, body = [], [], []

    def flush():
        updates.append(b"".join(prefixes) + b"INSERT DATA {\n" + b"".join(body) + b"}\n")
        body.clear()

    with open(path, "rb") as handle:
        for line in handle:
            if line.startswith(b"PREFIX "):
                prefixes.append(line)
            elif line.startswith(b"<"):
                body.append(line)
                if len(body) == chunk:
                    flush()
    if body:
        flush()
    if not prefixes or not updates:
        sys.exit("tracker_import: batch-chunks needs gen_music's SPARQL layout")
    return updates


def load_batch_chunks(connection, updates):
    batch = connection.create_batch()
    for update in updates:
        batch.add_sparql(update.decode("utf-8"))  # the batch keeps its own copy
    batch.execute(None)


def load_deserialize(connection, path):
    """deserialize_async has no sync twin; a private main loop waits for it."""
    loop = GLib.MainLoop()
    outcome = {}

    def done(conn, result):
        try:
            outcome["ok"] = conn.deserialize_finish(result)
        except GLib.Error as error:
            outcome["error"] = error
        loop.quit()

    # 3.4's typelib spells the members DESERIALIZE_FLAGS_NONE / RDF_FORMAT_TURTLE, and marks
    # default_graph not nullable, so the default graph cannot be chosen from Python ("" lands
    # in a blank-node graph with a warning): the data goes to the named graph DESERIALIZE_GRAPH.
    turtle = getattr(Tracker.RdfFormat, "TURTLE", None) or Tracker.RdfFormat.RDF_FORMAT_TURTLE
    stream = Gio.File.new_for_path(path).read(None)
    connection.deserialize_async(Tracker.DeserializeFlags(0), turtle, DESERIALIZE_GRAPH, stream,
                                 None, done)
    loop.run()
    if "error" in outcome:
        raise outcome["error"]


def count_pieces(connection):
    cursor = connection.query(COUNT_PIECES, None)
    if not cursor.next(None):
        return -1
    value = cursor.get_integer(0)
    cursor.close()
    return value


def dir_size_kb(path):
    total = 0
    for root, _, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total // 1024


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="gen_music.py output (sparql, or turtle for deserialize)")
    parser.add_argument("--method", default="update",
                        choices=["update", "batch", "batch-chunks", "deserialize"])
    parser.add_argument("--chunk", type=int, default=1000,
                        help="resources per update for batch-chunks (default 1000)")
    parser.add_argument("--stack-mb", type=int, default=DEFAULT_STACK_MB,
                        help="main-thread stack limit to run with (default 1024, 0 = inherit)")
    parser.add_argument("--store-parent", default=None,
                        help="directory to create the fresh store in (default $TMPDIR)")
    parser.add_argument("--keep", action="store_true", help="keep the store directory")
    return parser.parse_args()


def run(args, store_dir):
    with open(args.file, encoding="utf-8") as handle:
        # deserialize and batch-chunks stream the file: only its header line is read here.
        whole = args.method in ("update", "batch")
        text = handle.read() if whole else handle.readline()
    n, triples = read_header(text, args.file)
    if args.method == "batch-chunks":
        text = read_chunks(args.file, args.chunk)
    loaded_rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    start = time.perf_counter()
    connection = Tracker.SparqlConnection.new(Tracker.SparqlConnectionFlags.NONE,
                                              Gio.File.new_for_path(store_dir),
                                              Tracker.sparql_get_ontology_nepomuk(), None)
    open_seconds = time.perf_counter() - start

    try:
        cpu_before = cpu_seconds()
        start = time.perf_counter()
        if args.method == "update":
            load_update(connection, text)
        elif args.method == "batch":
            load_batch(connection, text)
        elif args.method == "batch-chunks":
            load_batch_chunks(connection, text)
        else:
            load_deserialize(connection, args.file)
        seconds = time.perf_counter() - start
        cpu = cpu_seconds() - cpu_before
        peak_rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        found = count_pieces(connection)
    finally:
        connection.close()  # before the caller removes the directory
    if found != n:
        sys.exit("tracker_import: expected %d nmm:MusicPiece, found %d" % (n, found))
    print("tracker3.4 import n=%d triples=%d seconds=%.3f triples_per_s=%.0f peak_rss_kb=%d "
          "method=%s open_seconds=%.3f cpu_seconds=%.3f baseline_rss_kb=%d loaded_rss_kb=%d "
          "store_kb=%d stack_mb=%d" % (n, triples, seconds, triples / seconds, peak_rss_kb,
                                       args.method, open_seconds, cpu, BASELINE_RSS_KB,
                                       loaded_rss_kb, dir_size_kb(store_dir), stack_mb_now()),
          flush=True)


def main():
    args = parse_args()
    store_dir = tempfile.mkdtemp(prefix="tracker-import-", dir=args.store_parent)
    try:
        run(args, store_dir)
    except GLib.Error as error:
        sys.exit("tracker_import: %s failed: %s" % (args.method, error.message))
    finally:
        if args.keep:
            print("tracker_import: store kept in %s" % store_dir, file=sys.stderr)
        else:
            shutil.rmtree(store_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
