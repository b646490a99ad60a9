// Open mode: = != < <= > >= between values read from the quad table (and constants written in
// the query), with SPARQL 1.1's operator mapping (§17.3) instead of SQLite's comparison of
// their comparable values. Those values have lost the datatype: "zzz"^^t:type and the simple
// literal "zzz" have the same value, as have "1"^^xsd:integer and "1"^^xsd:boolean. The term ID
// still has it, so the comparison is the SQL function quarry_rdf_compare (engine,
// sql_compare_functions.cpp) over (value, datatype) pairs, the datatype '' for a resource.
#include <fmt/format.h>

#include "store/schema/quad_table.h"
#include "store/sparql/translate/builtin_helpers.h"

namespace quarry::sparql::translate {
namespace {

// The operator's code for quarry_rdf_compare.
int OperatorCode(BinaryOp op) {
  switch (op) {
    case BinaryOp::kEqual: return 0;
    case BinaryOp::kNotEqual: return 1;
    case BinaryOp::kLess: return 2;
    case BinaryOp::kLessEqual: return 3;
    case BinaryOp::kGreater: return 4;
    default: return 5;  // kGreaterEqual
  }
}

struct TypedValue {
  std::string value;
  std::string datatype;
};

// The (value, datatype) of an operand, when it is a quad-table term or a constant.
std::optional<TypedValue> TypedValueOf(Translator& translator, const Expr& expr, const SqlExpr& value) {
  if (!value.term_id.empty() && !value.is_aggregate) {
    return TypedValue{value.sql,
                      fmt::format("(CASE WHEN {0} > 0 THEN '' ELSE (SELECT Datatype FROM {1} WHERE "
                                  "ID = {0}) END)",
                                  value.term_id, schema::kLiteralTable)};
  }
  const Term* term = std::get_if<Term>(&expr.node);
  if (!term) return std::nullopt;
  if (const auto* iri = std::get_if<Iri>(term)) {
    return TypedValue{translator.BindValue(iri->iri), "''"};
  }
  if (const auto* literal = std::get_if<Literal>(term)) {
    const schema::RdfTerm rdf = schema::RdfTerm::Literal(
        literal->lexical, literal->datatype_iri == kRdfLangString ? "" : literal->datatype_iri,
        literal->lang);
    return TypedValue{translator.BindValue(schema::LiteralValue(rdf)),
                      translator.BindValue(schema::LiteralDatatype(rdf))};
  }
  return std::nullopt;
}

}  // namespace

std::optional<SqlExpr> TermCompare(Translator& translator, BinaryOp op, const Expr& left,
                                   const Expr& right, const SqlExpr& a, const SqlExpr& b) {
  const bool a_term = !a.term_id.empty() && !a.is_aggregate;
  const bool b_term = !b.term_id.empty() && !b.is_aggregate;
  if (!a_term && !b_term) return std::nullopt;
  const std::optional<TypedValue> x = TypedValueOf(translator, left, a);
  const std::optional<TypedValue> y = TypedValueOf(translator, right, b);
  if (!x || !y) return std::nullopt;
  return Boolean(fmt::format("quarry_rdf_compare({}, {}, {}, {}, {})", OperatorCode(op), x->value,
                             x->datatype, y->value, y->datatype));
}

}  // namespace quarry::sparql::translate
