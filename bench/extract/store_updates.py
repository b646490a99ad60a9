#!/usr/bin/python3
"""bench/extract/store_updates.py: the store's instructions (callgrind) for the extractor's updates.

  store_updates.py QUARRY_STORE UPDATES LIST VARIANT WORK

LIST is the files given to `quarry_extract_bench --threads 1 --list LIST --output UPDATES`.
Starts a private dbus-daemon and QUARRY_STORE under callgrind (database and dumps in WORK,
which is emptied), inserts every extracted file as a miner resource (IRI = its URL), zeroes the
counters, sends each file's update in batches of 64 (BatchSparqlUpdate, source miner) with the
service's state appended, dumps, and prints the instructions of the writes (WORK/cg.out.1).
VARIANT: `clear` (the state with the two failure deletes, as sent to a file tried before),
`noclear` (as sent for a file never tried), `noprefix` (noclear without the PREFIX lines).
bench/index/README.md "extractcpu, s20" has the figures.
Environment: CALLGRIND_ARGS (extra valgrind options, e.g. `--separate-threads=yes`: one dump per
thread, cg.out.1-NN, so the writer thread's share shows) and STORE_ARGS (extra quarry-store
options, e.g. `--mapped-readers 4`) and CLIENTS (default 1: one batch at a time; N: N threads
send the batches, so up to N wait in the store's queue at once, as the miner's and the
extractor's do while indexing); bench/index/README.md "pipeline, s21"."""
import os, subprocess, sys, time, shutil, re
from gi.repository import Gio, GLib

if len(sys.argv) != 6 or sys.argv[4] not in ("clear", "noclear", "noprefix"):
    sys.exit("usage: store_updates.py QUARRY_STORE UPDATES LIST clear|noclear|noprefix WORK")
store_bin, out_file, list_file, variant, work = sys.argv[1:6]
shutil.rmtree(work, ignore_errors=True); os.makedirs(work)
files = [l.strip() for l in open(list_file) if l.strip()]
text = open(out_file).read()
# bench --output: per file, the update (starts with "PREFIX rdf:") or "# error ..." line
chunks = re.split(r'(?=^PREFIX rdf: |^# error )', text, flags=re.M)
chunks = [c for c in chunks if c.strip()]
assert len(chunks) == len(files), (len(chunks), len(files))
EXT = "<http://quarry.gnome.invalid/ontology/v1/qxo#"
def q(s): return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'
setup, updates = [], []
for path, chunk in zip(files, chunks):
    if chunk.startswith("# error"): continue
    m = re.search(r'nie:url "([^"]*)"', chunk)
    url = m.group(1)
    iri = url
    mt = "2024-01-01T00:00:00Z"
    setup.append(f'INSERT DATA {{ <{iri}> a nfo:FileDataObject, nie:InformationElement ; nie:url {q(url)} ; '
                 f'nfo:fileName {q(os.path.basename(path))} ; nfo:fileLastModified "{mt}"^^xsd:dateTime ; nfo:fileSize 1 }}')
    body = chunk.rstrip("\n")
    if variant == "noprefix":
        body = "\n".join(l for l in body.split("\n") if not l.startswith("PREFIX "))
    clear = (f"DELETE {{ <{iri}> {EXT}extractionFailure> ?f }} WHERE {{ <{iri}> {EXT}extractionFailure> ?f }} ;\n"
             f"DELETE {{ <{iri}> {EXT}failedExtractor> ?e }} WHERE {{ <{iri}> {EXT}failedExtractor> ?e }} ;\n")
    state = f'INSERT OR REPLACE {{ <{iri}> {EXT}extractedMtime> "{mt}"^^<http://www.w3.org/2001/XMLSchema#dateTime> }} WHERE {{}}\n'
    updates.append(body + " ;\n" + (clear if variant == "clear" else "") + state)
bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address=unix:dir={work}", "--print-address=1"],
                       stdout=subprocess.PIPE, text=True)
address = bus.stdout.readline().strip()
env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, XDG_RUNTIME_DIR=work)
cg = os.path.join(work, "cg.out")
store = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}",
                          *os.environ.get("CALLGRIND_ARGS", "").split(), store_bin,
                          "--database", os.path.join(work, "db"),
                          *os.environ.get("STORE_ARGS", "").split()], env=env,
                         stdout=open(os.path.join(work, "store.log"), "w"), stderr=subprocess.STDOUT)
conn = Gio.DBusConnection.new_for_address_sync(address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
                                               Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
def batch(items):
    for i in range(0, len(items), 64):
        conn.call_sync("org.quarry.Store1", "/org/quarry/Store1", "org.quarry.Store1.Resources",
                       "BatchSparqlUpdate", GLib.Variant("(asa{sv})", (items[i:i+64], {"source": GLib.Variant("s", "miner")})),
                       None, Gio.DBusCallFlags.NO_AUTO_START, 600000, None)
deadline = time.time() + 600
while True:
    try:
        batch(setup[:1]); break
    except GLib.Error:
        if time.time() > deadline: sys.exit("store never came up")
        time.sleep(1)
batch(setup[1:])
time.sleep(1)
subprocess.run(["callgrind_control", "-z", str(store.pid)], check=True, stdout=subprocess.DEVNULL)
t = time.time()
clients = int(os.environ.get("CLIENTS", "1"))
if clients <= 1:
    batch(updates)
else:
    import threading
    chunks_64 = [updates[i:i+64] for i in range(0, len(updates), 64)]
    lock = threading.Lock()
    def client():
        while True:
            with lock:
                if not chunks_64: return
                items = chunks_64.pop(0)
            batch(items)
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for th in threads: th.start()
    for th in threads: th.join()
subprocess.run(["callgrind_control", "-d", str(store.pid)], check=True, stdout=subprocess.DEVNULL)
print(f"variant={variant} files={len(updates)} bytes={sum(map(len, updates))} wall={time.time()-t:.2f}")
store.terminate(); store.wait(); bus.terminate()
dumps = sorted(f for f in os.listdir(work) if f.startswith("cg.out"))
for d in dumps:
    ir = subprocess.run(["sh", "-c", f"grep -m1 '^summary:\\|^totals:' {work}/{d}"], capture_output=True, text=True).stdout
    print(d, ir.strip())
