// SPARQL built-in calls → SQL. Functions SQLite lacks are registered by the engine under
// quarry_* names (store/engine/sql_functions.cpp): quarry_text, quarry_lang, quarry_datetime,
// quarry_regex, quarry_lower, quarry_upper.
#include <fmt/format.h>

#include "store/sparql/translate/translator_impl.h"

namespace quarry::sparql::translate {
namespace {

using ontology::ValueType;

SqlExpr Boolean(std::string sql) { return {std::move(sql), Kind::kLiteral, ValueType::kBoolean}; }
SqlExpr Text(std::string sql) { return {std::move(sql), Kind::kLiteral, ValueType::kString}; }

}  // namespace

Result<SqlExpr> Translator::Builtin(const BuiltinCall& call, const Fragment& scope,
                                    bool allow_aggregates) {
  if (call.function == Builtin::kBound) {
    QUARRY_ASSIGN_OR_RETURN(SqlExpr arg, Expression(call.args.at(0), scope, allow_aggregates));
    return Boolean(fmt::format("({} IS NOT NULL)", arg.sql));
  }
  std::vector<SqlExpr> args;
  for (const Expr& arg : call.args) {
    QUARRY_ASSIGN_OR_RETURN(SqlExpr value, Expression(arg, scope, allow_aggregates));
    args.push_back(std::move(value));
  }
  const auto text = [&](size_t i) { return TextOf(args.at(i)); };
  switch (call.function) {
    case Builtin::kStr: return Text(text(0));
    case Builtin::kLang: return Text(fmt::format("quarry_lang({})", args.at(0).sql));
    case Builtin::kStrlen: return SqlExpr{fmt::format("length({})", text(0)), Kind::kLiteral, ValueType::kInteger};
    case Builtin::kUcase: return Text(fmt::format("quarry_upper({})", text(0)));
    case Builtin::kLcase: return Text(fmt::format("quarry_lower({})", text(0)));
    case Builtin::kContains: return Boolean(fmt::format("(instr({}, {}) > 0)", text(0), text(1)));
    case Builtin::kStrStarts:
      return Boolean(fmt::format("(substr({0}, 1, length({1})) = {1})", text(0), text(1)));
    case Builtin::kStrEnds:
      return Boolean(fmt::format("(length({1}) = 0 OR substr({0}, -length({1})) = {1})", text(0), text(1)));
    case Builtin::kRegex:
      return Boolean(fmt::format("quarry_regex({}, {}, {})", text(0), text(1),
                                 args.size() > 2 ? text(2) : "''"));
    case Builtin::kConcat: {
      std::string sql;
      for (size_t i = 0; i < args.size(); ++i) sql += (i ? " || " : "") + text(i);
      return Text(sql.empty() ? "''" : "(" + sql + ")");
    }
    case Builtin::kSubstr:
      return Text(args.size() > 2 ? fmt::format("substr({}, {}, {})", text(0), args[1].sql, args[2].sql)
                                  : fmt::format("substr({}, {})", text(0), args.at(1).sql));
    case Builtin::kIsIri:
    case Builtin::kIsUri:
      return Boolean(args.at(0).kind == Kind::kResource
                         ? fmt::format("((SELECT Uri FROM Resource WHERE ID = {}) IS NOT NULL)", args[0].sql)
                         : "0");
    case Builtin::kIsBlank:
      return Boolean(args.at(0).kind == Kind::kResource
                         ? fmt::format("({0} IS NOT NULL AND (SELECT Uri FROM Resource WHERE ID = {0}) IS NULL)",
                                       args[0].sql)
                         : "0");
    case Builtin::kIsLiteral:
      return Boolean(args.at(0).kind == Kind::kResource ? "0" : fmt::format("({} IS NOT NULL)", args[0].sql));
    case Builtin::kIsNumeric:
      return Boolean(fmt::format("(typeof({}) IN ('integer', 'real'))", args.at(0).sql));
    case Builtin::kSameTerm:
      return Boolean(fmt::format("({} IS {})", args.at(0).sql, args.at(1).sql));
    case Builtin::kCoalesce: {
      std::string sql;
      for (const SqlExpr& arg : args) sql += (sql.empty() ? "" : ", ") + arg.sql;
      SqlExpr result = args.empty() ? SqlExpr{"NULL"} : args[0];
      result.sql = args.size() == 1 ? args[0].sql : "coalesce(" + sql + ")";
      return result;
    }
    case Builtin::kIf: {
      QUARRY_ASSIGN_OR_RETURN(std::string condition, Condition(call.args.at(0), scope));
      SqlExpr result = args.at(1);
      result.sql = fmt::format("CASE WHEN {} THEN {} ELSE {} END", condition, args[1].sql, args.at(2).sql);
      return result;
    }
    case Builtin::kAbs:
    case Builtin::kRound: {
      SqlExpr result = args.at(0);
      result.sql = fmt::format("{}({})", call.function == Builtin::kAbs ? "abs" : "round", args[0].sql);
      return result;
    }
    default:
      return Unsupported(fmt::format("the function {}", BuiltinName(call.function)));
  }
}

}  // namespace quarry::sparql::translate
