// The one place SQLite result codes become quarry Errors:
//   SQLITE_FULL → kNoSpace; CORRUPT, NOTADB → kCorrupt; BUSY, LOCKED → kBusy;
//   CONSTRAINT → kConstraint; CANTOPEN, IOERR, PERM, READONLY → kIo; anything else → kInternal.
// Messages name the database file, quote SQLite's own message, the extended result code and
// the first ~200 characters of the SQL when there is one:
//   database /x/meta.db: UNIQUE constraint failed: t.a (sqlite error 2067) in "INSERT INTO t …"
// Thread-safety: reads the connection's last error, so call it on the connection's thread right
// after the failing call.
#pragma once

#include <chrono>
#include <string_view>

#include "store/common/result.h"

struct sqlite3;

namespace quarry::engine {

Errc ErrcFromSqlite(int rc);

// The Error for result code `rc` of a call on `db`, with sqlite3_errmsg(db) when it describes
// `rc` (sqlite3_errstr(rc) otherwise).
Error SqliteError(sqlite3* db, int rc, std::string_view sql = {});

// The same, for when there is no usable connection (a failed open): `file` names the database
// and `message` is what SQLite said.
Error SqliteError(std::string_view file, int rc, std::string_view message,
                  std::string_view sql = {});

// kBusy once the retry budget is spent: "database <file> stayed locked for 10 s (…)".
Error LockTimeoutError(sqlite3* db, int rc, std::chrono::milliseconds budget,
                       std::string_view sql = {});

}  // namespace quarry::engine
