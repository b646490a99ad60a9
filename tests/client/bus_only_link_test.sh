#!/bin/sh
# Issues 5 and 6: the programs that only talk to quarry-store over D-Bus link quarry_client (the
# bus half of the client library), not the engine. Fails when one of them maps SQLite, ICU, serd
# or libcrypto (NEEDED entries) or holds engine/SQLite code linked in statically.
# Usage: bus_only_link_test.sh <engine program> <bus-only program>...
# The engine program (quarry-store) must show what the others must not: proof that the check
# sees a linked engine, so it cannot pass by reading nothing.
set -u
forbidden='libsqlite3|libicu|libserd|libcrypto'
engine_symbols='sqlite3_prepare|quarry::engine::Store::Open'

needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
symbols() { nm -C "$1" 2>/dev/null; }

control=$1
shift
[ -x "$control" ] || { echo "missing $control" >&2; exit 1; }
if ! needed "$control" | grep -Eq "$forbidden"; then
  echo "control $control shows no engine library in its NEEDED entries: the check is broken" >&2
  exit 1
fi
if ! symbols "$control" | grep -Eq "$engine_symbols"; then
  echo "control $control shows no engine symbol: the check is broken" >&2
  exit 1
fi

status=0
for program in "$@"; do
  [ -x "$program" ] || { echo "missing $program" >&2; status=1; continue; }
  libraries=$(needed "$program" | grep -E "$forbidden")
  if [ -n "$libraries" ]; then
    echo "$program needs engine libraries:" $libraries >&2
    status=1
  fi
  code=$(symbols "$program" | grep -E "$engine_symbols" | head -5)
  if [ -n "$code" ]; then
    echo "$program holds engine code:" >&2
    echo "$code" >&2
    status=1
  fi
  [ $status -eq 0 ] && echo "$program: $(needed "$program" | tr '\n' ' ')"
done
exit $status
