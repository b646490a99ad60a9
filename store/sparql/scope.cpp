// In-scope variables (SPARQL 1.1 §18.2.1) and expression walks used by the parser's checks.
// The AST's height is bounded by the parser's depth budget, so recursion here is safe.
#include <algorithm>

#include "store/sparql/parser_impl.h"

namespace quarry::sparql {

namespace {

void AddName(const std::string& name, std::vector<std::string>& out) {
  if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
}

void AddTermVariable(const Term& term, std::vector<std::string>& out) {
  if (const auto* variable = std::get_if<Variable>(&term)) AddName(variable->name, out);
}

template <typename... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <typename... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace

void AddInScopeVariables(const GroupGraphPattern& group, std::vector<std::string>& out) {
  for (const PatternElement& element : group.elements) AddInScopeVariables(element, out);
}

void AddInScopeVariables(const PatternElement& element, std::vector<std::string>& out) {
  std::visit(
      Overloaded{
          [&](const TriplesBlock& block) {
            for (const TriplePattern& triple : block.triples) {
              AddTermVariable(triple.subject, out);
              if (const auto* term = std::get_if<Term>(&triple.predicate)) {
                AddTermVariable(*term, out);
              }
              AddTermVariable(triple.object, out);
            }
          },
          [](const Filter&) {},
          [&](const OptionalPattern& optional) { AddInScopeVariables(optional.pattern, out); },
          [&](const UnionPattern& union_pattern) {
            for (const GroupGraphPattern& branch : union_pattern.branches) {
              AddInScopeVariables(branch, out);
            }
          },
          [](const MinusPattern&) {},  // MINUS binds nothing
          [&](const GraphPattern& graph) {
            AddTermVariable(graph.graph, out);
            AddInScopeVariables(graph.pattern, out);
          },
          [&](const ServicePattern& service) {
            AddTermVariable(service.endpoint, out);
            AddInScopeVariables(service.pattern, out);
          },
          [&](const Bind& bind) { AddName(bind.variable.name, out); },
          [&](const InlineData& data) {
            for (const Variable& variable : data.variables) AddName(variable.name, out);
          },
          [&](const NestedGroup& nested) { AddInScopeVariables(nested.pattern, out); },
          [&](const std::unique_ptr<SubSelect>& sub_select) {
            if (sub_select->select.star) {
              AddInScopeVariables(sub_select->where, out);
              return;
            }
            for (const SelectItem& item : sub_select->select.items) {
              if (item.variable) AddName(item.variable->name, out);
            }
          },
      },
      element.node);
}

void AddExpressionVariables(const Expr& expr, bool skip_aggregates, std::vector<std::string>& out) {
  auto add_all = [&](const std::vector<Expr>& exprs) {
    for (const Expr& child : exprs) AddExpressionVariables(child, skip_aggregates, out);
  };
  std::visit(Overloaded{
                 [&](const Term& term) { AddTermVariable(term, out); },
                 [&](const BinaryExpr& binary) {
                   AddExpressionVariables(*binary.left, skip_aggregates, out);
                   AddExpressionVariables(*binary.right, skip_aggregates, out);
                 },
                 [&](const UnaryExpr& unary) {
                   AddExpressionVariables(*unary.operand, skip_aggregates, out);
                 },
                 [&](const BuiltinCall& call) { add_all(call.args); },
                 [&](const FunctionCall& call) { add_all(call.args); },
                 [&](const Aggregate& aggregate) {
                   if (!skip_aggregates && aggregate.arg) {
                     AddExpressionVariables(*aggregate.arg, skip_aggregates, out);
                   }
                 },
                 // EXISTS evaluates its pattern per solution; it adds no grouping demands.
                 [](const Exists&) {},
                 [&](const In& in) {
                   AddExpressionVariables(*in.operand, skip_aggregates, out);
                   add_all(in.list);
                 },
             },
             expr.node);
}

bool ContainsAggregate(const Expr& expr) {
  auto any_of = [](const std::vector<Expr>& exprs) {
    return std::any_of(exprs.begin(), exprs.end(),
                       [](const Expr& child) { return ContainsAggregate(child); });
  };
  return std::visit(
      Overloaded{
          [](const Term&) { return false; },
          [](const BinaryExpr& binary) {
            return ContainsAggregate(*binary.left) || ContainsAggregate(*binary.right);
          },
          [](const UnaryExpr& unary) { return ContainsAggregate(*unary.operand); },
          [&](const BuiltinCall& call) { return any_of(call.args); },
          [&](const FunctionCall& call) { return any_of(call.args); },
          [](const Aggregate&) { return true; },
          [](const Exists&) { return false; },
          [&](const In& in) { return ContainsAggregate(*in.operand) || any_of(in.list); },
      },
      expr.node);
}

}  // namespace quarry::sparql
