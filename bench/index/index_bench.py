#!/usr/bin/python3
"""bench/index: initial indexing, no-change restart and change-to-query latency of Quarry
(quarry-store + quarry-miner-fs + quarry-extract) and Tracker 3.4 (tracker-miner-fs-3 +
tracker-extract-3), each on its own private bus with its own XDG dirs, on the same gen-corpus
tree in the same run (issue 5 "Benchmark"). Prints a Markdown table of both and their ratios.

Run through bench/index/run; /usr/bin/python3 because Tracker's bindings (gi) live there.
"""
import argparse
import ctypes
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

import gi

gi.require_version("Tracker", "3.0")
from gi.repository import Gio, GLib, Tracker  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")
POLL_S = 0.25


def proc_cpu_rss(pid):
    """(CPU seconds incl. reaped children, peak RSS MiB) of a live process."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    cpu = sum(int(fields[i]) for i in (11, 12, 13, 14)) / CLK_TCK
    rss = 0.0
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                rss = int(line.split()[1]) / 1024
    return cpu, rss


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
    """A private dbus-daemon started with `env`, so activated services inherit it. Polls never
    auto-start a service (a status poll would otherwise D-Bus-activate a stopped Tracker miner)."""

    def __init__(self, work, env):
        os.makedirs(work, exist_ok=True)
        self.process = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", f"--address=unix:dir={work}", "--print-address=1"],
            stdout=subprocess.PIPE, env=env, text=True)
        self.address = self.process.stdout.readline().strip()
        self.connection = Gio.DBusConnection.new_for_address_sync(
            self.address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)

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
            time.sleep(0.02)
        sys.exit(f"{name} did not appear on the bus")

    def close(self):
        self.process.terminate()
        self.process.wait()


def wait_idle(is_idle, timeout):
    """Seconds until is_idle() held for 3 polls in a row (reported at the first of them)."""
    start = time.monotonic()
    first = None
    confirmations = 0
    while time.monotonic() - start < timeout:
        if is_idle():
            first = first or time.monotonic()
            confirmations += 1
            if confirmations == 3:
                return first - start
        else:
            first, confirmations = None, 0
        time.sleep(POLL_S)
    sys.exit("not idle before the timeout")


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
    """quarry-store, quarry-extract (when built) and quarry-miner-fs on a private bus."""

    def __init__(self, build, corpus, work):
        self.build, self.corpus, self.work = build, corpus, work
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(os.path.join(work, "config"))
        self.config = os.path.join(work, "config", "quarry.toml")
        open(self.config, "w").close()
        self.env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"),
                        XDG_CACHE_HOME=os.path.join(work, "cache"))
        self.bus = Bus(os.path.join(work, "bus"), self.env)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.bus.address
        self.db = os.path.join(work, "db")
        self.log = open(os.path.join(work, "services.log"), "w")
        self.store = self.spawn("store/daemon/quarry-store", "--database", self.db)
        self.bus.wait_for("org.quarry.Store1")
        self.extract = None
        if os.path.exists(os.path.join(build, "extract/quarry-extract")):
            self.extract = self.spawn("extract/quarry-extract")
            self.bus.wait_for("org.quarry.Extract1")
        self.miner = None

    def spawn(self, binary, *args):
        return subprocess.Popen([os.path.join(self.build, binary), *args], env=self.env,
                                stdout=self.log, stderr=subprocess.STDOUT)

    def start_miner(self, *extra):
        self.miner = self.spawn("miner-fs/quarry-miner-fs", "--config", self.config, "--folder", self.corpus, *extra)
        return self.miner

    def idle(self):
        try:
            miner = self.bus.call("org.quarry.Miner.Files", "/org/quarry/Miner/Files", "org.quarry.Miner", "GetStatus")[0]
        except GLib.Error:
            return False
        if miner != "Idle":
            return False
        if not self.extract:
            return True
        status = self.bus.call("org.quarry.Extract1", "/org/quarry/Extract1", "org.quarry.Extract1", "GetStatus",
                               reply="(a{sv})")[0]
        return status.get("state") == "idle" and status.get("queued", 0) == 0

    def count(self, sparql):
        rows = self.bus.call("org.quarry.Store1", "/org/quarry/Store1", "org.quarry.Store1.Resources",
                             "SparqlQuery", GLib.Variant("(s)", (sparql,)), "(aas)")[0]
        return int(rows[0][0]) if rows else 0

    def processes(self):
        named = {"quarry-store": self.store, "quarry-miner-fs": self.miner}
        if self.extract:
            named["quarry-extract"] = self.extract
        return {name: proc_cpu_rss(p.pid) for name, p in named.items() if p and p.poll() is None}

    def db_bytes(self):
        return tree_bytes(self.db)

    def stop_miner(self):
        self.miner.send_signal(signal.SIGTERM)
        self.miner.wait()

    def close(self):
        for process in (self.miner, self.extract, self.store):
            if process and process.poll() is None:
                process.terminate()
                process.wait()
        self.bus.close()


class TrackerRun:
    """tracker-miner-fs-3 (which D-Bus-activates tracker-extract-3) isolated in `work`
    (TRACKER3-BASELINE.md "Running Tracker 3 isolated")."""

    MINER = "org.freedesktop.Tracker3.Miner.Files"
    EXTRACT = "org.freedesktop.Tracker3.Miner.Extract"

    def __init__(self, corpus, work):
        self.corpus, self.work = corpus, work
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
        self.bus = Bus(os.path.join(work, "bus"), self.env)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = self.bus.address
        self.log = open(os.path.join(work, "services.log"), "w")
        self.miner = None
        self.sparql = None

    def start_miner(self, *extra):
        self.miner = subprocess.Popen(["/usr/libexec/tracker-miner-fs-3", "--initial-sleep", "0", *extra],
                                      env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        return self.miner

    def status(self, name, path):
        try:
            return self.bus.call(name, path, "org.freedesktop.Tracker3.Miner", "GetStatus")[0]
        except GLib.Error:
            return None

    def idle(self):
        if self.status(self.MINER, "/org/freedesktop/Tracker3/Miner/Files") != "Idle":
            return False
        extract = self.status(self.EXTRACT, "/org/freedesktop/Tracker3/Miner/Extract")
        return extract in (None, "Idle")  # it quits after 10 s without work

    def count(self, sparql):
        if not self.sparql:
            self.sparql = Tracker.SparqlConnection.bus_new(self.MINER, None, self.bus.connection)
        cursor = self.sparql.query(sparql, None)
        value = int(cursor.get_integer(0)) if cursor.next(None) else 0
        cursor.close()
        return value

    def processes(self):
        result = {}
        if self.miner and self.miner.poll() is None:
            result["tracker-miner-fs-3"] = proc_cpu_rss(self.miner.pid)
        pid = self.bus.owner_pid(self.EXTRACT)
        if pid:
            result["tracker-extract-3"] = proc_cpu_rss(pid)
        return result

    def db_bytes(self):
        return tree_bytes(os.path.join(self.env["XDG_CACHE_HOME"], "tracker3"))

    def stop_miner(self):
        self.sparql = None
        self.miner.send_signal(signal.SIGTERM)
        self.miner.wait()

    def close(self):
        pid = self.bus.owner_pid(self.EXTRACT)
        if self.miner and self.miner.poll() is None:
            self.stop_miner()
        if pid:
            os.kill(pid, signal.SIGTERM)
        self.bus.close()


FILES_QUERY = "SELECT (COUNT(?f) AS ?c) WHERE { ?f a nfo:FileDataObject ; nie:url ?u FILTER (STRSTARTS(?u, \"%s\")) }"


def measure(system, corpus, timeout):
    """The row of one system: initial index, restart, latencies."""
    row = {}
    system.start_miner()
    row["idle_s"] = wait_idle(system.idle, timeout)
    processes = system.processes()
    row["cpu"] = {name: cpu for name, (cpu, _) in processes.items()}
    row["rss"] = {name: rss for name, (_, rss) in processes.items()}
    row["db_mb"] = system.db_bytes() / 1e6
    probe = os.path.join(corpus, "latency-probe")
    url = "file://" + probe
    row["one_file_s"] = latency(lambda: write_files(probe, "one", 1), lambda: system.count(FILES_QUERY % (url + "/one-")), 1)
    row["hundred_files_s"] = latency(lambda: write_files(probe, "many", 100),
                                     lambda: system.count(FILES_QUERY % (url + "/many-")), 100)
    wait_idle(system.idle, timeout)
    system.stop_miner()
    restarts = []
    for _ in range(3):
        start = time.monotonic()
        system.start_miner()
        wait_idle(system.idle, timeout)
        restarts.append(time.monotonic() - start - POLL_S)  # the idle check confirms over 3 polls
        system.stop_miner()
    row["restart_s"] = statistics.median(restarts)
    shutil.rmtree(probe)
    return row


def find_seconds(corpus):
    runs = []
    for _ in range(3):
        start = time.monotonic()
        subprocess.run(["find", corpus, "-printf", "%T@ %p\\n"], stdout=subprocess.DEVNULL, check=True)
        runs.append(time.monotonic() - start)
    return statistics.median(runs)


def table(quarry, tracker, find_s, files):
    def ratio(a, b):
        return f"{b / a:.1f}x" if a and b else "-"
    lines = [f"| {files} files | Quarry | Tracker 3.4 | Tracker / Quarry |", "|---|---|---|---|"]
    for label, key, unit in (("time to idle", "idle_s", "s"), ("no-change restart (median of 3)", "restart_s", "s"),
                             ("1 new file -> query", "one_file_s", "s"), ("100 new files -> query", "hundred_files_s", "s"),
                             ("database", "db_mb", "MB")):
        lines.append(f"| {label} | {quarry[key]:.3f} {unit} | {tracker[key]:.3f} {unit} | {ratio(quarry[key], tracker[key])} |")
    q_cpu, t_cpu = sum(quarry["cpu"].values()), sum(tracker["cpu"].values())
    lines.append(f"| CPU s (all processes) | {q_cpu:.1f} | {t_cpu:.1f} | {ratio(q_cpu, t_cpu)} |")
    for system, row in (("Quarry", quarry), ("Tracker", tracker)):
        for name in row["cpu"]:
            lines.append(f"| {system}: {name} CPU s / peak RSS | {row['cpu'][name]:.1f} s / {row['rss'][name]:.0f} MiB | | |")
    lines.append(f"| `find DIR -printf '%T@ %p\\n'` (median of 3) | {find_s:.3f} s | | restart / find: {quarry['restart_s'] / find_s:.1f}x |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", required=True, help="a Quarry build directory")
    parser.add_argument("--corpus", required=True, help="a gen-corpus tree (not under /tmp: Tracker skips it)")
    parser.add_argument("--work", required=True, help="scratch folder (not under /tmp)")
    parser.add_argument("--timeout", type=float, default=1800)
    args = parser.parse_args()
    libc = ctypes.CDLL(None)
    libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: reap what dbus-daemon activates
    corpus = os.path.realpath(args.corpus)
    files = sum(len(names) for _, _, names in os.walk(corpus))
    rows = {}
    for name, make in (("quarry", lambda: QuarryRun(args.build, corpus, os.path.join(args.work, "quarry"))),
                       ("tracker", lambda: TrackerRun(corpus, os.path.join(args.work, "tracker")))):
        system = make()
        try:
            rows[name] = measure(system, corpus, args.timeout)
        finally:
            system.close()
        print(f"{name}: {rows[name]}", file=sys.stderr)
    print(f"load average before the table: {os.getloadavg()}")
    print(table(rows["quarry"], rows["tracker"], find_seconds(corpus), files))


if __name__ == "__main__":
    main()
