// The SELECT clause and the checks SPARQL 1.1 puts on projections (§18.2.4.1, §18.2.1).
#include <fmt/format.h>

#include <algorithm>

#include "store/sparql/parser_impl.h"

namespace quarry::sparql {

namespace {

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const Variable* AsVariable(const Expr& expr) {
  const Term* term = std::get_if<Term>(&expr.node);
  return term ? std::get_if<Variable>(term) : nullptr;
}

bool IsGrouped(const SelectClause& select, const SolutionModifiers& modifiers) {
  if (!modifiers.group_by.empty() || !modifiers.having.empty()) return true;
  for (const SelectItem& item : select.items) {
    if (item.expr && ContainsAggregate(*item.expr)) return true;
  }
  for (const OrderCondition& condition : modifiers.order_by) {
    if (ContainsAggregate(condition.expr)) return true;
  }
  return false;
}

}  // namespace

// [9] SelectClause ::= 'SELECT' ( 'DISTINCT' | 'REDUCED' )?
//     ( ( Var | ( '(' Expression 'AS' Var ')' ) )+ | '*' )
// Tracker also takes "Expression ( 'AS' Var )?" and "'(' Expression ')'" without a name.
Result<SelectClause> Parser::ParseSelectClause(std::vector<size_t>& item_offsets) {
  QUARRY_TRY(ExpectKeyword(Keyword::kSelect));
  SelectClause select;
  if (AcceptKeyword(Keyword::kDistinct)) {
    select.distinct = true;
  } else if (AcceptKeyword(Keyword::kReduced)) {
    select.reduced = true;
  }
  if (Accept(TokenKind::kStar)) {
    select.star = true;
    return select;
  }
  ScopedValue<bool> aggregates(aggregates_allowed_, true);
  while (true) {
    const bool tracker_item =
        !strict() && (AtBuiltInCall() || AtIri() || AtLiteralStart() || At(TokenKind::kParameter));
    if (!AtVar() && !At(TokenKind::kLParen) && !tracker_item) break;
    item_offsets.push_back(current_.offset);
    QUARRY_ASSIGN_OR_RETURN(SelectItem item, ParseSelectExpressionItem());
    select.items.push_back(std::move(item));
  }
  if (select.items.empty()) return ErrorExpected("a variable, '(' or '*' after SELECT");
  return select;
}

// One projected item: Var | '(' Expression 'AS' Var ')' (and Tracker's unnamed forms).
Result<SelectItem> Parser::ParseSelectExpressionItem() {
  SelectItem item;
  const size_t offset = current_.offset;
  if (strict() && AtVar()) {
    QUARRY_ASSIGN_OR_RETURN(item.variable, ParseVar());
    return item;
  }
  if (Accept(TokenKind::kLParen)) {
    QUARRY_ASSIGN_OR_RETURN(Expr expr, ParseExpression());
    item.expr = std::make_unique<Expr>(std::move(expr));
    if (AcceptKeyword(Keyword::kAs)) {
      QUARRY_ASSIGN_OR_RETURN(item.variable, ParseVar());
      QUARRY_TRY(Expect(TokenKind::kRParen));
      return item;
    }
    if (strict()) return ErrorExpected("AS");
    QUARRY_TRY(Expect(TokenKind::kRParen));
  } else {
    QUARRY_ASSIGN_OR_RETURN(Expr expr, ParseExpression());
    item.expr = std::make_unique<Expr>(std::move(expr));
  }
  if (AcceptKeyword(Keyword::kAs)) {
    QUARRY_TRY(CheckExtension(offset, "'expression AS ?var' without parentheses"));
    QUARRY_ASSIGN_OR_RETURN(item.variable, ParseVar());
  } else if (const Variable* variable = AsVariable(*item.expr)) {
    // A lone variable is a plain projection.
    item.variable = *variable;
    item.expr.reset();
  }
  return item;
}

Result<void> Parser::CheckSelect(const SelectClause& select,
                                 const std::vector<size_t>& item_offsets,
                                 const GroupGraphPattern& where, const SolutionModifiers& modifiers,
                                 size_t select_offset) {
  std::vector<std::string> in_scope;
  AddInScopeVariables(where, in_scope);
  std::vector<std::string> projected;
  for (size_t i = 0; i < select.items.size(); ++i) {
    const SelectItem& item = select.items[i];
    if (!item.variable) continue;
    const std::string& name = item.variable->name;
    if (item.expr && (Contains(in_scope, name) || Contains(projected, name))) {
      return ErrorAt(item_offsets[i],
                     fmt::format("?{} is already in scope; (expression AS ?{}) needs a new "
                                 "variable",
                                 name, name));
    }
    projected.push_back(name);
  }
  if (!strict() || !IsGrouped(select, modifiers)) return Ok();
  if (select.star) {
    return ErrorAt(select_offset, "SELECT * cannot be used with GROUP BY or aggregates");
  }
  std::vector<std::string> available;
  for (const GroupCondition& condition : modifiers.group_by) {
    if (condition.variable) {
      available.push_back(condition.variable->name);
    } else if (const Variable* variable = AsVariable(condition.expr)) {
      available.push_back(variable->name);
    }
  }
  for (size_t i = 0; i < select.items.size(); ++i) {
    const SelectItem& item = select.items[i];
    std::vector<std::string> used;
    if (item.expr) {
      AddExpressionVariables(*item.expr, /*skip_aggregates=*/true, used);
    } else {
      used.push_back(item.variable->name);
    }
    for (const std::string& name : used) {
      if (!Contains(available, name)) {
        return ErrorAt(item_offsets[i],
                       fmt::format("?{} is projected but neither grouped nor aggregated", name));
      }
    }
    if (item.variable) available.push_back(item.variable->name);
  }
  return Ok();
}

}  // namespace quarry::sparql
