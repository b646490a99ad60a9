// S-expression rendering of updates (see print.cpp for the layout rules).
#include "store/sparql/parser.h"
#include "store/sparql/sexpr.h"

namespace quarry::sparql {

namespace sexpr {
namespace {

void AddQuads(const Quads& quads, SExpr& out) {
  for (const QuadsBlock& block : quads) {
    SExpr list = Triples(block.graph ? "graph" : "default", block.triples);
    if (block.graph) list.items.insert(list.items.begin() + 1, Atom(TermText(*block.graph)));
    out.items.push_back(std::move(list));
  }
}

SExpr QuadsExpr(const char* head, const Quads& quads) {
  SExpr list = List(head);
  AddQuads(quads, list);
  return list;
}

std::string GraphRefText(const GraphRef& ref) {
  switch (ref.kind) {
    case GraphRef::Kind::kGraph:
      return IriText(ref.iri);
    case GraphRef::Kind::kDefault:
      return "default";
    case GraphRef::Kind::kNamed:
      return "named";
    case GraphRef::Kind::kAll:
      return "all";
  }
  return "";
}

std::string GraphOrDefaultText(const GraphOrDefault& graph) {
  return graph.is_default ? "default" : IriText(graph.iri);
}

SExpr Flagged(const char* head, bool silent) {
  SExpr list = List(head);
  if (silent) list.items.push_back(Atom("silent"));
  return list;
}

template <typename Transfer>
SExpr TransferExpr(const char* head, const Transfer& transfer) {
  SExpr list = Flagged(head, transfer.silent);
  list.items.push_back(Atom(GraphOrDefaultText(transfer.from)));
  list.items.push_back(Atom(GraphOrDefaultText(transfer.to)));
  return list;
}

SExpr ModifyExpr(const Modify& modify) {
  SExpr list = List("modify");
  if (modify.or_replace) list.items.push_back(Atom("or-replace"));
  if (modify.silent) list.items.push_back(Atom("silent"));
  if (modify.with_iri) {
    SExpr with = List("with");
    with.items.push_back(Atom(IriText(*modify.with_iri)));
    list.items.push_back(std::move(with));
  }
  if (modify.delete_quads) list.items.push_back(QuadsExpr("delete", *modify.delete_quads));
  if (modify.insert_quads) list.items.push_back(QuadsExpr("insert", *modify.insert_quads));
  for (const DatasetClause& clause : modify.using_clauses) {
    SExpr using_clause = List(clause.named ? "using-named" : "using");
    using_clause.items.push_back(Atom(IriText(clause.iri)));
    list.items.push_back(std::move(using_clause));
  }
  list.items.push_back(modify.has_where ? GroupExpr("where", modify.where) : Atom("no-where"));
  return list;
}

SExpr OperationExpr(const UpdateOperation& operation) {
  struct Visitor {
    SExpr operator()(const InsertData& insert) const {
      SExpr list = List("insert-data");
      if (insert.or_replace) list.items.push_back(Atom("or-replace"));
      if (insert.silent) list.items.push_back(Atom("silent"));
      AddQuads(insert.quads, list);
      return list;
    }
    SExpr operator()(const DeleteData& del) const { return QuadsExpr("delete-data", del.quads); }
    SExpr operator()(const DeleteWhere& del) const { return QuadsExpr("delete-where", del.quads); }
    SExpr operator()(const Modify& modify) const { return ModifyExpr(modify); }
    SExpr operator()(const Load& load) const {
      SExpr list = Flagged("load", load.silent);
      list.items.push_back(Atom(IriText(load.iri)));
      if (load.into_graph) {
        SExpr into = List("into");
        into.items.push_back(Atom(IriText(*load.into_graph)));
        list.items.push_back(std::move(into));
      }
      return list;
    }
    SExpr operator()(const Clear& clear) const {
      SExpr list = Flagged("clear", clear.silent);
      list.items.push_back(Atom(GraphRefText(clear.target)));
      return list;
    }
    SExpr operator()(const Drop& drop) const {
      SExpr list = Flagged("drop", drop.silent);
      list.items.push_back(Atom(GraphRefText(drop.target)));
      return list;
    }
    SExpr operator()(const Create& create) const {
      SExpr list = Flagged("create", create.silent);
      list.items.push_back(Atom(IriText(create.graph_iri)));
      return list;
    }
    SExpr operator()(const Add& add) const { return TransferExpr("add", add); }
    SExpr operator()(const Move& move) const { return TransferExpr("move", move); }
    SExpr operator()(const Copy& copy) const { return TransferExpr("copy", copy); }
  };
  return std::visit(Visitor{}, operation);
}

}  // namespace
}  // namespace sexpr

std::string ToSExpression(const Update& update) {
  sexpr::SExpr list = sexpr::List("update");
  for (const UpdateOperation& operation : update.operations) {
    list.items.push_back(sexpr::OperationExpr(operation));
  }
  std::string out;
  sexpr::Render(list, 0, out);
  out += '\n';
  return out;
}

}  // namespace quarry::sparql
