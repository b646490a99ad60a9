// Open mode: functions on the RDF term itself (SPARQL 1.1 §17.4.2) for values read from the
// quad table. Their dynamic value (Translator::TermValue) is the comparable form — 1 for
// "01"^^xsd:integer, the IRI's text for a resource — which has lost what these functions ask:
// the lexical form, the language tag, the datatype, and whether an IRI or a string was stored.
// The term ID keeps all of it (store/schema/quad_table.h): positive IDs are resources, negative
// ones rows of the literal table.
#include <fmt/format.h>

#include "store/schema/quad_table.h"
#include "store/sparql/translate/builtin_helpers.h"

namespace quarry::sparql::translate {
namespace {

using schema::kLiteralTable;

std::string LiteralColumn(const std::string& id, std::string_view column) {
  return fmt::format("(CASE WHEN {0} < 0 THEN (SELECT {1} FROM {2} WHERE ID = {0}) END)", id,
                     column, kLiteralTable);
}

// A resource's IRI; NULL for a blank node. A computed term may be an IRI the store does not
// hold, as the TEXT 'I' + IRI (quad_table.h).
std::string ResourceUri(const std::string& id) {
  return fmt::format(
      "(CASE WHEN typeof({0}) = 'text' THEN substr({0}, 2) ELSE (SELECT Uri FROM Resource WHERE ID = {0}) END)",
      id);
}

// A truth value that is NULL (an error, unbound) when the term is.
std::string Test(const std::string& id, const std::string& condition) {
  return fmt::format("(CASE WHEN {} IS NOT NULL THEN ({}) END)", id, condition);
}

std::optional<SqlExpr> SameTermOf(const std::vector<SqlExpr>& args) {
  if (args.size() != 2 || args[0].term_id.empty() || args[1].term_id.empty()) return std::nullopt;
  return Boolean(Test(args[0].term_id, fmt::format("{} IS NOT NULL AND {} = {}", args[1].term_id,
                                                   args[0].term_id, args[1].term_id)));
}

}  // namespace

std::string TermStringSql(const std::string& id) {
  // XPath's cast to xsd:string gives the canonical form of a number or boolean ("1.0"^^decimal
  // is "1", "0"^^boolean is "false"); other literals keep their lexical form.
  return fmt::format(
      "(CASE WHEN {0} > 0 THEN {1} ELSE (SELECT CASE "
      "WHEN Datatype = '{2}boolean' AND typeof(Value) = 'integer' THEN "
      "(CASE Value WHEN 1 THEN 'true' ELSE 'false' END) "
      "WHEN typeof(Value) = 'integer' THEN CAST(Value AS TEXT) "
      "WHEN typeof(Value) = 'real' AND Value = CAST(Value AS INTEGER) THEN "
      "CAST(CAST(Value AS INTEGER) AS TEXT) "
      "WHEN typeof(Value) = 'real' THEN CAST(Value AS TEXT) ELSE Lexical END FROM {3} WHERE ID = {0}) END)",
      id, ResourceUri(id), kXsdNs, kLiteralTable);
}

std::optional<SqlExpr> QuadTermBuiltin(Translator& translator, Builtin function,
                                       const std::vector<SqlExpr>& args) {
  if (function == Builtin::kSameTerm) return SameTermOf(args);
  if (args.size() != 1 || args[0].term_id.empty()) return std::nullopt;
  const std::string& id = args[0].term_id;
  switch (function) {
    case Builtin::kStr:  // a literal's lexical form, an IRI's text; a blank node is an error
      return Text(fmt::format("(CASE WHEN {0} < 0 THEN (SELECT Lexical FROM {1} WHERE ID = {0}) "
                              "ELSE {2} END)",
                              id, kLiteralTable, ResourceUri(id)));
    case Builtin::kLang:
      return Text(LiteralColumn(id, "Lang"));
    case Builtin::kDatatype:
      return IriText(LiteralColumn(id, "Datatype"));
    case Builtin::kIsIri:
    case Builtin::kIsUri:
      return Boolean(Test(id, fmt::format("{} > 0 AND {} IS NOT NULL", id, ResourceUri(id))));
    case Builtin::kIsBlank:
      return Boolean(Test(id, fmt::format("{} > 0 AND {} IS NULL", id, ResourceUri(id))));
    case Builtin::kIsLiteral:
      return Boolean(Test(id, fmt::format("{} < 0", id)));
    case Builtin::kIsNumeric:  // a valid lexical form of a numeric type has a numeric value
      return Boolean(Test(
          id, fmt::format("{} < 0 AND typeof({}) IN ('integer', 'real') AND {} <> {}", id,
                          Translator::TermValue(SqlExpr{id, Kind::kTerm}).sql,
                          LiteralColumn(id, "Datatype"),
                          translator.BindValue(std::string(kXsdNs) + "boolean"))));
    default:
      return std::nullopt;
  }
}

}  // namespace quarry::sparql::translate
