#!/bin/bash
# bench/phonebook/run.sh BUILD_DIR [OUT_DIR] [MAX_COUNT] [MIN_COUNT]: the phonebook benchmark
# (issue 7). For MIN_COUNT (default 50), twice that, … MAX_COUNT (default 12800) contacts, each in a new database: Quarry embedded, Quarry
# through quarry-store on a private bus (FD stream, plain D-Bus, and Direct reads of its
# database), and Tracker 3.4's local connection on the same contacts. Writes OUT_DIR/results.tsv
# (system, path, count, operation, µs, unit, results) and the charts (plot.gnuplot).
# PHONEBOOK_OPS=fetch,email: only those Quarry operations (phonebook_bench --ops); Tracker runs all.
# PHONEBOOK_WARM=1: each prepared Quarry read runs once untimed first (phonebook_bench --warm).
# PHONEBOOK_NO_RECORDS=1: books without qco:record (phonebook_bench --no-records).
# PHONEBOOK_STORE_BUS=1: the store path through dbus-daemon only (no $XDG_RUNTIME_DIR, so no peer
# socket); by default the store runs with a private $XDG_RUNTIME_DIR, as in a desktop session,
# and its clients reach it through its peer socket (docs/peer-socket.md).
# PHONEBOOK_RSS_SAMPLE=1: rss_sample.py samples the bench's and quarry-store's memory every 50 ms
# into OUT_DIR/rss_samples.tsv (with the last row written: the phase), peaks by phase in
# OUT_DIR/rss_phases.md; the bench's rows are then line-buffered (stdbuf -oL).
set -euo pipefail
build=$(realpath "${1:?usage: run.sh BUILD_DIR [OUT_DIR] [MAX_COUNT]}")
here=$(dirname "$(realpath "$0")")
out=$(realpath -m "${2:-$here/out}")
max=${3:-12800}
min=${4:-50}
ops=()
[ -n "${PHONEBOOK_OPS:-}" ] && ops=(--ops "$PHONEBOOK_OPS")
[ -n "${PHONEBOOK_WARM:-}" ] && ops+=(--warm)  # prepared reads run once before the clock
[ -n "${PHONEBOOK_NO_RECORDS:-}" ] && ops+=(--no-records)  # books without qco:record
[ -n "${PHONEBOOK_NO_STREAM:-}" ] && ops+=(--no-stream)  # batch saves as one BatchSparqlUpdate
bench="$build/bench/phonebook/phonebook_bench"
store_bin="$build/store/daemon/quarry-store"
raw_fetch="$build/bench/phonebook/raw_sqlite_fetch"
ontology="$here/../../ontology"
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/phonebook.XXXXXX")
trap 'rm -rf "$work"' EXIT
tsv="$out/results.tsv"
printf 'system\tpath\tcount\top\tmicros\tunit\tresults\n' > "$tsv"
sampler_pid=
if [ -n "${PHONEBOOK_RSS_SAMPLE:-}" ]; then
  bench="stdbuf -oL $bench"
  /usr/bin/python3 "$here/rss_sample.py" "$work" "$tsv" "$out/rss_samples.tsv" &
  sampler_pid=$!
  trap 'kill "$sampler_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
fi

peak_kib() { awk '/VmHWM/ {print $2}' "/proc/$1/status"; }

run_store() {  # $1 count: quarry-store on a private bus, the bench as its client
  local db="$work/store-$1" bus_pid store_pid address
  mkdir -p "$db"
  exec 3< <(dbus-daemon --session --nofork --print-address=1)
  bus_pid=$!
  read -r address <&3
  export DBUS_SESSION_BUS_ADDRESS="$address"
  if [ -n "${PHONEBOOK_STORE_BUS:-}" ]; then
    unset XDG_RUNTIME_DIR
  else
    export XDG_RUNTIME_DIR="$work/runtime-$1"
    mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
  fi
  "$store_bin" --bus "$address" --database "$db" --ontology "$ontology" &
  store_pid=$!
  for _ in $(seq 100); do
    dbus-send --session --print-reply --dest=org.freedesktop.DBus / \
      org.freedesktop.DBus.NameHasOwner string:org.quarry.Store1 2>/dev/null | grep -q true && break
    sleep 0.1
  done
  $bench --count "$1" --database "$db" --path store "${ops[@]}" >> "$tsv"
  printf 'quarry\tstore_server\t%s\tstore_peak_rss_kib\t%s\tKiB\t0\n' "$1" "$(peak_kib $store_pid)" >> "$tsv"
  kill "$store_pid"; wait "$store_pid" || true
  kill "$bus_pid"; wait "$bus_pid" 2>/dev/null || true
  exec 3<&-
  unset DBUS_SESSION_BUS_ADDRESS
}

count=$min
while [ "$count" -le "$max" ]; do
  echo "phonebook: $count contacts" >&2
  mkdir -p "$work/embedded-$count" "$work/tracker-$count"
  $bench --count "$count" --database "$work/embedded-$count" --path embedded "${ops[@]}" >> "$tsv"
  # The physical limit of the reads: hand-written SQL on raw SQLite, same database.
  [ -x "$raw_fetch" ] && "$raw_fetch" "$work/embedded-$count" "$count" >> "$tsv"
  run_store "$count"
  $bench --count "$count" --json "$work/contacts-$count.json"
  /usr/bin/python3 "$here/tracker_phonebook.py" "$work/contacts-$count.json" "$work/tracker-$count" >> "$tsv"
  rm -rf "$work/embedded-$count" "$work/store-$count" "$work/tracker-$count"
  count=$((count * 2))
done
if [ -n "$sampler_pid" ]; then
  kill "$sampler_pid"; wait "$sampler_pid" 2>/dev/null || true
  /usr/bin/python3 "$here/rss_sample.py" --summary "$out/rss_samples.tsv" > "$out/rss_phases.md"
fi
(cd "$out" && gnuplot "$here/plot.gnuplot")
/usr/bin/python3 "$here/table.py" "$tsv" > "$out/table.md"
echo "results: $tsv, charts and table.md in $out" >&2
