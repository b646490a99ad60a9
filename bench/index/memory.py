#!/usr/bin/python3
"""bench/index: memory of every process while indexing CORPUS and then answering queries,
Quarry (with each SQLite mmap_size setting asked for) and Tracker 3.4 in one run (README.md
"Memory: Rss and Pss"). Every 100 ms each live process's /proc/PID/smaps_rollup is read: Rss
counts a file page once per mapping that holds it (every SQLite connection of quarry-store maps
meta.db itself), Pss shares each page among its mappings, so a page mapped by five connections
counts once in all; Pss_File is that part of Pss which is file-backed (page cache). Prints per
process the peak Rss, Pss and Pss_File and the peak of the sum over the system's processes
(dbus-daemon left out), for the index (start to idle) and the query phase after it: QUERY_THREADS
threads each running QUERIES through the bus, ROUNDS times, whose median time is printed beside.

Usage: memory.py --build BUILD --corpus CORPUS --work WORK [--setting NAME=READERS,WRITER]...
       [--run LABEL=BUILD[:EXTRACT-ARGS[:VAR=VALUE,...[:STORE-ARGS]]]]... [--no-tracker]
       [--hold-idle SECONDS] [--smaps]
(READERS and WRITER in bytes: QUARRY_MMAP_SIZE and QUARRY_WRITER_MMAP_SIZE of quarry-store;
"default" for the build's own default. Each --run measures Quarry from another build folder
(laid out as a build tree: store/daemon/quarry-store, extract/quarry-extract,
miner-fs/quarry-miner-fs), quarry-extract started with EXTRACT-ARGS (space-separated, e.g.
"--workers 1"), the services' environment extended by the VAR=VALUE pairs (e.g.
QUARRY_MALLOC=glibc) and quarry-store started with STORE-ARGS (e.g. "--readers 2"); with --run,
--setting is not used. The time table gives the CPU seconds of each process from start to idle. Besides the index and query phases, "idle"
is one sample IDLE_S after idle, before the queries. --smaps also prints, for each process of
the index phase, where its memory is at its peak Pss: /proc/PID/smaps summed by mapping (heap,
anonymous, each file), Rss / Pss / Private_Dirty, largest first; for a name with several
processes (the extract workers) the one with the highest peak.)
"""
import argparse
import ctypes
import os
import statistics
import threading
import time

from gi.repository import GLib

import index_bench as bench

SAMPLE_S = 0.1
IDLE_S = 2.0
QUERY_THREADS = 4
ROUNDS = 3
QUERIES = [
    "SELECT ?u ?n ?s ?m WHERE { ?f a nfo:FileDataObject ; nie:url ?u ; nfo:fileName ?n ; "
    "nfo:fileSize ?s ; nfo:fileLastModified ?m }",
    "SELECT ?t (COUNT(?f) AS ?c) WHERE { ?f a nfo:FileDataObject ; nie:mimeType ?t } GROUP BY ?t",
    "SELECT ?f ?n WHERE { ?f a nfo:FileDataObject ; nfo:fileName ?n FILTER (CONTAINS(?n, \"7\")) }",
]


def smaps_rollup(pid):
    """{field: MiB} of /proc/PID/smaps_rollup."""
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            key, _, value = line.partition(":")
            parts = value.split()
            if len(parts) == 2 and parts[1] == "kB":
                fields[key] = int(parts[0]) / 1024
    return fields


def smaps_by_mapping(pid):
    """{mapping: {"rss", "pss", "dirty"}} in MiB from /proc/PID/smaps, summed by mapping name
    ("[anon]" for anonymous mappings without a name)."""
    mappings, current = {}, None
    with open(f"/proc/{pid}/smaps") as smaps:
        for line in smaps:
            first = line.split(None, 1)[0]
            if "-" in first and not first.endswith(":"):
                parts = line.split(None, 5)
                name = parts[5].strip() if len(parts) > 5 else "[anon]"
                current = mappings.setdefault(name, {"rss": 0.0, "pss": 0.0, "dirty": 0.0})
                continue
            key = first[:-1]
            if current is not None and key in ("Rss", "Pss", "Private_Dirty"):
                current[{"Rss": "rss", "Pss": "pss", "Private_Dirty": "dirty"}[key]] += \
                    int(line.split()[1]) / 1024
    return mappings


class Sampler:
    """Peak Rss, Pss and Pss_File of every process the harness's Accounting knows (by name,
    instances of one name summed per sample), and the peak of their sum."""

    def __init__(self, accounting, skip=("dbus-daemon",), smaps=False):
        self.accounting, self.skip, self.smaps = accounting, set(skip), smaps
        # (label, name) -> (peak Pss of one process, its smaps_by_mapping), index phase only
        self.mappings = {}
        self.phase = None
        self.peaks = {}  # phase -> {name: {"rss", "pss", "pss_file"}}; "(sum)" for the total
        self.stopped = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stopped:
            self.sample()
            time.sleep(SAMPLE_S)

    def sample(self):
        phase = self.phase
        if phase is None:
            return
        with self.accounting.lock:
            names = dict(self.accounting.names)
        now = {}
        for pid, name in names.items():
            if name in self.skip or name in self.accounting.ignore:
                continue
            try:
                fields = smaps_rollup(pid)
            except (OSError, ValueError):
                continue
            if self.smaps and phase[1] == "index":
                best = self.mappings.get((phase[0], name))
                if best is None or fields.get("Pss", 0.0) > best[0]:
                    try:
                        self.mappings[(phase[0], name)] = (fields.get("Pss", 0.0), smaps_by_mapping(pid))
                    except (OSError, ValueError):
                        pass
            entry = now.setdefault(name, {"rss": 0.0, "pss": 0.0, "pss_file": 0.0})
            entry["rss"] += fields.get("Rss", 0.0)
            entry["pss"] += fields.get("Pss", 0.0)
            entry["pss_file"] += fields.get("Pss_File", 0.0) + fields.get("Pss_Shmem", 0.0)
        if not now:
            return
        now["(sum)"] = {key: sum(entry[key] for entry in now.values()) for key in ("rss", "pss", "pss_file")}
        peaks = self.peaks.setdefault(phase, {})
        for name, entry in now.items():
            peak = peaks.setdefault(name, {"rss": 0.0, "pss": 0.0, "pss_file": 0.0})
            for key, value in entry.items():
                peak[key] = max(peak[key], value)


def run_queries(system):
    """QUERY_THREADS threads, each running QUERIES ROUNDS times on its own bus connection;
    the seconds of each query (Quarry: Resources.SparqlQuery; Tracker: a bus cursor)."""
    times = {query: [] for query in QUERIES}
    lock = threading.Lock()

    def worker():
        if isinstance(system, bench.TrackerRun):
            from gi.repository import Gio, Tracker
            connection = Gio.DBusConnection.new_for_address_sync(
                system.bus.address,
                Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
                None, None)
            sparql = Tracker.SparqlConnection.bus_new(system.MINER, None, connection)

            def ask(query):
                cursor = sparql.query(query, None)
                rows = 0
                while cursor.next(None):
                    rows += 1
                cursor.close()
                return rows
        else:
            from gi.repository import Gio
            connection = Gio.DBusConnection.new_for_address_sync(
                system.bus.address,
                Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
                None, None)

            def ask(query):
                result = connection.call_sync("org.quarry.Store1", "/org/quarry/Store1",
                                              "org.quarry.Store1.Resources", "SparqlQuery",
                                              GLib.Variant("(s)", (query,)), GLib.VariantType.new("(aas)"),
                                              Gio.DBusCallFlags.NO_AUTO_START, 60000, None)
                return len(result.unpack()[0])
        for _ in range(ROUNDS):
            for query in QUERIES:
                start = time.monotonic()
                ask(query)
                with lock:
                    times[query].append(time.monotonic() - start)

    threads = [threading.Thread(target=worker) for _ in range(QUERY_THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {query: statistics.median(values) for query, values in times.items()}


def measure(system, sampler, timeout, hold_s=0.0):
    sampler.phase = (system.label, "index")
    start = time.monotonic()
    system.start_services()
    system.start_miner()
    idle_s = bench.wait_idle(system.idle, start, timeout, work_since=start)
    sampler.sample()
    at_idle = system.accounting.snapshot()  # CPU s of the index phase
    cpu = {name: values[0] for name, values in at_idle.items() if name != "dbus-daemon"}
    time.sleep(IDLE_S)
    if hold_s:
        print(f"{system.label}: idle, holding {hold_s:.0f} s", flush=True)
        time.sleep(hold_s)
    sampler.phase = (system.label, "idle")
    sampler.sample()
    sampler.phase = (system.label, "queries")
    sampler.sample()
    times = run_queries(system)
    sampler.sample()
    sampler.phase = None
    snapshot = system.accounting.snapshot()
    return idle_s, times, snapshot, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build")
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--setting", action="append", default=[],
                        help="NAME=READERS,WRITER (bytes, or 'default'); repeatable")
    parser.add_argument("--run", action="append", default=[],
                        help="LABEL=BUILD[:EXTRACT-ARGS[:VAR=VALUE,...[:STORE-ARGS]]]; repeatable, instead of --setting")
    parser.add_argument("--no-tracker", action="store_true")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--smaps", action="store_true",
                        help="print each process's memory by mapping at its peak Pss while indexing")
    parser.add_argument("--hold-idle", type=float, default=0.0,
                        help="seconds to wait at idle before the queries (to look at the processes)")
    args = parser.parse_args()
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER, as index_bench.py
    corpus = os.path.realpath(args.corpus)
    accounting = bench.Accounting()
    sampler = Sampler(accounting, smaps=args.smaps)
    settings = args.setting or ["default=default,default"]
    runs = []  # (label, build, extract args, env)
    for run in args.run:
        label, _, spec = run.partition("=")
        build, _, rest = spec.partition(":")
        extract_args, _, rest = rest.partition(":")
        env, _, store_args = rest.partition(":")
        runs.append((label, build, extract_args.split(),
                     dict(pair.split("=", 1) for pair in env.split(",") if pair), store_args.split()))
    if not runs:
        if not args.build:
            parser.error("--build or --run is needed")
        for setting in settings:
            label, _, values = setting.partition("=")
            readers, _, writer = values.partition(",")
            env = {variable: value for variable, value in (("QUARRY_MMAP_SIZE", readers),
                                                           ("QUARRY_WRITER_MMAP_SIZE", writer))
                   if value and value != "default"}
            runs.append((label, args.build, [], env, []))
    results = []
    for label, build, extract_args, env, store_args in runs:
        accounting.reset()
        system = bench.QuarryRun(build, corpus, os.path.join(args.work, "quarry-" + label), accounting)
        system.label = "Quarry " + label
        system.env.update(env)
        if extract_args or store_args:
            spawn = system.spawn

            def spawn_with_args(binary, *spawn_args, spawn=spawn, extract_args=extract_args,
                                store_args=store_args):
                if binary == "extract/quarry-extract":
                    spawn_args = (*spawn_args, *extract_args)
                elif binary == "store/daemon/quarry-store":
                    spawn_args = (*spawn_args, *store_args)
                return spawn(binary, *spawn_args)
            system.spawn = spawn_with_args
        try:
            results.append((system.label, *measure(system, sampler, args.timeout, args.hold_idle)))
        finally:
            system.close()
    if not args.no_tracker:
        accounting.reset()
        system = bench.TrackerRun(corpus, os.path.join(args.work, "tracker"), accounting)
        system.label = "Tracker 3.4"
        try:
            results.append((system.label, *measure(system, sampler, args.timeout)))
        finally:
            system.close()
    sampler.stopped = True
    files = sum(len(names) for _, _, names in os.walk(corpus))
    print(f"\n{files} files; MiB, peaks sampled every {SAMPLE_S * 1000:.0f} ms (Rss / Pss / Pss_File)\n")
    print("| system | process | index: Rss | Pss | Pss_File | idle: Rss | Pss | Pss_File "
          "| queries: Rss | Pss | Pss_File | VmHWM |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for label, idle_s, _, snapshot, _ in results:
        index = sampler.peaks.get((label, "index"), {})
        idle = sampler.peaks.get((label, "idle"), {})
        queries = sampler.peaks.get((label, "queries"), {})
        for name in sorted(set(index) | set(queries), key=lambda n: (n == "(sum)", n)):
            cells = []
            for phase in (index, idle, queries):
                peak = phase.get(name)
                cells += [f"{peak['rss']:.0f}", f"{peak['pss']:.0f}", f"{peak['pss_file']:.0f}"] if peak else ["", "", ""]
            hwm = snapshot.get(name, (0, 0))[1] if name != "(sum)" else 0
            print(f"| {label} | {name} | " + " | ".join(cells) + f" | {hwm:.0f} |" if hwm else
                  f"| {label} | {name} | " + " | ".join(cells) + " | |")
    print("\n| system | time to idle | CPU s to idle (all but dbus-daemon) | CPU s per process | "
          + " | ".join(f"Q{i + 1} median s" for i in range(len(QUERIES))) + " |")
    print("|---|---|---|---|" + "---|" * len(QUERIES))
    for label, idle_s, times, _, cpu in results:
        print(f"| {label} | {idle_s:.2f} s | {sum(cpu.values()):.1f} | "
              + ", ".join(f"{name} {cpu[name]:.1f}" for name in sorted(cpu)) + " | "
              + " | ".join(f"{times[q]:.3f}" for q in QUERIES) + " |")
    print()
    if args.smaps:
        print("Where the memory is at each process's peak Pss while indexing (smaps by mapping, "
              "MiB, the largest 8 by Pss)\n")
        print("| system | process | mapping | Rss | Pss | Private_Dirty |")
        print("|---|---|---|---|---|---|")
        for (label, name), (_, mappings) in sorted(sampler.mappings.items()):
            ranked = sorted(mappings.items(), key=lambda item: -item[1]["pss"])
            for mapping, values in ranked[:8]:
                print(f"| {label} | {name} | {os.path.basename(mapping) or mapping} | "
                      f"{values['rss']:.1f} | {values['pss']:.1f} | {values['dirty']:.1f} |")
            rest = ranked[8:]
            print(f"| {label} | {name} | (the other {len(rest)}) | "
                  f"{sum(v['rss'] for _, v in rest):.1f} | {sum(v['pss'] for _, v in rest):.1f} | "
                  f"{sum(v['dirty'] for _, v in rest):.1f} |")
        print()
    for i, query in enumerate(QUERIES):
        print(f"Q{i + 1}: `{query}`")


if __name__ == "__main__":
    main()
