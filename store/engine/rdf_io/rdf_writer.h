// RdfWriter: statements → Turtle, TriG or N-Triples text on a std::ostream, through serd 0.30's
// writer (escaping, prefixed names, statements of consecutive equal subjects grouped with ';' and
// ','; N-Triples: one statement per line, no prefixes).
//
// serd ends TriG output with stray tabs and no final newline; the sink holds trailing white
// space back so the text always ends in exactly one newline.
// Thread-safety: one thread; borrows the stream, which must outlive it.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/schema/rdf_term.h"

namespace quarry::engine::rdf_io {

enum class WriteSyntax { kTurtle, kTrig, kNTriples };

class RdfWriter {
 public:
  // Writes an @prefix line for every entry of `prefixes` (prefix → namespace IRI); N-Triples
  // ignores them.
  RdfWriter(std::ostream& out, WriteSyntax syntax,
            const std::map<std::string, std::string>& prefixes);
  ~RdfWriter();
  RdfWriter(const RdfWriter&) = delete;
  RdfWriter& operator=(const RdfWriter&) = delete;

  // `graph` is a named graph's IRI (TriG only; nullopt = the default graph). `subject` is an
  // IRI or blank node, `object` any term.
  Result<void> Write(const std::optional<std::string>& graph, const schema::RdfTerm& subject,
                     std::string_view predicate, const schema::RdfTerm& object);
  // Closes the last group and flushes; kIo when the stream failed.
  Result<void> Finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace quarry::engine::rdf_io
