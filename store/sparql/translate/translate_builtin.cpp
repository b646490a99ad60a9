// SPARQL built-in calls → SQL: the dispatcher, BOUND, IF and COALESCE. String functions are
// in translate_builtin_string.cpp, the others in translate_builtin_term.cpp; functions SQLite
// lacks are registered by the engine under quarry_* names (store/engine/sql_functions.h).
#include <fmt/format.h>

#include <cctype>

#include "store/schema/quad_table.h"
#include "store/sparql/translate/builtin_helpers.h"

namespace quarry::sparql::translate {
namespace {

bool IsStringFunction(Builtin function) {
  switch (function) {
    case Builtin::kStr:
    case Builtin::kLang:
    case Builtin::kLangMatches:
    case Builtin::kStrlen:
    case Builtin::kSubstr:
    case Builtin::kUcase:
    case Builtin::kLcase:
    case Builtin::kStrStarts:
    case Builtin::kStrEnds:
    case Builtin::kContains:
    case Builtin::kStrBefore:
    case Builtin::kStrAfter:
    case Builtin::kEncodeForUri:
    case Builtin::kConcat:
    case Builtin::kReplace:
    case Builtin::kRegex:
    case Builtin::kStrLang:
      return true;
    default:
      return false;
  }
}

// Two branches of IF/COALESCE that differ in kind are compared as text (an IRI as its text).
SqlExpr Unify(const SqlExpr& value, bool as_text) {
  if (!as_text) return value;
  if (value.kind == Kind::kResource) return IriText(Translator::UriOf(value.sql));
  if (value.kind == Kind::kLiteral &&
      (value.type == ValueType::kDateTime || value.type == ValueType::kBoolean)) {
    return Text(Translator::TextOf(value));
  }
  return value;
}

bool SameShape(const std::vector<SqlExpr>& values) {
  for (const SqlExpr& value : values) {
    if (value.kind != values[0].kind || value.type != values[0].type) return false;
  }
  return true;
}

}  // namespace

SqlExpr KeepArguments(SqlExpr result, const std::vector<SqlExpr>& args) {
  std::string unused;
  for (const SqlExpr& arg : args) {
    bool used = false;
    for (size_t at = result.sql.find(arg.sql); at != std::string::npos && !used;
         at = result.sql.find(arg.sql, at + 1)) {
      const size_t end = at + arg.sql.size();
      used = end >= result.sql.size() || !std::isdigit(static_cast<unsigned char>(result.sql[end]));
    }
    if (!used) unused += fmt::format(" WHEN 0 THEN {}", arg.sql);
  }
  if (!unused.empty()) result.sql = fmt::format("(CASE{} ELSE {} END)", unused, result.sql);
  return result;
}

std::string EbvOf(const SqlExpr& value) {
  if (value.kind == Kind::kResource || IsIriText(value))
    return fmt::format("({} IS NOT NULL)", value.sql);
  if (value.kind == Kind::kDynamic && !value.term_id.empty() && !value.is_aggregate) {
    // Open mode: only booleans, numbers and strings have an EBV (§17.2.2); for an IRI, a blank
    // node, a language-tagged string or another datatype it is a type error.
    std::string types;
    for (const char* local : {"string", "boolean", "integer", "decimal", "float", "double", "long",
                              "int", "short", "byte", "nonNegativeInteger", "positiveInteger",
                              "nonPositiveInteger", "negativeInteger", "unsignedLong",
                              "unsignedInt", "unsignedShort", "unsignedByte"}) {
      types += fmt::format("{}'{}{}'", types.empty() ? "" : ", ", kXsdNs, local);
    }
    return fmt::format("(CASE WHEN {0} < 0 AND (SELECT Datatype FROM quarry_literal WHERE ID = {0}) "
                       "IN ({1}) THEN quarry_ebv({2}) END)",
                       value.term_id, types, value.sql);
  }
  if (value.kind == Kind::kDynamic) return fmt::format("quarry_ebv({})", value.sql);
  switch (value.type) {
    case ValueType::kBoolean:
      return value.sql;
    case ValueType::kInteger:
    case ValueType::kDouble:
      return fmt::format("({} != 0)", value.sql);
    case ValueType::kString:
    case ValueType::kLangString:
      return fmt::format("(length(quarry_text({})) > 0)", value.sql);
    default:
      return "NULL";  // a date has no boolean value: a type error
  }
}

std::string TextOrIri(const SqlExpr& value) {
  return IsIriText(value) ? value.sql : Translator::TextOf(value);
}

SqlExpr CoalesceOf(const std::vector<SqlExpr>& args) {
  if (args.empty()) return SqlExpr{"NULL"};
  const bool as_text = !SameShape(args);
  std::string sql;
  bool all_iri = true;
  for (const SqlExpr& arg : args) {
    const SqlExpr unified = Unify(arg, as_text);
    all_iri = all_iri && IsIriLike(unified);
    sql += (sql.empty() ? "" : ", ") + unified.sql;
  }
  if (args.size() == 1) return args[0];
  if (!as_text) return SqlExpr{"coalesce(" + sql + ")", args[0].kind, args[0].type};
  return all_iri ? IriText("coalesce(" + sql + ")") : SqlExpr{"coalesce(" + sql + ")"};
}

// Open mode: COALESCE's output form (SqlExpr::output) when each argument has one, a quad-table
// term or a constant (not a language-tagged one), and one at least is a term; "" otherwise.
std::string CoalesceOutput(Translator& translator, const BuiltinCall& call,
                           const std::vector<SqlExpr>& args) {
  std::string sql;
  bool any_term = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].sql == "NULL") continue;  // a variable the pattern never binds
    std::string output;
    const Term* term = std::get_if<Term>(&call.args[i].node);
    const bool constant = term && (std::holds_alternative<Iri>(*term) || std::holds_alternative<Literal>(*term));
    if (!args[i].output.empty()) {  // a nested COALESCE of terms
      output = args[i].output;
      any_term = true;
    } else if (!args[i].term_id.empty() && !args[i].is_aggregate) {
      output = schema::TermOutputSql(args[i].term_id);
      any_term = true;
    } else if (const Iri* iri = term ? std::get_if<Iri>(term) : nullptr) {
      output = translator.BindValue("I" + iri->iri);
    } else if (const Literal* literal = ConstantLiteral(call.args[i]); literal && literal->lang.empty()) {
      const bool plain = literal->datatype_iri.empty() || literal->datatype_iri == kXsdString;
      output = translator.BindValue(plain ? "S" + literal->lexical
                                          : "L" + literal->datatype_iri + '\x1f' + literal->lexical);
    } else {
      return "";
    }
    // A value whose dynamic form is NULL (unbound, an error) is skipped, as COALESCE skips it;
    // a constant is taken as it is (an IRI the store lacks has no dynamic form).
    sql += sql.empty() ? "" : ", ";
    sql += constant ? output : fmt::format("CASE WHEN {} IS NOT NULL THEN {} END", args[i].sql, output);
  }
  return any_term ? fmt::format("coalesce({})", sql) : "";
}

const Literal* ConstantLiteral(const Expr& expr) {
  const Term* term = std::get_if<Term>(&expr.node);
  return term ? std::get_if<Literal>(term) : nullptr;
}

Result<SqlExpr> Translator::Builtin(const BuiltinCall& call, const Fragment& scope,
                                    bool allow_aggregates) {
  if (call.function == Builtin::kDatatype && call.args.size() == 1) {
    // Open mode: the datatype of a typed number (decimal + decimal is a decimal).
    QUARRY_ASSIGN_OR_RETURN(const std::optional<std::string> numeric, NumericTerm(call.args[0], scope, false, allow_aggregates));
    if (numeric) return IriText(fmt::format("quarry_term_datatype({})", *numeric));
  }
  std::vector<SqlExpr> args;
  for (const Expr& arg : call.args) {
    QUARRY_ASSIGN_OR_RETURN(SqlExpr value, Expression(arg, scope, allow_aggregates));
    args.push_back(std::move(value));
  }
  switch (call.function) {
    case Builtin::kBound:
      return Boolean(fmt::format("({} IS NOT NULL)", args.at(0).sql));
    case Builtin::kCoalesce: {
      SqlExpr result = CoalesceOf(args);
      if (result.kind == Kind::kDynamic && args.size() > 1) result.output = CoalesceOutput(*this, call, args);
      return result;
    }
    case Builtin::kIf: {
      // An error in the condition is an error of the IF (both WHENs fail: NULL).
      const std::string condition = EbvOf(args.at(0));
      const bool as_text = !SameShape({args.at(1), args.at(2)});
      const SqlExpr then = Unify(args[1], as_text), otherwise = Unify(args[2], as_text);
      SqlExpr result = as_text ? SqlExpr{"", Kind::kDynamic} : args[1];
      if (as_text && IsIriLike(then) && IsIriLike(otherwise)) result.type = ValueType::kResource;
      result.sql = fmt::format("(CASE WHEN {0} THEN {1} WHEN NOT {0} THEN {2} END)", condition,
                               then.sql, otherwise.sql);
      result.is_aggregate = args[0].is_aggregate || args[1].is_aggregate || args[2].is_aggregate;
      return result;
    }
    case Builtin::kBnode:
      // BNODE(str) is the same blank node for one string within a solution and a fresh one in
      // each solution (§17.4.2.9): hash the string with the solution's bound values.
      if (args.size() == 1 && MayBeString(args[0])) {
        std::string solution;
        for (const auto& [name, value] : scope.vars) {
          solution += fmt::format(" || char(31) || coalesce(quote({}), '')", value.sql);
        }
        return IriText(fmt::format("('_:q' || quarry_hash(quarry_text({}){}, 'MD5'))",
                                   args[0].sql, solution));
      }
      break;
    default:
      break;
  }
  if (std::optional<SqlExpr> term = QuadTermBuiltin(*this, call.function, args)) {
    for (const SqlExpr& arg : args) term->is_aggregate = term->is_aggregate || arg.is_aggregate;
    return KeepArguments(std::move(*term), args);
  }
  if (IsStringFunction(call.function)) {
    // Open mode: only a string read from the quad table is a string argument; an IRI, a blank
    // node or a literal of another datatype is a type error.
    for (SqlExpr& arg : args) {
      if (!arg.term_id.empty() && !arg.is_aggregate) {
        arg.sql = fmt::format("(CASE WHEN {0} < 0 AND (SELECT Datatype FROM quarry_literal WHERE ID = {0}) "
                              "IN ('{1}', '{2}') THEN {3} END)",
                              arg.term_id, kXsdString, kRdfLangString, arg.sql);
      }
    }
  }
  if (call.function == Builtin::kStrDt && !args.empty() && !args[0].term_id.empty() &&
      !args[0].is_aggregate) {
    // Open mode: STRDT's lexical form must be a simple literal (xsd:string in RDF 1.1,
    // §17.4.2.11); a number, a date, a tagged string, an IRI or a blank node is a type error.
    args[0].sql = fmt::format(
        "(CASE WHEN {0} < 0 AND (SELECT Datatype FROM quarry_literal WHERE ID = {0}) = '{1}' "
        "THEN {2} END)",
        args[0].term_id, kXsdString, args[0].sql);
  }
  QUARRY_ASSIGN_OR_RETURN(SqlExpr result, IsStringFunction(call.function)
                                              ? StringBuiltin(*this, call, args)
                                              : TermBuiltin(*this, call, args));
  for (const SqlExpr& arg : args) result.is_aggregate = result.is_aggregate || arg.is_aggregate;
  return KeepArguments(std::move(result), args);
}

}  // namespace quarry::sparql::translate
