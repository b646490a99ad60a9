// Positions in one Turtle text: byte offsets -> file:line:column, and where terms start.
//
// serd 0.30 tells its statement sink nothing about positions, so the Turtle reader counts the
// bytes it feeds serd and asks this class which term of the text a statement came from. It
// only ever scans text serd has already accepted, so the scanner can be lenient.
// Borrows the text, which must outlive it. Thread-safety: const methods from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "store/ontology/ontology.h"

namespace quarry::ontology {

class SourceText {
 public:
  SourceText(std::string file, std::string_view text);

  std::string_view text() const { return text_; }
  const std::string& file() const { return file_; }

  // 1-based line and column (in characters) of a byte offset; offsets past the end map to the
  // end of the text.
  SourceLocation Locate(size_t offset) const;

  // The first offset at or after `from` that is neither white space nor a '#' comment.
  size_t SkipSpace(size_t from) const;

  // Start offsets of the RDF terms (IRIs, prefixed names, literals with their datatype or
  // language, numbers, blank node labels, '[' and '(') that begin in [from, to); punctuation
  // (';' ',' '.' ']' ')') separates terms and is not one. `from` must be a term boundary.
  std::vector<size_t> TermStarts(size_t from, size_t to) const;

 private:
  size_t SkipString(size_t quote) const;
  size_t SkipIri(size_t open) const;
  size_t SkipWord(size_t from) const;
  size_t SkipLiteralSuffix(size_t from) const;

  std::string file_;
  std::string_view text_;
  std::vector<size_t> line_starts_;  // byte offset of each line's first byte
};

}  // namespace quarry::ontology
