#!/usr/bin/python3
# bench/phonebook/rss_sample.py MARK TSV OUT [INTERVAL_MS]: samples the memory of every process
# whose command line contains MARK (run.sh's work folder: the bench, quarry-store, Tracker's
# script) every
# INTERVAL_MS (default 50) until killed; each line: seconds, pid, name, the operation TSV's last
# row names (the phase: the row is written when the operation ends, so the phase is the one
# after it), and /proc/PID/smaps_rollup's Rss, Anonymous (heap, stacks), file pages
# (Rss - Anonymous: mapped files, the database mapping) in KiB. run.sh runs it with
# PHONEBOOK_RSS_SAMPLE=1 (bench/phonebook/README.md "Peak RSS by phase").
# rss_sample.py --summary OUT: the peak Rss (with its Anonymous and file part) of each process
# in each phase.
import os
import sys
import time

if sys.argv[1] == "--summary":
    peaks, order = {}, []
    with open(sys.argv[2]) as f:
        next(f)
        for line in f:
            t, pid, name, after, rss, anon, file_kib = line.rstrip("\n").split("\t")
            key = (pid, name, after)
            if key not in peaks:
                order.append(key)
            if key not in peaks or int(rss) > peaks[key][0]:
                peaks[key] = (int(rss), int(anon), int(file_kib))
    print("| process | pid | phase (after row) | peak Rss KiB | its anon | its file |")
    print("|---|---:|---|---:|---:|---:|")
    for key in order:
        print("| %s | %s | %s | %d | %d | %d |" % ((key[1], key[0], key[2]) + peaks[key]))
    sys.exit(0)

mark, tsv, out = sys.argv[1].encode(), sys.argv[2], sys.argv[3]
interval = (int(sys.argv[4]) if len(sys.argv) > 4 else 50) / 1000.0


def last_op():
    try:
        with open(tsv, "rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - 4096))
            lines = f.read().decode(errors="replace").strip().split("\n")
        fields = lines[-1].split("\t")
        return "%s:%s:%s" % (fields[1], fields[2], fields[3]) if len(fields) > 3 else "start"
    except OSError:
        return "start"


def rollup(pid):
    values = {}
    with open("/proc/%s/smaps_rollup" % pid) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0].endswith(":"):
                values[parts[0][:-1]] = int(parts[1]) if parts[1].isdigit() else 0
    return values


me = str(os.getpid())
start = time.monotonic()
with open(out, "w") as sink:
    sink.write("seconds\tpid\tname\tafter\trss_kib\tanon_kib\tfile_kib\n")
    while True:
        phase = last_op()
        now = time.monotonic() - start
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or pid == me:
                continue
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    cmdline = f.read()
                if mark not in cmdline or b"rss_sample" in cmdline:
                    continue
                argv = cmdline.split(b"\0")
                name = os.path.basename(argv[0]).decode(errors="replace")
                if b"tracker_phonebook" in cmdline:
                    name = "tracker"
                if name not in ("phonebook_bench", "quarry-store", "tracker"):
                    continue
                v = rollup(pid)
            except OSError:
                continue
            rss, anon = v.get("Rss", 0), v.get("Anonymous", 0)
            sink.write("%.3f\t%s\t%s\t%s\t%d\t%d\t%d\n" % (now, pid, name, phase, rss, anon, rss - anon))
        sink.flush()
        time.sleep(interval)
