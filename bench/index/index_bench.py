#!/usr/bin/python3
"""bench/index: initial indexing, no-change restart and change-to-query latency of Quarry
(quarry-store + quarry-miner-fs + quarry-extract) and Tracker 3.4 (tracker-miner-fs-3 +
tracker-extract-3), each on its own private bus with its own XDG dirs, on the same gen-corpus
tree in the same run (issue 5 "Benchmark"). Prints a Markdown table of both and their ratios.

Each system's row is also saved as WORK/<system>.json, so the two systems can be measured in
separate calls (--systems quarry, then --systems tracker) and tabled together (--table-only).

Run through bench/index/run; /usr/bin/python3 because Tracker's bindings (gi) live there.
"""
import argparse
import ctypes
import json
import os
import shutil
import signal
import statistics
import stat
import subprocess
import sys
import threading
import time

import gi

gi.require_version("Tracker", "3.0")
from gi.repository import Gio, GLib, Tracker  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")
SAMPLE_S = 0.05       # process accounting samples
IDLE_POLL_S = 0.02    # initial-index idle checks (of the Progress signals seen: no bus call)
EXTRACT_POLL_S = 0.1  # quarry-extract has no Progress signal: its GetStatus, once the miner is Idle
IDLE_HOLD_S = 1.0     # ... idle must hold this long (reported at its start)
RESTARTS = 9


def read_stat(pid):
    """(ppid, state, own CPU ticks, reaped children's CPU ticks) from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[1]), fields[0], int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])


def process_name(pid):
    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
        argv = cmdline.read().split(b"\0")
    name = os.path.basename(argv[0].decode(errors="replace")) or "?"
    return name + " (workers)" if b"--worker" in argv else name


def rss_mib(pid):
    """(VmHWM, RssAnon, RssFile + RssShmem) in MiB: the peak, and the current anonymous and
    file-backed parts (mmap'ed database pages are file-backed: page cache shared with every
    process that reads the file, dropped first under memory pressure)."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmHWM", "RssAnon", "RssFile", "RssShmem"):
                fields[key] = int(value.split()[0]) / 1024
    return (fields.get("VmHWM", 0.0), fields.get("RssAnon", 0.0),
            fields.get("RssFile", 0.0) + fields.get("RssShmem", 0.0))


class Accounting:
    """CPU seconds and peak RSS of every process the harness starts, directly or not: the
    harness is a child subreaper, so double-forked daemons and D-Bus-activated services
    (tracker-extract-3) end up as its descendants, and the ones that exit are reaped here with
    wait4, whose rusage includes their own reaped children. A live process counts its own CPU
    plus its reaped children's (cutime/cstime: quarry-extract's replaced workers); its live
    children are counted as themselves. Peak RSS is VmHWM sampled every 50 ms (ru_maxrss for
    a process reaped here)."""

    def __init__(self, ignore=("find", "gsettings", "uptime", "python3")):
        self.me = os.getpid()
        self.ignore = set(ignore)
        self.lock = threading.Lock()
        self.own = set()       # pids whose exit the harness waits for itself (Popen)
        self.names = {}        # pid -> name (cached while the pid lives)
        self.live = {}         # name -> {pid: cpu s}
        self.exited = {}       # name -> cpu s of processes reaped here
        self.peak = {}         # name -> MiB
        self.peak_anon = {}    # name -> MiB, the largest RssAnon sampled (one process)
        self.peak_file = {}    # name -> MiB, the largest RssFile + RssShmem sampled
        self.instances = {}    # name -> set of pids seen
        self.stopped = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def reset(self):
        with self.lock:
            self.live, self.exited, self.peak, self.instances = {}, {}, {}, {}
            self.peak_anon, self.peak_file = {}, {}

    def _run(self):
        while not self.stopped:
            self.sample()
            time.sleep(SAMPLE_S)

    def _record_exit(self, pid, usage):
        name = self.names.pop(pid, None)
        if not name or name in self.ignore:
            return
        cpu = usage.ru_utime + usage.ru_stime
        self.exited[name] = self.exited.get(name, 0.0) + cpu
        self.peak[name] = max(self.peak.get(name, 0.0), usage.ru_maxrss / 1024)
        self.instances.setdefault(name, set()).add(pid)
        for pids in self.live.values():
            pids.pop(pid, None)

    def sample(self):
        with self.lock:
            parents, states = {}, {}
            for entry in os.listdir("/proc"):
                if not entry.isdigit():
                    continue
                pid = int(entry)
                try:
                    ppid, state, own, children = read_stat(pid)
                except (OSError, ValueError, IndexError):
                    continue
                parents[pid] = ppid
                states[pid] = (state, own, children)
            descendants, frontier = set(), {self.me}
            while frontier:
                frontier = {pid for pid, ppid in parents.items() if ppid in frontier} - descendants
                descendants |= frontier
            live = {}
            for pid in descendants:
                state, own, children = states[pid]
                if state != "Z":
                    # Read again each time: a forked worker is named after its exec.
                    try:
                        name = process_name(pid)
                    except OSError:
                        continue
                    if name != "?":
                        self.names[pid] = name
                if pid not in self.names:
                    continue  # never seen alive (a short subprocess.run): not ours to reap
                name = self.names[pid]
                if state == "Z" and parents[pid] == self.me and pid not in self.own and name not in self.ignore:
                    try:
                        reaped, _, usage = os.wait4(pid, os.WNOHANG)
                    except ChildProcessError:
                        continue
                    if reaped == pid:
                        self._record_exit(pid, usage)
                    continue
                if name in self.ignore:
                    continue
                live.setdefault(name, {})[pid] = (own + children) / CLK_TCK
                self.instances.setdefault(name, set()).add(pid)
                if state != "Z":
                    try:
                        hwm, anon, mapped = rss_mib(pid)
                        self.peak[name] = max(self.peak.get(name, 0.0), hwm)
                        self.peak_anon[name] = max(self.peak_anon.get(name, 0.0), anon)
                        self.peak_file[name] = max(self.peak_file.get(name, 0.0), mapped)
                    except OSError:
                        pass
            self.live = live
            for pid in list(self.names):
                if pid not in descendants:
                    del self.names[pid]

    def track(self, process):
        """A Popen child the harness waits for itself (through wait())."""
        with self.lock:
            self.own.add(process.pid)
        return process

    def wait(self, process):
        """Waits for a tracked Popen child and accounts for it (instead of process.wait())."""
        _, status, usage = os.wait4(process.pid, 0)
        with self.lock:
            self.own.discard(process.pid)
            self._record_exit(process.pid, usage)
        process.returncode = os.waitstatus_to_exitcode(status)

    def snapshot(self):
        """{name: (CPU s, peak RSS MiB, processes, peak anonymous MiB, peak file-backed MiB)}
        since the last reset (the last two sampled every 50 ms)."""
        self.sample()
        with self.lock:
            names = set(self.live) | set(self.exited)
            return {name: (sum(self.live.get(name, {}).values()) + self.exited.get(name, 0.0),
                           self.peak.get(name, 0.0), len(self.instances.get(name, ())),
                           self.peak_anon.get(name, 0.0), self.peak_file.get(name, 0.0))
                    for name in sorted(names)}


def tree_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


class Bus:
    """A private dbus-daemon started with `env`, so activated services inherit it. Calls never
    auto-start a service (a status poll would otherwise D-Bus-activate a stopped Tracker miner).
    Progress signals of `miner_interface` (any object) are timestamped as they arrive (a GLib
    main loop thread)."""

    def __init__(self, work, env, accounting, miner_interface):
        os.makedirs(work, exist_ok=True)
        self.accounting = accounting
        self.process = accounting.track(subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", f"--address=unix:dir={work}", "--print-address=1"],
            stdout=subprocess.PIPE, env=env, text=True))
        self.address = self.process.stdout.readline().strip()
        self.connection = Gio.DBusConnection.new_for_address_sync(
            self.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)
        self.progress = []  # (monotonic time, object path, status)
        self.progress_changed = threading.Condition()
        self.connection.signal_subscribe(None, miner_interface, "Progress", None, None,
                                         Gio.DBusSignalFlags.NONE, self._on_progress, None)
        self.loop = GLib.MainLoop()
        threading.Thread(target=self.loop.run, daemon=True).start()

    def _on_progress(self, _connection, _sender, path, _interface, _member, parameters, _data):
        now = time.monotonic()
        with self.progress_changed:
            self.progress.append((now, path, parameters.unpack()[0]))
            self.progress_changed.notify_all()

    def last_progress(self, path):
        """The status of the last Progress signal of `path`, None before any."""
        with self.progress_changed:
            return next((value for _, where, value in reversed(self.progress) if where == path), None)

    def progress_seen(self, path, since, predicate):
        with self.progress_changed:
            return any(when >= since and where == path and predicate(value) for when, where, value in self.progress)

    def wait_progress(self, path, status, since, timeout):
        """Arrival time of the first Progress(status) signal of `path` after `since`."""
        deadline = time.monotonic() + timeout
        with self.progress_changed:
            while True:
                for when, where, value in self.progress:
                    if when >= since and where == path and value == status:
                        return when
                left = deadline - time.monotonic()
                if left <= 0:
                    sys.exit(f"no Progress({status}) signal before the timeout")
                self.progress_changed.wait(left)

    def call(self, name, path, interface, method, args=None, reply="(s)"):
        result = self.connection.call_sync(name, path, interface, method, args,
                                           GLib.VariantType.new(reply) if reply else None,
                                           Gio.DBusCallFlags.NO_AUTO_START, 5000, None)
        return result.unpack() if result else None

    def owner_pid(self, name):
        try:
            return self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                             "GetConnectionUnixProcessID", GLib.Variant("(s)", (name,)), "(u)")[0]
        except GLib.Error:
            return None

    def wait_for(self, name, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.owner_pid(name):
                return
            time.sleep(0.005)
        sys.exit(f"{name} did not appear on the bus")

    def close(self):
        self.loop.quit()
        self.connection.close_sync(None)
        self.process.terminate()
        self.accounting.wait(self.process)


def wait_idle(is_idle, since, timeout, work_since=None):
    """Seconds from `since` until is_idle(work_since) started to hold for IDLE_HOLD_S (checked
    every 20 ms; is_idle reads the Progress signals received, see QuarryRun/TrackerRun.idle)."""
    first = None
    while time.monotonic() - since < timeout:
        now = time.monotonic()
        if is_idle(work_since):
            first = first or now
            if now - first >= IDLE_HOLD_S:
                return first - since
        else:
            first = None
        time.sleep(IDLE_POLL_S)
    sys.exit("not idle before the timeout")


def wait_quiet(accounting, timeout=30.0):
    """Seconds until the system's processes used less than 0.02 CPU-s in half a second: work a
    store defers to its idle time (quarry-store's full-text merges since 2026-12-03) is done
    before the restarts, as it is long before the next login's restart."""
    def total():
        return sum(value[0] for value in accounting.snapshot().values())
    start = time.monotonic()
    before = total()
    while time.monotonic() - start < timeout:
        time.sleep(0.5)
        now = total()
        if now - before < 0.02:
            return time.monotonic() - start
        before = now
    return float("nan")


def latency(write, count, expected, timeout=30.0):
    """Seconds from write() until count() == expected, polled every 5 ms."""
    start = time.monotonic()
    write()
    while time.monotonic() - start < timeout:
        if count() == expected:
            return time.monotonic() - start
        time.sleep(0.005)
    return float("nan")


def write_files(folder, prefix, n):
    os.makedirs(folder, exist_ok=True)
    for i in range(n):
        with open(os.path.join(folder, f"{prefix}-{i}.txt"), "w") as out:
            out.write(f"latency probe {prefix} {i}\n")


class QuarryRun:
    """quarry-store, quarry-extract (when built) and quarry-miner-fs on a private bus. The
    config matches the Tracker settings below: no CPU budget (Tracker's throttle 0), indexing
    on battery."""

    MINER = "org.quarry.Miner.Files"
    MINER_PATH = "/org/quarry/Miner/Files"

    def __init__(self, build, corpus, work, accounting):
        self.build, self.corpus, self.work, self.accounting = build, corpus, work, accounting
        shutil.rmtree(work, ignore_errors=True)
        # $XDG_CONFIG_HOME/quarry/quarry.toml: the miner gets it as --config, quarry-extract
        # reads it from there (its [throttle]); before 2026-12-01 13:20 the file was one level
        # up, so the extractor ran its workers at the default 60% of a core.
        os.makedirs(os.path.join(work, "config", "quarry"))
        self.config = os.path.join(work, "config", "quarry", "quarry.toml")
        with open(self.config, "w") as config:
            config.write("[throttle]\ncpu_percent = 100\npause_on_battery = false\n")
            # INDEX_TEXT_ALLOWLIST='["*"]' (a TOML array): quarry-extract's [extract]
            # text_allowlist; unset, its default, which keeps the text of the names Tracker
            # 3.4's text-allowlist keeps (*.txt, *.md, ...), not source code or data files.
            if os.environ.get("INDEX_TEXT_ALLOWLIST"):
                config.write(f"[extract]\ntext_allowlist = {os.environ['INDEX_TEXT_ALLOWLIST']}\n")
        # A runtime folder as in a desktop session (Tracker's run has one too): the miner and the
        # extractor reach quarry-store through its peer socket there (docs/peer-socket.md).
        runtime = os.path.join(work, "runtime")
        os.makedirs(runtime, mode=0o700)
        self.env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"),
                        XDG_CACHE_HOME=os.path.join(work, "cache"), XDG_RUNTIME_DIR=runtime)
        self.bus = Bus(os.path.join(work, "bus"), self.env, accounting, "org.quarry.Miner")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.bus.address
        self.db = os.path.join(work, "db")
        self.log = open(os.path.join(work, "services.log"), "w")
        self.store = self.extract = self.miner = None
        self.extract_polled, self.extract_idle = 0.0, False
        self.has_extract = os.path.exists(os.path.join(build, "extract/quarry-extract"))

    def spawn(self, binary, *args):
        return self.accounting.track(subprocess.Popen([os.path.join(self.build, binary), *args],
                                                      env=self.env, stdout=self.log, stderr=subprocess.STDOUT))

    def start_services(self):
        """The store and the extractor, which stay up across miner restarts."""
        self.store = self.spawn("store/daemon/quarry-store", "--database", self.db)
        if self.has_extract:
            self.extract = self.spawn("extract/quarry-extract")
        self.bus.wait_for("org.quarry.Store1")
        if self.has_extract:
            self.bus.wait_for("org.quarry.Extract1")
            # The config reached it (it once did not: workers throttled to 60% of a core).
            status = self.bus.call("org.quarry.Extract1", "/org/quarry/Extract1", "org.quarry.Extract1",
                                   "GetStatus", reply="(a{sv})")[0]
            if status.get("cpu_percent") != 100:
                sys.exit(f"quarry-extract runs at cpu_percent {status.get('cpu_percent')}, not 100: "
                         f"{self.config} was not read")

    def start_miner(self, *extra):
        self.miner = self.spawn("miner-fs/quarry-miner-fs", "--config", self.config, "--folder", self.corpus, *extra)
        return self.miner

    def miner_status(self):
        try:
            return self.bus.call(self.MINER, "/org/quarry/Miner/Files", "org.quarry.Miner", "GetStatus")[0]
        except GLib.Error:
            return None

    def idle(self, since=None):
        """Miner and extractor idle (the miner hands its files over before it reports Idle).
        The miner's state is its last Progress signal (sent on every state change), so waiting
        costs the bus nothing; quarry-extract sends no signal, so its GetStatus is called, every
        100 ms and only while the miner is Idle. (Until 2026-12-01 both were GetStatus calls
        every 20 ms: ~100 calls a second through dbus-daemon during the whole index.)"""
        if self.bus.last_progress(self.MINER_PATH) != "Idle":
            return False
        if not self.extract:
            return True
        now = time.monotonic()
        if now - self.extract_polled >= EXTRACT_POLL_S:
            status = self.bus.call("org.quarry.Extract1", "/org/quarry/Extract1", "org.quarry.Extract1",
                                   "GetStatus", reply="(a{sv})")[0]
            self.extract_polled = now
            self.extract_idle = status.get("state") == "idle" and status.get("queued", 0) == 0
        return self.extract_idle

    def count(self, sparql):
        rows = self.bus.call("org.quarry.Store1", "/org/quarry/Store1", "org.quarry.Store1.Resources",
                             "SparqlQuery", GLib.Variant("(s)", (sparql,)), "(aas)")[0]
        return int(rows[0][0]) if rows else 0

    def db_bytes(self):
        return tree_bytes(self.db)

    def stop_miner(self):
        self.miner.send_signal(signal.SIGTERM)
        self.accounting.wait(self.miner)

    def close(self):
        for process in (self.miner, self.extract, self.store):
            if process and process.poll() is None:
                process.terminate()
                self.accounting.wait(process)
        self.bus.close()


class TrackerRun:
    """tracker-miner-fs-3 (which D-Bus-activates tracker-extract-3) isolated in `work`
    (TRACKER3-BASELINE.md "Running Tracker 3 isolated")."""

    MINER = "org.freedesktop.Tracker3.Miner.Files"
    EXTRACT = "org.freedesktop.Tracker3.Miner.Extract"
    MINER_PATH = "/org/freedesktop/Tracker3/Miner/Files"
    EXTRACT_PATH = "/org/freedesktop/Tracker3/Miner/Extract"

    def __init__(self, corpus, work, accounting):
        self.corpus, self.work, self.accounting = corpus, work, accounting
        shutil.rmtree(work, ignore_errors=True)
        dirs = {key: os.path.join(work, key.lower()) for key in
                ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR", "TMPDIR")}
        for path in dirs.values():
            os.makedirs(path, mode=0o700)
        self.env = dict(os.environ, GSETTINGS_BACKEND="keyfile", **dirs)
        schema = "org.freedesktop.Tracker3.Miner.Files"
        for key, value in (("index-recursive-directories", f"['{corpus}']"), ("index-single-directories", "[]"),
                           ("index-applications", "false"), ("initial-sleep", "0"), ("throttle", "0"),
                           ("index-on-battery", "true"), ("index-removable-devices", "false")):
            subprocess.run(["gsettings", "set", schema, key, value], env=self.env, check=True)
        self.bus = Bus(os.path.join(work, "bus"), self.env, accounting, "org.freedesktop.Tracker3.Miner")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.bus.address
        self.log = open(os.path.join(work, "services.log"), "w")
        self.miner = None
        self.sparql = None

    def start_services(self):
        pass  # the store is inside tracker-miner-fs-3; the extractor is D-Bus-activated

    def start_miner(self, *extra):
        self.miner = self.accounting.track(subprocess.Popen(
            ["/usr/libexec/tracker-miner-fs-3", "--initial-sleep", "0", *extra],
            env=self.env, stdout=self.log, stderr=subprocess.STDOUT))
        return self.miner

    def status(self, name, path):
        try:
            return self.bus.call(name, path, "org.freedesktop.Tracker3.Miner", "GetStatus")[0]
        except GLib.Error:
            return None

    def miner_status(self):
        return self.status(self.MINER, "/org/freedesktop/Tracker3/Miner/Files")

    def idle(self, since=None):
        """Miner and extractor idle, from their last Progress signals (no bus call). The miner
        reports Idle before it D-Bus-activates the extractor (seconds later), so with `since`,
        the extractor must also have reported some work since then."""
        if self.bus.last_progress(self.MINER_PATH) != "Idle":
            return False
        if since is not None and not self.bus.progress_seen(self.EXTRACT_PATH, since, lambda s: s != "Idle"):
            return False
        return self.bus.last_progress(self.EXTRACT_PATH) in (None, "Idle")  # it quits after 10 s idle

    def count(self, sparql):
        if not self.sparql:
            self.sparql = Tracker.SparqlConnection.bus_new(self.MINER, None, self.bus.connection)
        cursor = self.sparql.query(sparql, None)
        value = int(cursor.get_integer(0)) if cursor.next(None) else 0
        cursor.close()
        return value

    def db_bytes(self):
        return tree_bytes(os.path.join(self.env["XDG_CACHE_HOME"], "tracker3"))

    def stop_miner(self):
        self.sparql = None
        self.miner.send_signal(signal.SIGTERM)
        self.accounting.wait(self.miner)

    def close(self):
        pid = self.bus.owner_pid(self.EXTRACT)
        if self.miner and self.miner.poll() is None:
            self.stop_miner()
        if pid:
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + 10
            while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
                self.accounting.sample()  # reaps it (the harness is its subreaper)
                time.sleep(0.02)
        self.bus.close()


# DISTINCT: Tracker has each file in two graphs once it is extracted.
FILES_QUERY = "SELECT (COUNT(DISTINCT ?f) AS ?c) WHERE { ?f a nfo:FileDataObject ; nie:url ?u FILTER (STRSTARTS(?u, \"%s\")) }"


def processes_row(snapshot):
    return {name: {"cpu_s": cpu, "peak_rss_mib": rss, "processes": count, "peak_anon_mib": anon,
                   "peak_file_mib": mapped}
            for name, (cpu, rss, count, anon, mapped) in snapshot.items()}


def measure(system, corpus, accounting, timeout):
    """The row of one system: initial index, latencies, no-change restarts."""
    row = {"load_before": os.getloadavg()}
    accounting.reset()
    start = time.monotonic()
    system.start_services()
    system.start_miner()
    row["idle_s"] = wait_idle(system.idle, start, timeout, work_since=start)
    # The CPU and memory of the initial index (the idle hold second costs next to nothing).
    row["processes"] = processes_row(accounting.snapshot())
    row["db_mb"] = system.db_bytes() / 1e6
    probe = os.path.join(corpus, "latency-probe")
    url = "file://" + probe
    row["one_file_s"] = latency(lambda: write_files(probe, "one", 1), lambda: system.count(FILES_QUERY % (url + "/one-")), 1)
    row["hundred_files_s"] = latency(lambda: write_files(probe, "many", 100),
                                     lambda: system.count(FILES_QUERY % (url + "/many-")), 100)
    wait_idle(system.idle, time.monotonic(), timeout)
    shutil.rmtree(probe)
    # The probe's removal is indexed before the restarts, so they find nothing to change.
    time.sleep(1.0)
    wait_idle(system.idle, time.monotonic(), timeout)
    system.stop_miner()
    row["quiet_wait_s"] = wait_quiet(accounting)
    # Once quiet the store has folded its write-ahead log (Quarry lets it grow to ~40 MB while
    # writing, Tracker to SQLite's ~4 MB): the database as it stays on disk.
    row["db_quiet_mb"] = system.db_bytes() / 1e6
    restarts = []
    for _ in range(RESTARTS):
        time.sleep(0.5)
        # `find` over the same tree just before each restart: the guest's speed drifts by a
        # quarter within minutes, so a ratio against `find` timed at another moment was noise.
        find_s = find_once(corpus)
        accounting.reset()
        since = time.monotonic()
        system.start_miner()
        idle_at = system.bus.wait_progress(system.MINER_PATH, "Idle", since, timeout)
        restarts.append({"s": idle_at - since, "miner_cpu_s": 0.0, "find_s": find_s})
        # Nothing may be left for the extractor either.
        wait_idle(system.idle, time.monotonic(), timeout)
        snapshot = accounting.snapshot()
        miner = next((name for name in snapshot if "miner" in name), None)
        restarts[-1]["miner_cpu_s"] = snapshot[miner][0] if miner else float("nan")
        system.stop_miner()
    row["restarts"] = restarts
    row["restart_s"] = statistics.median(r["s"] for r in restarts)
    row["find_s"] = statistics.median(r["find_s"] for r in restarts)
    row["load_after"] = os.getloadavg()
    return row


def set_page_cache(corpus, mode):
    """Puts the corpus files' contents in the page cache ("warm": each file read once) or out
    of it ("cold": posix_fadvise DONTNEED on each), so every system starts from the same state.
    Without it the first run of a call read a corpus the kernel had dropped since the last call
    (20,001 files, 770 MB: ~27 s to read cold here) and the next ones a warm one."""
    for folder, _, names in os.walk(corpus):
        for name in names:
            path = os.path.join(folder, name)
            try:
                if not stat.S_ISREG(os.lstat(path).st_mode):
                    continue  # a FIFO, socket or link of the hostile part: never opened
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            except OSError:
                continue  # unreadable on purpose (the hostile part): the indexers skip it too
            try:
                if mode == "warm":
                    while os.read(fd, 1 << 20):
                        pass
                else:
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def find_once(corpus):
    """Seconds of one `find CORPUS -printf '%T@ %p\\n'` (output discarded): the physical limit
    a no-change restart is compared with."""
    start = time.monotonic()
    subprocess.run(["find", corpus, "-printf", "%T@ %p\\n"], stdout=subprocess.DEVNULL, check=True)
    return time.monotonic() - start


def table(rows, files):
    quarry, tracker = rows.get("quarry"), rows.get("tracker")

    def cell(row, key, unit, digits=3):
        return f"{row[key]:.{digits}f} {unit}" if row and key in row else "-"

    def ratio(key):
        if not quarry or not tracker or not quarry.get(key) or not tracker.get(key):
            return "-"
        return f"{tracker[key] / quarry[key]:.1f}x"

    def total_cpu(row):
        return sum(p["cpu_s"] for name, p in row["processes"].items() if name != "dbus-daemon") if row else 0

    def restart_range(row):
        if not row:
            return "-"
        times = [r["s"] for r in row["restarts"]]
        return f"{row['restart_s']:.3f} s ({min(times):.3f}-{max(times):.3f})"

    lines = [f"| {files} files | Quarry | Tracker 3.4 | Tracker / Quarry |", "|---|---|---|---|",
             f"| time to idle (miner and extractor) | {cell(quarry, 'idle_s', 's')} | {cell(tracker, 'idle_s', 's')} | {ratio('idle_s')} |"]
    q_cpu, t_cpu = total_cpu(quarry), total_cpu(tracker)
    lines.append(f"| CPU s until idle (all processes but dbus-daemon) | {q_cpu:.1f} | {t_cpu:.1f} | "
                 f"{t_cpu / q_cpu:.1f}x |" if q_cpu and t_cpu else f"| CPU s until idle | {q_cpu:.1f} | {t_cpu:.1f} | - |")
    lines.append(f"| no-change restart, miner start to Idle signal (median (min-max) of {RESTARTS}) | "
                 f"{restart_range(quarry)} | {restart_range(tracker)} | {ratio('restart_s')} |")
    for label, key in (("1 new file -> query", "one_file_s"), ("100 new files -> query", "hundred_files_s")):
        lines.append(f"| {label} | {cell(quarry, key, 's')} | {cell(tracker, key, 's')} | {ratio(key)} |")
    lines.append(f"| corpus in the page cache at start | {(quarry or {}).get('page_cache', '-')} | "
                 f"{(tracker or {}).get('page_cache', '-')} | |")
    lines.append(f"| database at idle (with its WAL) | {cell(quarry, 'db_mb', 'MB', 1)} | {cell(tracker, 'db_mb', 'MB', 1)} | {ratio('db_mb')} |")
    lines.append(f"| database once quiet | {cell(quarry, 'db_quiet_mb', 'MB', 1)} | {cell(tracker, 'db_quiet_mb', 'MB', 1)} | {ratio('db_quiet_mb')} |")
    for system, row in (("Quarry", quarry), ("Tracker", tracker)):
        if not row:
            continue
        for name, p in row["processes"].items():
            count = f" ({p['processes']})" if "(workers)" in name else ""
            split = (f" (anon {p['peak_anon_mib']:.0f} / file {p['peak_file_mib']:.0f})"
                     if "peak_anon_mib" in p else "")
            lines.append(f"| {system}: {name}{count} CPU s / peak RSS (anon / file-backed) | "
                         f"{p['cpu_s']:.1f} s / {p['peak_rss_mib']:.0f} MiB{split} | | |")
    find_s = (quarry or tracker)["find_s"]
    lines.append(f"| `find DIR -printf '%T@ %p\\n'` (median of {RESTARTS}, one before each restart) | {find_s:.3f} s | | "
                 + (f"Quarry restart / find: {quarry['restart_s'] / find_s:.1f}x |" if quarry else "|"))
    for system, row in (("quarry", quarry), ("tracker", tracker)):
        if row:
            lines.append(f"\n{system}: load average {row['load_before']} before, {row['load_after']} after; "
                         f"restart miner CPU s {[round(r['miner_cpu_s'], 3) for r in row['restarts']]}; "
                         f"quiet {row.get('quiet_wait_s', float('nan')):.1f} s after the last change")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", help="a Quarry build directory")
    parser.add_argument("--corpus", required=True, help="a gen-corpus tree (not under /tmp: Tracker skips it)")
    parser.add_argument("--work", required=True, help="scratch folder (not under /tmp)")
    parser.add_argument("--systems", default="quarry,tracker", help="which to measure now (comma-separated)")
    parser.add_argument("--table-only", action="store_true", help="print the table of the saved rows")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--page-cache", choices=("warm", "cold"), default="warm",
                        help="the corpus files' contents before each system's run (set_page_cache)")
    args = parser.parse_args()
    libc = ctypes.CDLL(None)
    libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: reap what dbus-daemon activates
    corpus = os.path.realpath(args.corpus)
    shutil.rmtree(os.path.join(corpus, "latency-probe"), ignore_errors=True)  # an aborted run's
    files = sum(len(names) for _, _, names in os.walk(corpus))
    os.makedirs(args.work, exist_ok=True)
    if not args.table_only:
        accounting = Accounting()
        for name in args.systems.split(","):
            print(f"{name}: start, uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}",
                  file=sys.stderr)
            if name == "quarry":
                system = QuarryRun(args.build, corpus, os.path.join(args.work, "quarry"), accounting)
            elif name == "tracker":
                system = TrackerRun(corpus, os.path.join(args.work, "tracker"), accounting)
            else:
                sys.exit(f"unknown system {name}")
            set_page_cache(corpus, args.page_cache)
            try:
                row = measure(system, corpus, accounting, args.timeout)
            finally:
                system.close()
            row["files"] = files
            row["page_cache"] = args.page_cache
            with open(os.path.join(args.work, f"{name}.json"), "w") as out:
                json.dump(row, out, indent=1)
            print(f"{name}: {json.dumps(row)}", file=sys.stderr)
    rows = {}
    for name in ("quarry", "tracker"):
        path = os.path.join(args.work, f"{name}.json")
        if os.path.exists(path):
            with open(path) as saved:
                rows[name] = json.load(saved)
    print(table(rows, files))


if __name__ == "__main__":
    main()
