// Open mode: numeric expressions over quad-table terms with their XSD types (SPARQL 1.1 §17.3,
// XPath's promotion integer -> decimal -> float -> double). The dynamic value of a stored number
// (Translator::TermValue) is SQLite's INTEGER or REAL, which cannot tell "3"^^xsd:decimal from
// "3"^^xsd:double; the output form of the term keeps the datatype, and the SQL functions of
// store/engine/sql_numeric_functions.h compute with it exactly (decimals are not doubles).
// SECONDS(...) is an xsd:decimal, TIMEZONE(...) an xsd:dayTimeDuration. Used where the result's
// datatype shows: a projected expression and DATATYPE(...). Filters and comparisons keep the
// native SQLite arithmetic (same values, faster).
#include <fmt/format.h>

#include "store/schema/quad_table.h"
#include "store/sparql/translate/builtin_helpers.h"

namespace quarry::sparql::translate {
namespace {

// The numeric target of a cast IRI whose datatype the untyped translation loses.
std::optional<std::string_view> NumericCast(const std::string& iri) {
  if (iri.rfind(kXsdNs, 0) != 0) return std::nullopt;
  const std::string_view local = std::string_view(iri).substr(kXsdNs.size());
  if (local == "decimal" || local == "float" || local == "double") return local;
  return std::nullopt;
}

std::optional<int> UnaryCode(sparql::Builtin function) {
  switch (function) {
    case sparql::Builtin::kAbs: return 2;
    case sparql::Builtin::kCeil: return 3;
    case sparql::Builtin::kFloor: return 4;
    case sparql::Builtin::kRound: return 5;
    default: return std::nullopt;
  }
}

}  // namespace

Result<std::optional<std::string>> Translator::NumericTerm(const Expr& expr, const Fragment& scope,
                                                           bool operand, bool allow_aggregates) {
  using Sql = std::optional<std::string>;
  if (!open_mode_) return Sql();
  if (const Term* term = std::get_if<Term>(&expr.node)) {
    if (!operand) return Sql();  // a bare term keeps its own output
    if (const auto* literal = std::get_if<Literal>(term)) {
      if (!literal->lang.empty()) return Sql();
      if (literal->datatype_iri.empty()) return Sql(BindValue("S" + literal->lexical));
      if (literal->datatype_iri.rfind(kXsdNs, 0) != 0) return Sql();
      return Sql(BindValue(fmt::format("L{}\x1f{}", literal->datatype_iri, literal->lexical)));
    }
    if (!std::holds_alternative<Variable>(*term)) return Sql();
    QUARRY_ASSIGN_OR_RETURN(const SqlExpr value, Expression(expr, scope));
    if (value.term_id.empty() || value.is_aggregate) return Sql();
    return Sql(schema::TermOutputSql(value.term_id));
  }
  if (const auto* aggregate = std::get_if<Aggregate>(&expr.node)) {
    // (MIN(?p) + MAX(?p)) / 2: the aggregates' own terms. A bare aggregate keeps its own output.
    if (!operand || !allow_aggregates) return Sql();
    if (aggregate->op == AggregateOp::kSum || aggregate->op == AggregateOp::kAvg) {
      return ProjectedTerm(expr, scope);
    }
    QUARRY_ASSIGN_OR_RETURN(const SqlExpr value, Expression(expr, scope, true));
    if (aggregate->op == AggregateOp::kCount) {
      return Sql(fmt::format("('L{}integer' || char(31) || {})", kXsdNs, value.sql));
    }
    if (value.kind != Kind::kTerm || !value.is_aggregate) return Sql();
    return Sql(fmt::format("quarry_term_output({})", value.sql));
  }
  if (const auto* binary = std::get_if<BinaryExpr>(&expr.node)) {
    int op = 0;
    switch (binary->op) {
      case BinaryOp::kAdd: op = 0; break;
      case BinaryOp::kSubtract: op = 1; break;
      case BinaryOp::kMultiply: op = 2; break;
      case BinaryOp::kDivide: op = 3; break;
      default: return Sql();
    }
    QUARRY_ASSIGN_OR_RETURN(const Sql a, NumericTerm(*binary->left, scope, true, allow_aggregates));
    if (!a) return Sql();
    QUARRY_ASSIGN_OR_RETURN(const Sql b, NumericTerm(*binary->right, scope, true, allow_aggregates));
    if (!b) return Sql();
    return Sql(fmt::format("quarry_term_arith({}, {}, {})", op, *a, *b));
  }
  if (const auto* unary = std::get_if<UnaryExpr>(&expr.node)) {
    if (unary->op == UnaryOp::kNot) return Sql();
    QUARRY_ASSIGN_OR_RETURN(const Sql a, NumericTerm(*unary->operand, scope, true, allow_aggregates));
    if (!a) return Sql();
    return Sql(fmt::format("quarry_term_unary({}, {})", unary->op == UnaryOp::kPlus ? 0 : 1, *a));
  }
  if (const auto* call = std::get_if<BuiltinCall>(&expr.node)) {
    if (call->function == sparql::Builtin::kTimezone) {
      // An xsd:dayTimeDuration (not a number: arithmetic on it is an error, NULL).
      QUARRY_ASSIGN_OR_RETURN(const SqlExpr zone, Expression(expr, scope));
      if (zone.is_aggregate) return Sql();
      return Sql(fmt::format("('L{}dayTimeDuration' || char(31) || quarry_text({}))", kXsdNs, zone.sql));
    }
    if (call->function == sparql::Builtin::kSeconds) {
      // An xsd:decimal (XPath fn:seconds-from-dateTime); the date part is computed as a REAL.
      QUARRY_ASSIGN_OR_RETURN(const SqlExpr seconds, Expression(expr, scope));
      if (seconds.is_aggregate) return Sql();
      return Sql(fmt::format("quarry_term_cast('decimal', 'L{}double' || char(31) || CAST({} AS TEXT))",
                             kXsdNs, seconds.sql));
    }
    const std::optional<int> code = UnaryCode(call->function);
    if (!code || call->args.size() != 1) return Sql();
    QUARRY_ASSIGN_OR_RETURN(const Sql a, NumericTerm(call->args[0], scope, true, allow_aggregates));
    if (!a) return Sql();
    return Sql(fmt::format("quarry_term_unary({}, {})", *code, *a));
  }
  if (const auto* call = std::get_if<FunctionCall>(&expr.node)) {
    const std::optional<std::string_view> target = NumericCast(call->iri);
    if (!target || call->args.size() != 1) return Sql();
    QUARRY_ASSIGN_OR_RETURN(const Sql a, NumericTerm(call->args[0], scope, true, allow_aggregates));
    if (!a) return Sql();
    return Sql(fmt::format("quarry_term_cast('{}', {})", *target, *a));
  }
  return Sql();
}

}  // namespace quarry::sparql::translate
