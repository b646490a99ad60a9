// The search syntax of `?r fts:match "…"`: what a person types into a search box, translated
// into an FTS5 MATCH expression (issue 3).
//
//   search  := clause+
//   clause  := ('-' | 'NOT') term        excluded
//            | term ('OR' term)* 'AND'?  at least one of the terms; clauses are ANDed
//   term    := '"' words '"' '*'?        an exact phrase (or a phrase prefix)
//            | word '*'?                 a word, anywhere in the indexed text (or a prefix)
//
// Operators are the upper-case words OR, AND, NOT; anything else is a word. Every word and
// phrase is folded (case, Latin diacritics: the index uses `unicode61 remove_diacritics 2`)
// and emitted as a quoted FTS5 string, so FTS5 syntax characters typed by the user (`:`, `^`,
// `(`, `NEAR`, quotes) never reach the FTS5 parser as syntax. A word with no letter or digit
// matches nothing in the index and is dropped. Dangling operators (`cats OR`) are ignored, so
// a search typed as you go stays valid. Errors: an empty search, or one with only excluded
// terms (FTS5 cannot enumerate "everything but").
// Pure; any thread.
#pragma once

#include <string>
#include <string_view>

#include "store/common/result.h"

namespace quarry::sparql {

// An FTS5 MATCH expression for `search`; Errc::kParse with the reason otherwise.
Result<std::string> SearchToFts5(std::string_view search);

// `text` folded as the full-text index folds it: case-folded, diacritics of Latin letters
// removed ("Résumé" -> "resume").
std::string FoldForSearch(std::string_view text);

}  // namespace quarry::sparql
