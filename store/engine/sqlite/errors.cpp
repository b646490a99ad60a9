#include "store/engine/sqlite/errors.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <string>

namespace quarry::engine {
namespace {

constexpr size_t kSqlExcerptLength = 200;

// The SQL on one line, cut after ~200 characters at a UTF-8 character boundary.
std::string SqlExcerpt(std::string_view sql) {
  std::string excerpt;
  bool in_space = false;
  for (const char c : sql) {
    const bool is_space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (is_space) {
      in_space = !excerpt.empty();
      continue;
    }
    if (excerpt.size() >= kSqlExcerptLength && (static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      excerpt += "…";
      return excerpt;
    }
    if (in_space) excerpt += ' ';
    in_space = false;
    excerpt += c;
  }
  return excerpt;
}

std::string FileOf(sqlite3* db) {
  const char* file = db != nullptr ? sqlite3_db_filename(db, "main") : nullptr;
  if (file == nullptr || *file == '\0') return ":memory:";
  return file;
}

// What SQLite's message does not say but the reader needs to know.
std::string_view Hint(sqlite3* db, int rc) {
  if (rc == SQLITE_LOCKED) {
    return "; another statement of this connection is still using it (reset that one first)";
  }
  if (rc == SQLITE_BUSY_SNAPSHOT) {
    return "; another connection wrote since this transaction started reading, so the "
           "transaction must be restarted (BEGIN IMMEDIATE avoids this)";
  }
  if ((rc & 0xff) == SQLITE_READONLY && db != nullptr && sqlite3_db_readonly(db, "main") == 1) {
    return " (the database is open read-only)";
  }
  return {};
}

std::string Describe(std::string_view message, int rc, std::string_view hint,
                     std::string_view sql) {
  std::string text = fmt::format("{}{} (sqlite error {})", message, hint, rc);
  if (!sql.empty()) text += fmt::format(" in \"{}\"", SqlExcerpt(sql));
  return text;
}

std::string_view MessageOf(sqlite3* db, int rc) {
  if (db != nullptr && (sqlite3_extended_errcode(db) & 0xff) == (rc & 0xff)) {
    return sqlite3_errmsg(db);
  }
  return sqlite3_errstr(rc);
}

std::string FormatDuration(std::chrono::milliseconds duration) {
  const auto count = duration.count();
  if (count < 1000) return fmt::format("{} ms", count);
  if (count % 1000 == 0) return fmt::format("{} s", count / 1000);
  return fmt::format("{:.1f} s", static_cast<double>(count) / 1000.0);
}

}  // namespace

Errc ErrcFromSqlite(int rc) {
  switch (rc & 0xff) {
    case SQLITE_FULL: return Errc::kNoSpace;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB: return Errc::kCorrupt;
    case SQLITE_BUSY:
    case SQLITE_LOCKED: return Errc::kBusy;
    case SQLITE_CONSTRAINT: return Errc::kConstraint;
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_PERM:
    case SQLITE_READONLY: return Errc::kIo;
    default: return Errc::kInternal;
  }
}

Error SqliteError(sqlite3* db, int rc, std::string_view sql) {
  return Error(ErrcFromSqlite(rc), fmt::format("database {}: {}", FileOf(db),
                                               Describe(MessageOf(db, rc), rc, Hint(db, rc), sql)));
}

Error SqliteError(std::string_view file, int rc, std::string_view message, std::string_view sql) {
  return Error(ErrcFromSqlite(rc),
               fmt::format("database {}: {}", file, Describe(message, rc, Hint(nullptr, rc), sql)));
}

Error LockTimeoutError(sqlite3* db, int rc, std::chrono::milliseconds budget,
                       std::string_view sql) {
  return Error(Errc::kBusy,
               fmt::format("database {} stayed locked for {} ({})", FileOf(db),
                           FormatDuration(budget), Describe(MessageOf(db, rc), rc, {}, sql)));
}

}  // namespace quarry::engine
