// Query forms, dataset clauses, WHERE and solution modifiers.
#include <fmt/format.h>

#include <charconv>

#include "store/sparql/parser_impl.h"

namespace quarry::sparql {

namespace {

// The rules for triples in a query's WHERE clause (and an update's).
TripleRules WhereRules() {
  TripleRules rules;
  rules.check_label_scope = true;
  rules.context = "WHERE";
  return rules;
}

TripleRules TemplateRules() {
  TripleRules rules;
  rules.paths = false;
  rules.context = "a CONSTRUCT template";
  return rules;
}

}  // namespace

// [1] QueryUnit ::= Query
// [2] Query ::= Prologue ( SelectQuery | ConstructQuery | DescribeQuery | AskQuery ) ValuesClause
Result<Query> Parser::ParseQueryUnit() {
  Query query;
  QUARRY_TRY(ParsePrologue());
  if (AtKeyword(Keyword::kSelect)) {
    QUARRY_TRY(ParseSelectQuery(query));
  } else if (AtKeyword(Keyword::kConstruct)) {
    QUARRY_TRY(ParseConstructQuery(query));
  } else if (AtKeyword(Keyword::kDescribe)) {
    QUARRY_TRY(ParseDescribeQuery(query));
  } else if (AtKeyword(Keyword::kAsk)) {
    QUARRY_TRY(ParseAskQuery(query));
  } else {
    return ErrorExpected("SELECT, CONSTRUCT, DESCRIBE or ASK");
  }
  QUARRY_ASSIGN_OR_RETURN(query.values, ParseValuesClause());
  if (!At(TokenKind::kEnd)) return ErrorExpected("end of query");
  query.base_iri = base_;
  query.prefixes.insert(prefixes_.begin(), prefixes_.end());
  return query;
}

// [7] SelectQuery ::= SelectClause DatasetClause* WhereClause SolutionModifier
Result<void> Parser::ParseSelectQuery(Query& query) {
  query.form = QueryForm::kSelect;
  const size_t select_offset = current_.offset;
  std::vector<size_t> item_offsets;
  QUARRY_ASSIGN_OR_RETURN(query.select, ParseSelectClause(item_offsets));
  QUARRY_TRY(ParseDatasetClauses(query.dataset));
  QUARRY_ASSIGN_OR_RETURN(query.where, ParseWhereClause());
  QUARRY_ASSIGN_OR_RETURN(query.modifiers, ParseSolutionModifier());
  return CheckSelect(query.select, item_offsets, query.where, query.modifiers, select_offset);
}

// [10] ConstructQuery ::= 'CONSTRUCT' ( ConstructTemplate DatasetClause* WhereClause
//      SolutionModifier | DatasetClause* 'WHERE' '{' TriplesTemplate? '}' SolutionModifier )
// [73] ConstructTemplate ::= '{' ConstructTriples? '}'
Result<void> Parser::ParseConstructQuery(Query& query) {
  query.form = QueryForm::kConstruct;
  Advance();
  if (At(TokenKind::kLBrace)) {
    {
      ScopedValue<TripleRules> rules(rules_, TemplateRules());
      Advance();
      if (AtTriplesStart()) QUARRY_TRY(ParseTriplesTemplate(query.construct_template));
      QUARRY_TRY(Expect(TokenKind::kRBrace));
    }
    QUARRY_TRY(ParseDatasetClauses(query.dataset));
    QUARRY_ASSIGN_OR_RETURN(query.where, ParseWhereClause());
  } else {
    // CONSTRUCT WHERE { triples }: the template is the pattern.
    QUARRY_TRY(ParseDatasetClauses(query.dataset));
    QUARRY_TRY(ExpectKeyword(Keyword::kWhere));
    ScopedValue<TripleRules> rules(rules_, WhereRules());
    rules_.paths = false;
    label_scope_ = ++label_scope_counter_;
    QUARRY_TRY(Expect(TokenKind::kLBrace));
    if (AtTriplesStart()) QUARRY_TRY(ParseTriplesTemplate(query.construct_template));
    QUARRY_TRY(Expect(TokenKind::kRBrace));
    query.where.elements.push_back(PatternElement{TriplesBlock{query.construct_template}});
  }
  QUARRY_ASSIGN_OR_RETURN(query.modifiers, ParseSolutionModifier());
  return Ok();
}

// [11] DescribeQuery ::= 'DESCRIBE' ( VarOrIri+ | '*' ) DatasetClause* WhereClause?
//      SolutionModifier
Result<void> Parser::ParseDescribeQuery(Query& query) {
  query.form = QueryForm::kDescribe;
  Advance();
  if (Accept(TokenKind::kStar)) {
    query.select.star = true;
  } else {
    do {
      QUARRY_ASSIGN_OR_RETURN(Term term, ParseVarOrIri());
      query.describe.push_back(std::move(term));
    } while (AtVar() || AtIri() || At(TokenKind::kParameter));
  }
  QUARRY_TRY(ParseDatasetClauses(query.dataset));
  query.has_where = AtKeyword(Keyword::kWhere) || At(TokenKind::kLBrace);
  if (query.has_where) {
    QUARRY_ASSIGN_OR_RETURN(query.where, ParseWhereClause());
  }
  QUARRY_ASSIGN_OR_RETURN(query.modifiers, ParseSolutionModifier());
  return Ok();
}

// [12] AskQuery ::= 'ASK' DatasetClause* WhereClause SolutionModifier
Result<void> Parser::ParseAskQuery(Query& query) {
  query.form = QueryForm::kAsk;
  Advance();
  QUARRY_TRY(ParseDatasetClauses(query.dataset));
  QUARRY_ASSIGN_OR_RETURN(query.where, ParseWhereClause());
  QUARRY_ASSIGN_OR_RETURN(query.modifiers, ParseSolutionModifier());
  return Ok();
}

// [13] DatasetClause ::= 'FROM' ( DefaultGraphClause | NamedGraphClause )
// [14] DefaultGraphClause ::= SourceSelector   [15] NamedGraphClause ::= 'NAMED' SourceSelector
// [16] SourceSelector ::= iri
Result<void> Parser::ParseDatasetClauses(std::vector<DatasetClause>& out) {
  while (AcceptKeyword(Keyword::kFrom)) {
    DatasetClause clause;
    clause.named = AcceptKeyword(Keyword::kNamed);
    QUARRY_ASSIGN_OR_RETURN(clause.iri, ParseIri());
    out.push_back(std::move(clause));
  }
  return Ok();
}

// [17] WhereClause ::= 'WHERE'? GroupGraphPattern
Result<GroupGraphPattern> Parser::ParseWhereClause() {
  AcceptKeyword(Keyword::kWhere);
  if (!At(TokenKind::kLBrace)) return ErrorExpected("'{' starting the WHERE pattern");
  ScopedValue<TripleRules> rules(rules_, WhereRules());
  return ParseGroupGraphPattern();
}

// [18] SolutionModifier ::= GroupClause? HavingClause? OrderClause? LimitOffsetClauses?
Result<SolutionModifiers> Parser::ParseSolutionModifier() {
  SolutionModifiers modifiers;
  if (AtKeyword(Keyword::kGroup)) QUARRY_TRY(ParseGroupClause(modifiers));
  if (AtKeyword(Keyword::kHaving)) QUARRY_TRY(ParseHavingClause(modifiers));
  if (AtKeyword(Keyword::kOrder)) QUARRY_TRY(ParseOrderClause(modifiers));
  if (AtKeyword(Keyword::kLimit) || AtKeyword(Keyword::kOffset)) {
    QUARRY_TRY(ParseLimitOffsetClauses(modifiers));
  }
  return modifiers;
}

// [19] GroupClause ::= 'GROUP' 'BY' GroupCondition+
Result<void> Parser::ParseGroupClause(SolutionModifiers& modifiers) {
  Advance();
  QUARRY_TRY(ExpectKeyword(Keyword::kBy));
  do {
    QUARRY_ASSIGN_OR_RETURN(GroupCondition condition, ParseGroupCondition());
    modifiers.group_by.push_back(std::move(condition));
  } while (AtVar() || At(TokenKind::kLParen) || AtBuiltInCall() || AtIri());
  return Ok();
}

// [20] GroupCondition ::= BuiltInCall | FunctionCall | '(' Expression ( 'AS' Var )? ')' | Var
Result<GroupCondition> Parser::ParseGroupCondition() {
  GroupCondition condition;
  if (AtVar()) {
    QUARRY_ASSIGN_OR_RETURN(Variable variable, ParseVar());
    condition.expr = Expr{Term(std::move(variable))};
  } else if (Accept(TokenKind::kLParen)) {
    QUARRY_ASSIGN_OR_RETURN(condition.expr, ParseExpression());
    if (AcceptKeyword(Keyword::kAs)) {
      QUARRY_ASSIGN_OR_RETURN(condition.variable, ParseVar());
    }
    QUARRY_TRY(Expect(TokenKind::kRParen));
  } else if (AtBuiltInCall()) {
    QUARRY_ASSIGN_OR_RETURN(condition.expr, ParseBuiltInCall());
  } else if (AtIri()) {
    QUARRY_ASSIGN_OR_RETURN(condition.expr, ParseFunctionCall());
  } else {
    return ErrorExpected("a variable, '(' or a function call after GROUP BY");
  }
  return condition;
}

// [21] HavingClause ::= 'HAVING' HavingCondition+   [22] HavingCondition ::= Constraint
Result<void> Parser::ParseHavingClause(SolutionModifiers& modifiers) {
  Advance();
  ScopedValue<bool> aggregates(aggregates_allowed_, true);
  do {
    QUARRY_ASSIGN_OR_RETURN(Expr condition, ParseConstraint());
    modifiers.having.push_back(std::move(condition));
  } while (At(TokenKind::kLParen) || AtBuiltInCall() || AtIri());
  return Ok();
}

// [23] OrderClause ::= 'ORDER' 'BY' OrderCondition+
Result<void> Parser::ParseOrderClause(SolutionModifiers& modifiers) {
  Advance();
  QUARRY_TRY(ExpectKeyword(Keyword::kBy));
  ScopedValue<bool> aggregates(aggregates_allowed_, true);
  do {
    QUARRY_ASSIGN_OR_RETURN(OrderCondition condition, ParseOrderCondition());
    modifiers.order_by.push_back(std::move(condition));
  } while (AtKeyword(Keyword::kAsc) || AtKeyword(Keyword::kDesc) || AtVar() ||
           At(TokenKind::kLParen) || AtBuiltInCall() || AtIri());
  return Ok();
}

// [24] OrderCondition ::= ( ( 'ASC' | 'DESC' ) BrackettedExpression ) | ( Constraint | Var )
Result<OrderCondition> Parser::ParseOrderCondition() {
  OrderCondition condition;
  if (AtKeyword(Keyword::kAsc) || AtKeyword(Keyword::kDesc)) {
    condition.descending = AtKeyword(Keyword::kDesc);
    Advance();
    QUARRY_ASSIGN_OR_RETURN(condition.expr, ParseBrackettedExpression());
  } else if (AtVar()) {
    QUARRY_ASSIGN_OR_RETURN(Variable variable, ParseVar());
    condition.expr = Expr{Term(std::move(variable))};
  } else {
    QUARRY_ASSIGN_OR_RETURN(condition.expr, ParseConstraint());
  }
  return condition;
}

// [25] LimitOffsetClauses ::= LimitClause OffsetClause? | OffsetClause LimitClause?
Result<void> Parser::ParseLimitOffsetClauses(SolutionModifiers& modifiers) {
  auto parse_limit = [&] { return ParseLimitOrOffset(modifiers.limit, modifiers.limit_parameter); };
  auto parse_offset = [&] {
    return ParseLimitOrOffset(modifiers.offset, modifiers.offset_parameter);
  };
  if (AcceptKeyword(Keyword::kLimit)) {
    QUARRY_TRY(parse_limit());
    if (AcceptKeyword(Keyword::kOffset)) QUARRY_TRY(parse_offset());
  } else {
    QUARRY_TRY(ExpectKeyword(Keyword::kOffset));
    QUARRY_TRY(parse_offset());
    if (AcceptKeyword(Keyword::kLimit)) QUARRY_TRY(parse_limit());
  }
  return Ok();
}

// [26] LimitClause ::= 'LIMIT' INTEGER   [27] OffsetClause ::= 'OFFSET' INTEGER
// (Tracker also takes a ~parameter)
Result<void> Parser::ParseLimitOrOffset(std::optional<int64_t>& value,
                                        std::optional<Parameter>& parameter) {
  if (At(TokenKind::kParameter)) {
    QUARRY_ASSIGN_OR_RETURN(Term term, ParseParameter());
    parameter = std::get<Parameter>(std::move(term));
    return Ok();
  }
  if (!At(TokenKind::kInteger) || current_.text.front() == '+' || current_.text.front() == '-') {
    return ErrorExpected("an unsigned integer");
  }
  int64_t number = 0;
  const std::string_view text = current_.text;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end != text.data() + text.size()) {
    return ErrorAt(current_.offset, fmt::format("{} is too large", text));
  }
  value = number;
  Advance();
  return Ok();
}

// [28] ValuesClause ::= ( 'VALUES' DataBlock )?
Result<std::optional<InlineData>> Parser::ParseValuesClause() {
  if (!AcceptKeyword(Keyword::kValues)) return std::optional<InlineData>();
  QUARRY_ASSIGN_OR_RETURN(InlineData data, ParseDataBlock());
  return std::optional<InlineData>(std::move(data));
}

}  // namespace quarry::sparql
