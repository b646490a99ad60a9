// The search keys of ontology/39-qco.ontology. Every filter is an equality on an indexed
// multi-valued column (`?c qco:namePrefixKey "ada"` compiles to `"qco:namePrefixKey" = ?`, an
// index SEARCH). Why not a range `?k >= "p" && ?k < "p~"` over one key per name: the SPARQL
// translator wraps each FILTER in coalesce(…, 0), which SQLite cannot match to an index, so a
// range FILTER scans. Keys are therefore stored per prefix/suffix up to kMaxNameKeyLength
// characters; a longer search looks up its first (last) kMaxNameKeyLength characters and the
// book checks the rest on the few contacts found.
// Pure; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "quarry/contacts.h"
#include "store/common/sparql_quote.h"

namespace quarry::contacts {

inline constexpr size_t kMaxNameKeyLength = 8;  // code points
inline constexpr size_t kMinPhoneKeyDigits = 3;

// Unicode case folding (ICU), so "Ölund" and "ölund" share keys.
std::string FoldCase(std::string_view text);
// The first / last `count` code points of UTF-8 `text` (all of it when shorter).
std::string FirstCodePoints(std::string_view text, size_t count);
std::string LastCodePoints(std::string_view text, size_t count);

struct ContactKeys {
  std::vector<std::string> name_prefixes;  // qco:namePrefixKey
  std::vector<std::string> name_suffixes;  // qco:nameSuffixKey
  std::vector<std::string> emails;         // qco:emailKey
  std::vector<std::string> phone_suffixes;  // qco:phoneSuffixKey
};
ContactKeys KeysOf(const Contact& contact);

// The key a filter looks up, and whether a found contact really matches (the check beyond the
// key's length, and the digit comparison of phone numbers).
std::string FilterKey(const ContactFilter& filter);
bool Matches(const Contact& contact, const ContactFilter& filter);

// SPARQL string literals: quarry::SparqlString (store/common/sparql_quote.h).
using quarry::SparqlString;

}  // namespace quarry::contacts
