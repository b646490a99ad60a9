// The search keys of ontology/39-qco.ontology: one row per name, email and phone number of a
// contact. A name prefix filter is an index range over the case-folded names
// (`?k >= "lo" && ?k < "lo\U0010FFFD"`: the translator leaves a FILTER's comparisons bare, so
// SQLite searches the index between the two bounds and touches only matching rows); a name
// suffix is a prefix of the reversed names, a phone suffix a prefix of the reversed digits, an
// email an equality. Every range is exact (a key in it starts with the searched text), so the
// key count per contact does not grow with the length of the names.
// Pure; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "quarry/contacts.h"
#include "store/common/sparql_quote.h"

namespace quarry::contacts {

// Unicode case folding (ICU), so "Ölund" and "ölund" share keys.
std::string FoldCase(std::string_view text);
// The first / last `count` code points of UTF-8 `text` (all of it when shorter).
std::string FirstCodePoints(std::string_view text, size_t count);
std::string LastCodePoints(std::string_view text, size_t count);
// `text` with its code points in reverse order (a suffix search becomes a prefix search).
std::string ReverseCodePoints(std::string_view text);

// Without keys that another key of the same list starts with (a range search finds the
// longer one): e.g. the given name beside "given family", the family name's reverse beside
// the full name's.
struct ContactKeys {
  std::vector<std::string> names;            // qco:nameKey: folded FN, given, family, nicks
  std::vector<std::string> reversed_names;   // qco:reversedNameKey: the same, reversed
  std::vector<std::string> emails;           // qco:emailKey: folded addresses
  std::vector<std::string> reversed_phones;  // qco:reversedPhoneKey: each number's digits, reversed
};
ContactKeys KeysOf(const Contact& contact);

// What a filter searches: keys of `predicate` in [low, high), or equal to `low` when `high`
// is empty. `low` is empty when the filter's text has nothing to search for.
struct KeyRange {
  std::string_view predicate;  // prefixed name, e.g. "qco:nameKey"
  std::string low;
  std::string high;
};
KeyRange FilterRange(const ContactFilter& filter);
// The group pattern that binds ?c to each contact whose key of `kind` lies in the range of
// the `~low` and `~high` parameters (once per contact, even when several of its names match).
std::string SearchSelector(ContactFilter::Kind kind);
// The same range without the DISTINCT: ?c once per matching key, so a contact two of whose
// names match comes twice, in key order. For readers that drop repeated IDs themselves
// (ContactBook::Statements::FindRecords): SQLite's DISTINCT is a temporary B-tree filled per
// row, ~5 % of a 800-contact prefix read (issue 7, callgrind, session 21).
std::string RangeSelector(ContactFilter::Kind kind);
// `text` with every `~low` / `~high` parameter replaced by the filter's range as string
// literals: a query that runs without bound parameters (printed by --explain, sent as text).
std::string WithFilterLiterals(std::string text, const ContactFilter& filter);
// Whether a found contact matches (also what a live view checks on changed contacts).
bool Matches(const Contact& contact, const ContactFilter& filter);

// SPARQL string literals: quarry::SparqlString (store/common/sparql_quote.h).
using quarry::SparqlString;

}  // namespace quarry::contacts
