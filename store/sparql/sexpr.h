// Internal to print.cpp / print_update.cpp: a tiny S-expression tree and its layout.
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "store/sparql/ast.h"

namespace quarry::sparql::sexpr {

struct SExpr {
  std::string atom;          // for atoms
  std::vector<SExpr> items;  // for lists
  bool is_list = false;
};

SExpr Atom(std::string text);
SExpr List(std::string head);  // a list starting with the atom `head`
void RenderFlat(const SExpr& expr, std::string& out);
// One line when it fits in 100 columns, otherwise children on indented lines.
void Render(const SExpr& expr, size_t indent, std::string& out);

std::string IriText(std::string_view iri);
std::string TermText(const Term& term);
SExpr Triples(std::string head, const std::vector<TriplePattern>& triples);
SExpr GroupExpr(std::string head, const GroupGraphPattern& group);

}  // namespace quarry::sparql::sexpr
