// Built-in calls ([121]-[127]): functions named by keyword, aggregates, EXISTS / NOT EXISTS.
#include <fmt/format.h>

#include "store/sparql/parser_impl.h"

namespace quarry::sparql {

namespace {

struct Arity {
  size_t min;
  size_t max;
};
constexpr size_t kVariadic = static_cast<size_t>(-1);

// The argument counts of [121] BuiltInCall and [122]-[124].
Arity ArityOf(Builtin function) {
  switch (function) {
    case Builtin::kRand:
    case Builtin::kNow:
    case Builtin::kUuid:
    case Builtin::kStrUuid:
      return {0, 0};
    case Builtin::kBnode:
      return {0, 1};
    case Builtin::kConcat:
    case Builtin::kCoalesce:
      return {0, kVariadic};
    case Builtin::kLangMatches:
    case Builtin::kContains:
    case Builtin::kStrStarts:
    case Builtin::kStrEnds:
    case Builtin::kStrBefore:
    case Builtin::kStrAfter:
    case Builtin::kStrLang:
    case Builtin::kStrDt:
    case Builtin::kSameTerm:
      return {2, 2};
    case Builtin::kSubstr:
    case Builtin::kRegex:
      return {2, 3};
    case Builtin::kReplace:
      return {3, 4};
    case Builtin::kIf:
      return {3, 3};
    default:
      return {1, 1};
  }
}

std::optional<AggregateOp> AggregateOf(Keyword keyword) {
  switch (keyword) {
    case Keyword::kCount:
      return AggregateOp::kCount;
    case Keyword::kSum:
      return AggregateOp::kSum;
    case Keyword::kMin:
      return AggregateOp::kMin;
    case Keyword::kMax:
      return AggregateOp::kMax;
    case Keyword::kAvg:
      return AggregateOp::kAvg;
    case Keyword::kSample:
      return AggregateOp::kSample;
    case Keyword::kGroupConcat:
      return AggregateOp::kGroupConcat;
    default:
      return std::nullopt;
  }
}

std::string ArityText(Arity arity) {
  if (arity.max == kVariadic) return fmt::format("at least {}", arity.min);
  if (arity.min == arity.max) return fmt::format("{}", arity.min);
  return fmt::format("{} to {}", arity.min, arity.max);
}

}  // namespace

bool Parser::AtBuiltInCall() const {
  if (current_.kind != TokenKind::kWord) return false;
  return current_.builtin != kNoBuiltin || AggregateOf(current_.keyword).has_value() ||
         current_.keyword == Keyword::kExists || current_.keyword == Keyword::kNot;
}

// [121] BuiltInCall ::= Aggregate | 'STR' '(' Expression ')' | ... | 'BOUND' '(' Var ')'
//       | 'BNODE' ( '(' Expression ')' | NIL ) | 'RAND' NIL | 'CONCAT' ExpressionList | ...
//       | RegexExpression | ExistsFunc | NotExistsFunc
Result<Expr> Parser::ParseBuiltInCall() {
  if (AggregateOf(current_.keyword)) return ParseAggregate();
  if (AtKeyword(Keyword::kExists) || AtKeyword(Keyword::kNot)) return ParseExistsFunc();
  const size_t offset = current_.offset;
  BuiltinCall call{static_cast<Builtin>(current_.builtin), {}};
  Advance();
  if (call.function == Builtin::kBound) {
    // 'BOUND' '(' Var ')'
    QUARRY_TRY(Expect(TokenKind::kLParen));
    QUARRY_ASSIGN_OR_RETURN(Variable variable, ParseVar());
    QUARRY_TRY(Expect(TokenKind::kRParen));
    call.args.push_back(Expr{Term(std::move(variable))});
    return Expr{std::move(call)};
  }
  QUARRY_ASSIGN_OR_RETURN(call.args, ParseExpressionList());
  const Arity arity = ArityOf(call.function);
  if (call.args.size() < arity.min || call.args.size() > arity.max) {
    return ErrorAt(offset,
                   fmt::format("{} takes {} argument(s), not {}", BuiltinName(call.function),
                               ArityText(arity), call.args.size()));
  }
  return Expr{std::move(call)};
}

// [127] Aggregate ::= 'COUNT' '(' 'DISTINCT'? ( '*' | Expression ) ')'
//       | 'SUM' '(' 'DISTINCT'? Expression ')' | 'MIN' ... | 'MAX' ... | 'AVG' ...
//       | 'SAMPLE' '(' 'DISTINCT'? Expression ')'
//       | 'GROUP_CONCAT' '(' 'DISTINCT'? Expression ( ';' 'SEPARATOR' '=' String )? ')'
Result<Expr> Parser::ParseAggregate() {
  const size_t offset = current_.offset;
  if (!aggregates_allowed_) {
    return ErrorAt(offset, "aggregates are only allowed in SELECT, HAVING and ORDER BY");
  }
  if (in_aggregate_) return ErrorAt(offset, "aggregates cannot be nested");
  Aggregate aggregate{*AggregateOf(current_.keyword), false, nullptr, std::nullopt};
  Advance();
  QUARRY_TRY(Expect(TokenKind::kLParen));
  aggregate.distinct = AcceptKeyword(Keyword::kDistinct);
  if (aggregate.op == AggregateOp::kCount && Accept(TokenKind::kStar)) {
    QUARRY_TRY(Expect(TokenKind::kRParen));
    return Expr{std::move(aggregate)};
  }
  {
    ScopedValue<bool> inside(in_aggregate_, true);
    QUARRY_ASSIGN_OR_RETURN(Expr arg, ParseExpression());
    aggregate.arg = std::make_unique<Expr>(std::move(arg));
  }
  if (aggregate.op == AggregateOp::kGroupConcat && Accept(TokenKind::kSemicolon)) {
    QUARRY_TRY(ExpectKeyword(Keyword::kSeparator));
    QUARRY_TRY(Expect(TokenKind::kEq));
    QUARRY_ASSIGN_OR_RETURN(aggregate.separator, ParseString());
  }
  QUARRY_TRY(Expect(TokenKind::kRParen));
  return Expr{std::move(aggregate)};
}

// [125] ExistsFunc ::= 'EXISTS' GroupGraphPattern
// [126] NotExistsFunc ::= 'NOT' 'EXISTS' GroupGraphPattern
Result<Expr> Parser::ParseExistsFunc() {
  Exists exists;
  exists.negated = AcceptKeyword(Keyword::kNot);
  QUARRY_TRY(ExpectKeyword(Keyword::kExists));
  // The pattern has its own blank node labels; the BGP around the FILTER goes on after it.
  const uint32_t saved_scope = label_scope_;
  QUARRY_ASSIGN_OR_RETURN(GroupGraphPattern pattern, ParseGroupGraphPattern());
  label_scope_ = saved_scope;
  exists.pattern = std::make_unique<GroupGraphPattern>(std::move(pattern));
  return Expr{std::move(exists)};
}

}  // namespace quarry::sparql
