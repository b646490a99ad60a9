// S-expression rendering of the AST for golden tests: the AST is first turned into a tree of
// atoms and lists, which is then laid out one line per list when it fits in kWidth columns,
// otherwise with each non-atom child on its own indented line.
#include <fmt/format.h>

#include "store/common/sparql_quote.h"
#include "store/sparql/parser.h"
#include "store/sparql/sexpr.h"

namespace quarry::sparql {

namespace sexpr {

constexpr size_t kWidth = 100;

SExpr Atom(std::string text) { return SExpr{std::move(text), {}, false}; }
SExpr List(std::string head) {
  SExpr list{{}, {}, true};
  list.items.push_back(Atom(std::move(head)));
  return list;
}

void RenderFlat(const SExpr& expr, std::string& out) {
  if (!expr.is_list) {
    out += expr.atom;
    return;
  }
  out += '(';
  for (size_t i = 0; i < expr.items.size(); ++i) {
    if (i > 0) out += ' ';
    RenderFlat(expr.items[i], out);
  }
  out += ')';
}

void Render(const SExpr& expr, size_t indent, std::string& out) {
  std::string flat;
  RenderFlat(expr, flat);
  if (!expr.is_list || indent + flat.size() <= kWidth) {
    out += flat;
    return;
  }
  out += '(';
  size_t i = 0;
  // Leading atoms stay on the first line: "(select distinct".
  for (; i < expr.items.size() && !expr.items[i].is_list; ++i) {
    if (i > 0) out += ' ';
    out += expr.items[i].atom;
  }
  for (; i < expr.items.size(); ++i) {
    out += '\n';
    out.append(indent + 2, ' ');
    Render(expr.items[i], indent + 2, out);
  }
  out += ')';
}

std::string IriText(std::string_view iri) { return fmt::format("<{}>", iri); }

std::string TermText(const Term& term) {
  struct Visitor {
    std::string operator()(const Variable& v) const { return "?" + v.name; }
    std::string operator()(const Iri& iri) const { return IriText(iri.iri); }
    std::string operator()(const BlankNode& node) const { return "_:" + node.label; }
    std::string operator()(const Parameter& p) const { return "~" + p.name; }
    std::string operator()(const Literal& literal) const {
      std::string text = SparqlString(literal.lexical);
      if (!literal.lang.empty()) return text + "@" + literal.lang;
      if (literal.datatype_iri == kXsdString) return text;
      const std::string_view datatype = literal.datatype_iri;
      if (datatype.substr(0, kXsdNs.size()) == kXsdNs) {
        return fmt::format("{}^^xsd:{}", text, datatype.substr(kXsdNs.size()));
      }
      return text + "^^" + IriText(datatype);
    }
  };
  return std::visit(Visitor{}, term);
}

SExpr PathExpr(const Path& path) {
  static constexpr const char* kHeads[] = {"link", "inv", "seq", "alt", "*", "+", "?", "not"};
  if (path.kind == PathKind::kLink) return Atom(IriText(path.iri));
  SExpr list = List(kHeads[static_cast<int>(path.kind)]);
  for (const Path& child : path.children) list.items.push_back(PathExpr(child));
  for (const NegatedPathItem& item : path.negated) {
    list.items.push_back(item.inverse ? Atom("(inv " + IriText(item.iri) + ")")
                                      : Atom(IriText(item.iri)));
  }
  return list;
}

SExpr TripleExpr(const TriplePattern& triple) {
  SExpr list{{}, {}, true};
  list.items.push_back(Atom(TermText(triple.subject)));
  if (const Term* term = std::get_if<Term>(&triple.predicate)) {
    list.items.push_back(Atom(TermText(*term)));
  } else {
    list.items.push_back(PathExpr(std::get<Path>(triple.predicate)));
  }
  list.items.push_back(Atom(TermText(triple.object)));
  return list;
}

SExpr Triples(std::string head, const std::vector<TriplePattern>& triples) {
  SExpr list = List(std::move(head));
  for (const TriplePattern& triple : triples) list.items.push_back(TripleExpr(triple));
  return list;
}

SExpr GroupExpr(std::string head, const GroupGraphPattern& group);
SExpr SubSelectExpr(const SubSelect& sub_select);

SExpr ExprExpr(const Expr& expr);

SExpr Call(std::string head, const std::vector<Expr>& args) {
  SExpr list = List(std::move(head));
  for (const Expr& arg : args) list.items.push_back(ExprExpr(arg));
  return list;
}

std::string_view BinaryOpText(BinaryOp op) {
  static constexpr std::string_view kTexts[] = {"||", "&&", "=", "!=", "<", ">",
                                                "<=", ">=", "+", "-",  "*", "/"};
  return kTexts[static_cast<int>(op)];
}

SExpr ExprExpr(const Expr& expr) {
  struct Visitor {
    SExpr operator()(const Term& term) const { return Atom(TermText(term)); }
    SExpr operator()(const BinaryExpr& binary) const {
      SExpr list = List(std::string(BinaryOpText(binary.op)));
      list.items.push_back(ExprExpr(*binary.left));
      list.items.push_back(ExprExpr(*binary.right));
      return list;
    }
    SExpr operator()(const UnaryExpr& unary) const {
      static constexpr const char* kTexts[] = {"!", "-", "+"};
      SExpr list = List(kTexts[static_cast<int>(unary.op)]);
      list.items.push_back(ExprExpr(*unary.operand));
      return list;
    }
    SExpr operator()(const BuiltinCall& call) const {
      return Call(std::string(BuiltinName(call.function)), call.args);
    }
    SExpr operator()(const FunctionCall& call) const {
      SExpr list = Call("call", call.args);
      list.items.insert(list.items.begin() + 1, Atom(IriText(call.iri)));
      if (call.distinct) list.items.insert(list.items.begin() + 1, Atom("distinct"));
      return list;
    }
    SExpr operator()(const Aggregate& aggregate) const {
      SExpr list = List(std::string(AggregateName(aggregate.op)));
      if (aggregate.distinct) list.items.push_back(Atom("distinct"));
      list.items.push_back(aggregate.arg ? ExprExpr(*aggregate.arg) : Atom("*"));
      if (aggregate.separator) {
        SExpr separator = List("separator");
        separator.items.push_back(Atom(SparqlString(*aggregate.separator)));
        list.items.push_back(std::move(separator));
      }
      return list;
    }
    SExpr operator()(const Exists& exists) const {
      return GroupExpr(exists.negated ? "not-exists" : "exists", *exists.pattern);
    }
    SExpr operator()(const In& in) const {
      SExpr list = Call(in.negated ? "not-in" : "in", in.list);
      list.items.insert(list.items.begin() + 1, ExprExpr(*in.operand));
      return list;
    }
  };
  return std::visit(Visitor{}, expr.node);
}

SExpr ValuesExpr(const InlineData& data) {
  SExpr list = List("values");
  SExpr variables{{}, {}, true};
  for (const Variable& variable : data.variables)
    variables.items.push_back(Atom("?" + variable.name));
  list.items.push_back(std::move(variables));
  for (const auto& row : data.rows) {
    SExpr cells{{}, {}, true};
    for (const std::optional<Term>& cell : row) {
      cells.items.push_back(Atom(cell ? TermText(*cell) : "UNDEF"));
    }
    list.items.push_back(std::move(cells));
  }
  return list;
}

SExpr ElementExpr(const PatternElement& element) {
  struct Visitor {
    SExpr operator()(const TriplesBlock& block) const { return Triples("triples", block.triples); }
    SExpr operator()(const Filter& filter) const {
      SExpr list = List("filter");
      list.items.push_back(ExprExpr(filter.expr));
      return list;
    }
    SExpr operator()(const OptionalPattern& optional) const {
      return GroupExpr("optional", optional.pattern);
    }
    SExpr operator()(const UnionPattern& union_pattern) const {
      SExpr list = List("union");
      for (const auto& branch : union_pattern.branches) {
        list.items.push_back(GroupExpr("group", branch));
      }
      return list;
    }
    SExpr operator()(const MinusPattern& minus) const { return GroupExpr("minus", minus.pattern); }
    SExpr operator()(const GraphPattern& graph) const {
      SExpr list = GroupExpr("graph", graph.pattern);
      list.items.insert(list.items.begin() + 1, Atom(TermText(graph.graph)));
      return list;
    }
    SExpr operator()(const ServicePattern& service) const {
      SExpr list = GroupExpr("service", service.pattern);
      list.items.insert(list.items.begin() + 1, Atom(TermText(service.endpoint)));
      if (service.silent) list.items.insert(list.items.begin() + 1, Atom("silent"));
      return list;
    }
    SExpr operator()(const Bind& bind) const {
      SExpr list = List("bind");
      list.items.push_back(ExprExpr(bind.expr));
      list.items.push_back(Atom("?" + bind.variable.name));
      return list;
    }
    SExpr operator()(const InlineData& data) const { return ValuesExpr(data); }
    SExpr operator()(const NestedGroup& nested) const { return GroupExpr("group", nested.pattern); }
    SExpr operator()(const std::unique_ptr<SubSelect>& sub_select) const {
      return SubSelectExpr(*sub_select);
    }
  };
  return std::visit(Visitor{}, element.node);
}

SExpr GroupExpr(std::string head, const GroupGraphPattern& group) {
  SExpr list = List(std::move(head));
  for (const PatternElement& element : group.elements) list.items.push_back(ElementExpr(element));
  return list;
}

SExpr ProjectionExpr(const SelectClause& select) {
  SExpr list = List("project");
  if (select.star) list.items.push_back(Atom("*"));
  for (const SelectItem& item : select.items) {
    if (!item.expr) {
      list.items.push_back(Atom("?" + item.variable->name));
      continue;
    }
    SExpr as = List(item.variable ? "as" : "unnamed");
    as.items.push_back(ExprExpr(*item.expr));
    if (item.variable) as.items.push_back(Atom("?" + item.variable->name));
    list.items.push_back(std::move(as));
  }
  return list;
}

void AddModifiers(const SolutionModifiers& modifiers, SExpr& out) {
  if (!modifiers.group_by.empty()) {
    SExpr list = List("group-by");
    for (const GroupCondition& condition : modifiers.group_by) {
      if (!condition.variable) {
        list.items.push_back(ExprExpr(condition.expr));
        continue;
      }
      SExpr as = List("as");
      as.items.push_back(ExprExpr(condition.expr));
      as.items.push_back(Atom("?" + condition.variable->name));
      list.items.push_back(std::move(as));
    }
    out.items.push_back(std::move(list));
  }
  if (!modifiers.having.empty()) out.items.push_back(Call("having", modifiers.having));
  if (!modifiers.order_by.empty()) {
    SExpr list = List("order-by");
    for (const OrderCondition& condition : modifiers.order_by) {
      SExpr direction = List(condition.descending ? "desc" : "asc");
      direction.items.push_back(ExprExpr(condition.expr));
      list.items.push_back(std::move(direction));
    }
    out.items.push_back(std::move(list));
  }
  auto add_number = [&](const char* head, const std::optional<int64_t>& value,
                        const std::optional<Parameter>& parameter) {
    if (!value && !parameter) return;
    SExpr list = List(head);
    list.items.push_back(Atom(value ? std::to_string(*value) : "~" + parameter->name));
    out.items.push_back(std::move(list));
  };
  add_number("limit", modifiers.limit, modifiers.limit_parameter);
  add_number("offset", modifiers.offset, modifiers.offset_parameter);
}

SExpr SelectExpr(const char* head, const SelectClause& select) {
  SExpr list = List(head);
  if (select.distinct) list.items.push_back(Atom("distinct"));
  if (select.reduced) list.items.push_back(Atom("reduced"));
  list.items.push_back(ProjectionExpr(select));
  return list;
}

SExpr SubSelectExpr(const SubSelect& sub_select) {
  SExpr list = SelectExpr("subselect", sub_select.select);
  list.items.push_back(GroupExpr("where", sub_select.where));
  AddModifiers(sub_select.modifiers, list);
  if (sub_select.values) list.items.push_back(ValuesExpr(*sub_select.values));
  return list;
}

SExpr QueryExpr(const Query& query) {
  SExpr list;
  switch (query.form) {
    case QueryForm::kSelect:
      list = SelectExpr("select", query.select);
      break;
    case QueryForm::kConstruct:
      list = List("construct");
      list.items.push_back(Triples("template", query.construct_template));
      break;
    case QueryForm::kDescribe:
      list = List("describe");
      if (query.select.star) list.items.push_back(Atom("*"));
      for (const Term& term : query.describe) list.items.push_back(Atom(TermText(term)));
      break;
    case QueryForm::kAsk:
      list = List("ask");
      break;
  }
  for (const DatasetClause& clause : query.dataset) {
    SExpr from = List(clause.named ? "from-named" : "from");
    from.items.push_back(Atom(IriText(clause.iri)));
    list.items.push_back(std::move(from));
  }
  if (query.has_where) list.items.push_back(GroupExpr("where", query.where));
  AddModifiers(query.modifiers, list);
  if (query.values) list.items.push_back(ValuesExpr(*query.values));
  return list;
}

}  // namespace sexpr

std::string ToSExpression(const Expr& expr) {
  std::string out;
  sexpr::RenderFlat(sexpr::ExprExpr(expr), out);
  return out;
}

std::string ToSExpression(const Path& path) {
  std::string out;
  sexpr::RenderFlat(sexpr::PathExpr(path), out);
  return out;
}

std::string ToSExpression(const Query& query) {
  std::string out;
  sexpr::Render(sexpr::QueryExpr(query), 0, out);
  out += '\n';
  return out;
}

}  // namespace quarry::sparql
