// xsd:dateTime and xsd:date codecs: lexical form <-> the stored form of SCHEMA.md.
//
// Stored xsd:dateTime (TEXT): the instant in UTC, fixed width, so that plain string comparison
// (SQLite's BINARY collation, ORDER BY, indexes) orders instants correctly:
//     YYYY-MM-DDTHH:MM:SS.ffffffZ            27 characters, always 6 fraction digits
// followed by the zone the value was written in, so it reads back as written:
//     ""        the value said Z (or +00:00 / -00:00, whose canonical form is Z)
//     "+HH:MM"  the value had that offset ("-HH:MM" likewise)
//     "L"       the value had no zone; the UTC part then holds the wall-clock time as is
// Values with the same instant differ only in the suffix, so they sort next to each other.
//
// Lexical forms accepted: every xsd:dateTime with a year 0001-9999: optional fraction of any
// length (truncated, not rounded, to microseconds, so the order of inputs is never inverted),
// zone Z / +HH:MM / -HH:MM (at most 14:00) or none, 24:00:00 (= 00:00:00 of the next day),
// February 29 only in leap years. Negative years, year 0000 and years of five or more digits
// are refused with a clear error, as are leap seconds (xsd has none).
//
// Stored xsd:date (TEXT): "YYYY-MM-DD" followed by the canonical zone when the value had one
// ("Z" or "+HH:MM"); the stored form is its own canonical lexical form.
//
// Version log: 1 — first stored form (schema version 1).
// Thread-safety: pure functions; any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "store/common/result.h"

namespace quarry {

// Length of the UTC part of a stored dateTime; compare prefixes of this length to test two
// values for the same instant regardless of the zone they were written in.
inline constexpr std::size_t kStoredDateTimeUtcLength = 27;

// Parses an xsd:dateTime lexical form into the stored form. Errc::kParse names what is wrong.
Result<std::string> EncodeDateTime(std::string_view lexical);

// The canonical lexical form of a stored value, in the zone it was written in: the fraction
// only when non-zero (trailing zeros trimmed), "Z" for UTC, nothing for a value without zone.
// A string that is not a stored form (a hand-edited database) is returned unchanged.
std::string DecodeDateTime(std::string_view stored);
// The same into `out` (replacing its contents, keeping its capacity): a cursor decoding a
// column row after row into one buffer allocates nothing per value.
void DecodeDateTimeTo(std::string_view stored, std::string& out);

// Microseconds since 1970-01-01T00:00:00Z of a stored value (a value without zone counts as
// UTC). Errc::kCorrupt when `stored` is not a stored form.
Result<int64_t> UnixMicros(std::string_view stored);
// Microseconds since 1970-01-01T00:00:00Z of an xsd:dateTime lexical form (a value without zone
// counts as UTC), as UnixMicros(EncodeDateTime(lexical)) with the same errors. The common form
// "YYYY-MM-DDTHH:MM:SS[.f{1,6}][Z]" is read in place (~6x fewer instructions: the miner reads
// one per known file on a restart); any other goes through the full codec.
Result<int64_t> LexicalUnixMicros(std::string_view lexical);

// The stored form of an instant given as Unix time, written in the zone `offset_minutes` east
// of UTC (0 = Z, 120 = +02:00, at most ±14:00). Errc::kInvalidArgument when the instant is
// outside years 0000-9999 UTC or the offset is out of range.
Result<std::string> EncodeUnixMicros(int64_t micros, int offset_minutes = 0);
Result<std::string> EncodeUnixTime(int64_t seconds, int offset_minutes = 0);

// Validates an xsd:date lexical form (YYYY-MM-DD, optional zone) and returns its stored form.
Result<std::string> EncodeDate(std::string_view lexical);

}  // namespace quarry
