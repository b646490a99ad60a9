// Shared by the files that translate SPARQL's function library (translate_builtin*.cpp,
// translate_function.cpp, translate_expr.cpp): result constructors and the static type tests
// that decide, at compile time, when an argument is certainly of the wrong type. Such a call
// is a SPARQL type error and compiles to NULL (unbound; false in a FILTER). When a type is only
// known at run time (Kind::kDynamic) the engine's quarry_* function checks it per row.
//
// A computed IRI that may not be in the Resource table (DATATYPE, UUID, BNODE) is carried as
// its text: Kind::kDynamic with type kResource ("IRI text").
// Thread-safety: as Translator.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/sparql/translate/translator_impl.h"

namespace quarry::sparql::translate {

using ontology::ValueType;

inline SqlExpr Boolean(std::string sql) {
  return {std::move(sql), Kind::kLiteral, ValueType::kBoolean};
}
inline SqlExpr Text(std::string sql) {
  return {std::move(sql), Kind::kLiteral, ValueType::kString};
}
inline SqlExpr Integer(std::string sql) {
  return {std::move(sql), Kind::kLiteral, ValueType::kInteger};
}
inline SqlExpr Double(std::string sql) {
  return {std::move(sql), Kind::kLiteral, ValueType::kDouble};
}
inline SqlExpr IriText(std::string sql) {
  return {std::move(sql), Kind::kDynamic, ValueType::kResource};
}
// A type error: unbound, typed like the result the function would have had.
inline SqlExpr TypeError(ValueType type) { return {"NULL", Kind::kLiteral, type}; }

inline bool IsIriText(const SqlExpr& e) {
  return e.kind == Kind::kDynamic && e.type == ValueType::kResource;
}
inline bool IsIriLike(const SqlExpr& e) { return e.kind == Kind::kResource || IsIriText(e); }
inline bool IsDynamicValue(const SqlExpr& e) { return e.kind == Kind::kDynamic && !IsIriText(e); }
inline bool HasType(const SqlExpr& e, ValueType type) {
  return e.kind == Kind::kLiteral && e.type == type;
}
inline bool IsStringTyped(const SqlExpr& e) {
  return HasType(e, ValueType::kString) || HasType(e, ValueType::kLangString);
}
inline bool IsNumericTyped(const SqlExpr& e) {
  return HasType(e, ValueType::kInteger) || HasType(e, ValueType::kDouble);
}
// Could be a string / a number when the query runs.
inline bool MayBeString(const SqlExpr& e) { return IsStringTyped(e) || IsDynamicValue(e); }
inline bool MayBeNumeric(const SqlExpr& e) { return IsNumericTyped(e) || IsDynamicValue(e); }

// `result` still naming every argument it does not use, in a branch never taken: a constant
// argument is a numbered SQL parameter, and SQLite refuses to bind a number beyond the highest
// one the statement names. A type error (NULL) drops its arguments, so this keeps them.
SqlExpr KeepArguments(SqlExpr result, const std::vector<SqlExpr>& args);

// The effective boolean value (§17.2.2) as a nullable SQL truth value: NULL is an error.
std::string EbvOf(const SqlExpr& value);

// A value that is its text when it is an IRI, for functions that read both (tracker:uri-is-*).
std::string TextOrIri(const SqlExpr& value);

// COALESCE of values of possibly different kinds (tracker:coalesce too).
SqlExpr CoalesceOf(const std::vector<SqlExpr>& args);

// A literal written in the query, if the expression is one.
const Literal* ConstantLiteral(const Expr& expr);

// String functions (translate_builtin_string.cpp) and the others (translate_builtin_term.cpp);
// `args` are the translated arguments of `call`.
Result<SqlExpr> StringBuiltin(Translator& translator, const BuiltinCall& call,
                              const std::vector<SqlExpr>& args);
Result<SqlExpr> TermBuiltin(Translator& translator, const BuiltinCall& call,
                            const std::vector<SqlExpr>& args);

// Open mode (translate_quad_builtin.cpp): xsd:string(term) of a quad-table term ID, NULL for a
// blank node.
std::string TermStringSql(const std::string& id);

// Open mode (translate_term_compare.cpp): a comparison where an operand is a quad-table term and
// the other one too or a constant, by SPARQL's operator mapping; nullopt otherwise.
std::optional<SqlExpr> TermCompare(Translator& translator, BinaryOp op, const Expr& left,
                                   const Expr& right, const SqlExpr& a, const SqlExpr& b);

// Open mode (translate_quad_builtin.cpp): STR, LANG, DATATYPE, is* and sameTerm of values read
// from the quad table, answered from their term IDs; nullopt when no argument is such a value.
std::optional<SqlExpr> QuadTermBuiltin(Translator& translator, Builtin function,
                                       const std::vector<SqlExpr>& args);

// IRI-named functions: XSD casts and Tracker's functions (translate_function.cpp); nullopt
// when `call` names none of them.
Result<std::optional<SqlExpr>> LibraryFunction(Translator& translator, const FunctionCall& call,
                                               const std::vector<SqlExpr>& args);

}  // namespace quarry::sparql::translate
