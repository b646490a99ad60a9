// Group graph patterns and their elements, kept in source order.
#include <fmt/format.h>

#include <algorithm>

#include "store/sparql/parser_impl.h"

namespace quarry::sparql {

namespace {

bool StartsGraphPatternNotTriples(const Token& token) {
  if (token.kind == TokenKind::kLBrace) return true;
  if (token.kind != TokenKind::kWord) return false;
  switch (token.keyword) {
    case Keyword::kOptional:
    case Keyword::kMinus:
    case Keyword::kGraph:
    case Keyword::kService:
    case Keyword::kFilter:
    case Keyword::kBind:
    case Keyword::kValues:
      return true;
    default:
      return false;
  }
}

}  // namespace

// [53] GroupGraphPattern ::= '{' ( SubSelect | GroupGraphPatternSub ) '}'
Result<GroupGraphPattern> Parser::ParseGroupGraphPattern() {
  NestingGuard guard(*this);
  if (guard.too_deep()) return ErrorAt(current_.offset, "graph patterns nested too deeply");
  // Aggregates belong to a SELECT; a sub-select inside turns them on again.
  ScopedValue<bool> no_aggregates(aggregates_allowed_, false);
  ScopedValue<bool> not_in_aggregate(in_aggregate_, false);
  QUARRY_TRY(Expect(TokenKind::kLBrace));
  GroupGraphPattern group;
  if (AtKeyword(Keyword::kSelect)) {
    QUARRY_ASSIGN_OR_RETURN(std::unique_ptr<SubSelect> sub_select, ParseSubSelect());
    group.elements.push_back(PatternElement{std::move(sub_select)});
    if (!At(TokenKind::kRBrace)) return ErrorExpected("'}' after the sub-select");
  } else {
    QUARRY_TRY(ParseGroupGraphPatternSub(group));
  }
  QUARRY_TRY(Expect(TokenKind::kRBrace));
  return group;
}

// [54] GroupGraphPatternSub ::= TriplesBlock? ( GraphPatternNotTriples '.'? TriplesBlock? )*
Result<void> Parser::ParseGroupGraphPatternSub(GroupGraphPattern& group) {
  // Blank node labels are scoped to one BGP; a FILTER does not end the BGP around it.
  uint32_t bgp_scope = ++label_scope_counter_;
  label_scope_ = bgp_scope;
  while (true) {
    if (AtTriplesStart()) {
      TriplesBlock block;
      QUARRY_TRY(ParseTriplesBlock(block.triples));
      group.elements.push_back(PatternElement{std::move(block)});
    }
    if (At(TokenKind::kRBrace)) return Ok();
    if (!StartsGraphPatternNotTriples(current_)) {
      if (AtTriplesStart()) return ErrorExpected("'.' or '}'");
      return ErrorExpected("a triple pattern, a graph pattern or '}'");
    }
    const bool is_filter = AtKeyword(Keyword::kFilter);
    QUARRY_ASSIGN_OR_RETURN(PatternElement element, ParseGraphPatternNotTriples(group));
    group.elements.push_back(std::move(element));
    if (!is_filter) bgp_scope = ++label_scope_counter_;
    label_scope_ = bgp_scope;
    Accept(TokenKind::kDot);
  }
}

// [56] GraphPatternNotTriples ::= GroupOrUnionGraphPattern | OptionalGraphPattern
//      | MinusGraphPattern | GraphGraphPattern | ServiceGraphPattern | Filter | Bind | InlineData
Result<PatternElement> Parser::ParseGraphPatternNotTriples(const GroupGraphPattern& group) {
  if (At(TokenKind::kLBrace)) return ParseGroupOrUnionGraphPattern();
  switch (current_.keyword) {
    case Keyword::kOptional: {  // [57] OptionalGraphPattern ::= 'OPTIONAL' GroupGraphPattern
      Advance();
      QUARRY_ASSIGN_OR_RETURN(GroupGraphPattern pattern, ParseGroupGraphPattern());
      return PatternElement{OptionalPattern{std::move(pattern)}};
    }
    case Keyword::kMinus: {  // [66] MinusGraphPattern ::= 'MINUS' GroupGraphPattern
      Advance();
      QUARRY_ASSIGN_OR_RETURN(GroupGraphPattern pattern, ParseGroupGraphPattern());
      return PatternElement{MinusPattern{std::move(pattern)}};
    }
    case Keyword::kGraph:
      return ParseGraphGraphPattern();
    case Keyword::kService:
      return ParseServiceGraphPattern();
    case Keyword::kFilter: {  // [68] Filter ::= 'FILTER' Constraint
      Advance();
      QUARRY_ASSIGN_OR_RETURN(Expr constraint, ParseConstraint());
      return PatternElement{Filter{std::move(constraint)}};
    }
    case Keyword::kBind:
      return ParseBind(group);
    default: {  // [61] InlineData ::= 'VALUES' DataBlock
      Advance();
      QUARRY_ASSIGN_OR_RETURN(InlineData data, ParseDataBlock());
      return PatternElement{std::move(data)};
    }
  }
}

// [67] GroupOrUnionGraphPattern ::= GroupGraphPattern ( 'UNION' GroupGraphPattern )*
Result<PatternElement> Parser::ParseGroupOrUnionGraphPattern() {
  QUARRY_ASSIGN_OR_RETURN(GroupGraphPattern first, ParseGroupGraphPattern());
  if (!AtKeyword(Keyword::kUnion)) return PatternElement{NestedGroup{std::move(first)}};
  UnionPattern union_pattern;
  union_pattern.branches.push_back(std::move(first));
  while (AcceptKeyword(Keyword::kUnion)) {
    QUARRY_ASSIGN_OR_RETURN(GroupGraphPattern branch, ParseGroupGraphPattern());
    union_pattern.branches.push_back(std::move(branch));
  }
  return PatternElement{std::move(union_pattern)};
}

// [58] GraphGraphPattern ::= 'GRAPH' VarOrIri GroupGraphPattern
Result<PatternElement> Parser::ParseGraphGraphPattern() {
  Advance();
  QUARRY_ASSIGN_OR_RETURN(Term graph, ParseVarOrIri());
  QUARRY_ASSIGN_OR_RETURN(GroupGraphPattern pattern, ParseGroupGraphPattern());
  return PatternElement{GraphPattern{std::move(graph), std::move(pattern)}};
}

// [59] ServiceGraphPattern ::= 'SERVICE' 'SILENT'? VarOrIri GroupGraphPattern
Result<PatternElement> Parser::ParseServiceGraphPattern() {
  Advance();
  ServicePattern service;
  service.silent = AcceptKeyword(Keyword::kSilent);
  QUARRY_ASSIGN_OR_RETURN(service.endpoint, ParseVarOrIri());
  QUARRY_ASSIGN_OR_RETURN(service.pattern, ParseGroupGraphPattern());
  return PatternElement{std::move(service)};
}

// [60] Bind ::= 'BIND' '(' Expression 'AS' Var ')'
// §18.2.1: the variable must not be in scope in the group before the BIND.
Result<PatternElement> Parser::ParseBind(const GroupGraphPattern& group) {
  Advance();
  QUARRY_TRY(Expect(TokenKind::kLParen));
  QUARRY_ASSIGN_OR_RETURN(Expr expr, ParseExpression());
  QUARRY_TRY(ExpectKeyword(Keyword::kAs));
  const size_t variable_offset = current_.offset;
  QUARRY_ASSIGN_OR_RETURN(Variable variable, ParseVar());
  QUARRY_TRY(Expect(TokenKind::kRParen));
  std::vector<std::string> in_scope;
  AddInScopeVariables(group, in_scope);
  if (std::find(in_scope.begin(), in_scope.end(), variable.name) != in_scope.end()) {
    return ErrorAt(variable_offset,
                   fmt::format("BIND assigns ?{}, which is already in scope", variable.name));
  }
  return PatternElement{Bind{std::move(expr), std::move(variable)}};
}

// [62] DataBlock ::= InlineDataOneVar | InlineDataFull
// [63] InlineDataOneVar ::= Var '{' DataBlockValue* '}'
// [64] InlineDataFull ::= ( NIL | '(' Var* ')' ) '{' ( '(' DataBlockValue* ')' | NIL )* '}'
Result<InlineData> Parser::ParseDataBlock() {
  InlineData data;
  if (AtVar()) {
    QUARRY_ASSIGN_OR_RETURN(Variable variable, ParseVar());
    data.variables.push_back(std::move(variable));
    QUARRY_TRY(Expect(TokenKind::kLBrace));
    while (!Accept(TokenKind::kRBrace)) {
      QUARRY_ASSIGN_OR_RETURN(std::optional<Term> value, ParseDataBlockValue());
      data.rows.push_back({std::move(value)});
    }
    return data;
  }
  if (!Accept(TokenKind::kNil)) {
    if (!Accept(TokenKind::kLParen)) return ErrorExpected("a variable or '(' after VALUES");
    while (!Accept(TokenKind::kRParen)) {
      QUARRY_ASSIGN_OR_RETURN(Variable variable, ParseVar());
      data.variables.push_back(std::move(variable));
    }
  }
  QUARRY_TRY(Expect(TokenKind::kLBrace));
  while (!Accept(TokenKind::kRBrace)) {
    QUARRY_ASSIGN_OR_RETURN(auto row, ParseDataBlockRow(data.variables.size()));
    data.rows.push_back(std::move(row));
  }
  return data;
}

// One '(' DataBlockValue* ')' or NIL row of InlineDataFull, with exactly `width` values.
Result<std::vector<std::optional<Term>>> Parser::ParseDataBlockRow(size_t width) {
  const size_t row_offset = current_.offset;
  std::vector<std::optional<Term>> row;
  if (!Accept(TokenKind::kNil)) {
    if (!Accept(TokenKind::kLParen)) return ErrorExpected("'(' starting a row of values or '}'");
    while (!Accept(TokenKind::kRParen)) {
      QUARRY_ASSIGN_OR_RETURN(std::optional<Term> value, ParseDataBlockValue());
      row.push_back(std::move(value));
    }
  }
  if (row.size() != width) {
    return ErrorAt(row_offset, fmt::format("this row of VALUES has {} value(s) for {} variable(s)",
                                           row.size(), width));
  }
  return row;
}

// [65] DataBlockValue ::= iri | RDFLiteral | NumericLiteral | BooleanLiteral | 'UNDEF'
Result<std::optional<Term>> Parser::ParseDataBlockValue() {
  if (AcceptKeyword(Keyword::kUndef)) return std::optional<Term>();
  if (At(TokenKind::kParameter)) {
    QUARRY_ASSIGN_OR_RETURN(Term parameter, ParseParameter());
    return std::optional<Term>(std::move(parameter));
  }
  if (!AtIri() && !AtLiteralStart()) return ErrorExpected("an IRI, a literal or UNDEF");
  QUARRY_ASSIGN_OR_RETURN(Term term, ParseGraphTerm());
  return std::optional<Term>(std::move(term));
}

// [8] SubSelect ::= SelectClause WhereClause SolutionModifier ValuesClause
Result<std::unique_ptr<SubSelect>> Parser::ParseSubSelect() {
  auto sub_select = std::make_unique<SubSelect>();
  const size_t select_offset = current_.offset;
  std::vector<size_t> item_offsets;
  QUARRY_ASSIGN_OR_RETURN(sub_select->select, ParseSelectClause(item_offsets));
  QUARRY_ASSIGN_OR_RETURN(sub_select->where, ParseWhereClause());
  QUARRY_ASSIGN_OR_RETURN(sub_select->modifiers, ParseSolutionModifier());
  QUARRY_ASSIGN_OR_RETURN(sub_select->values, ParseValuesClause());
  QUARRY_TRY(CheckSelect(sub_select->select, item_offsets, sub_select->where, sub_select->modifiers,
                         select_offset));
  return sub_select;
}

}  // namespace quarry::sparql
