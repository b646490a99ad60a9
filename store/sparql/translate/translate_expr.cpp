// Expressions: FILTER conditions, BIND and SELECT expressions, ORDER BY keys.
#include <fmt/format.h>

#include <optional>

#include "store/common/sql_quote.h"
#include "store/schema/quad_table.h"
#include "store/sparql/translate/builtin_helpers.h"

namespace quarry::sparql::translate {
namespace {

using ontology::ValueType;

std::string_view SqlOperator(BinaryOp op) {
  switch (op) {
    case BinaryOp::kOr: return "OR";
    case BinaryOp::kAnd: return "AND";
    case BinaryOp::kEqual: return "=";
    case BinaryOp::kNotEqual: return "!=";
    case BinaryOp::kLess: return "<";
    case BinaryOp::kGreater: return ">";
    case BinaryOp::kLessEqual: return "<=";
    case BinaryOp::kGreaterEqual: return ">=";
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSubtract: return "-";
    case BinaryOp::kMultiply: return "*";
    case BinaryOp::kDivide: return "/";
  }
  return "?";
}

bool IsComparison(BinaryOp op) {
  return op != BinaryOp::kOr && op != BinaryOp::kAnd && op != BinaryOp::kAdd &&
         op != BinaryOp::kSubtract && op != BinaryOp::kMultiply && op != BinaryOp::kDivide;
}

constexpr std::string_view kFtsNs = "http://tracker.api.gnome.org/ontology/v3/fts#";

// Comparable families of statically typed values; kDynamic values are checked by SQLite.
enum class Family { kUnknown, kNumeric, kString, kDateTime, kDate, kIri };

Family FamilyOf(const SqlExpr& value) {
  if (IsIriLike(value)) return Family::kIri;
  if (value.kind != Kind::kLiteral) return Family::kUnknown;
  switch (value.type) {
    case ValueType::kInteger:
    case ValueType::kDouble:
    case ValueType::kBoolean: return Family::kNumeric;  // Tracker compares booleans as 0/1
    case ValueType::kString:
    case ValueType::kLangString: return Family::kString;
    case ValueType::kDateTime: return Family::kDateTime;
    case ValueType::kDate: return Family::kDate;
    default: return Family::kUnknown;
  }
}

// The IRI text of an IRI-valued operand; a constant IRI is bound as text, since it need not
// be in the Resource table.
std::string IriTextOf(Translator& translator, const Expr& expr, const SqlExpr& value) {
  if (IsIriText(value)) return value.sql;
  const Term* term = std::get_if<Term>(&expr.node);
  if (const Iri* iri = term ? std::get_if<Iri>(term) : nullptr) return translator.BindValue(iri->iri);
  return Translator::UriOf(value.sql);
}

// A numeric operand of + - * /, NULL (a type error) when it cannot be a number.
std::string NumericOperand(const SqlExpr& value) {
  if (IsNumericTyped(value)) return value.sql;
  if (!IsDynamicValue(value)) return "NULL";
  return fmt::format("(CASE WHEN typeof({0}) IN ('integer', 'real') THEN {0} END)", value.sql);
}

// A literal's natural value and type, from its datatype.
schema::RdfTerm ToRdfLiteral(const Literal& literal) {
  return schema::RdfTerm::Literal(
      literal.lexical, literal.datatype_iri == kRdfLangString ? "" : literal.datatype_iri,
      literal.lang);
}

ValueType NaturalType(const Literal& literal) {
  const std::string& type = literal.datatype_iri;
  if (!literal.lang.empty()) return ValueType::kLangString;
  const std::string xsd(kXsdNs);
  if (type == xsd + "integer" || type == xsd + "int" || type == xsd + "long") return ValueType::kInteger;
  if (type == xsd + "double" || type == xsd + "decimal" || type == xsd + "float") return ValueType::kDouble;
  if (type == xsd + "boolean") return ValueType::kBoolean;
  if (type == xsd + "dateTime") return ValueType::kDateTime;
  if (type == xsd + "date") return ValueType::kDate;
  return ValueType::kString;
}

}  // namespace

std::string Translator::TextOf(const SqlExpr& expr) {
  if (expr.kind == Kind::kResource) return UriOf(expr.sql);
  if (expr.kind == Kind::kLiteral) {
    switch (expr.type) {
      case ValueType::kDateTime: return fmt::format("quarry_datetime({})", expr.sql);
      case ValueType::kBoolean:
        return fmt::format("CASE {} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END", expr.sql);
      default: break;
    }
  }
  return fmt::format("quarry_text({})", expr.sql);
}

Result<SqlExpr> Translator::TermExpr(const Term& term, const Fragment& scope) {
  if (const auto* variable = std::get_if<Variable>(&term)) {
    if (const auto found = projected_.find(variable->name); found != projected_.end()) {
      return TermValue(found->second);  // an open-mode MIN/MAX/SAMPLE is a term ID
    }
    if (const auto found = scope.vars.find(variable->name); found != scope.vars.end()) {
      SqlExpr value = TermValue(found->second);
      value.table_column = false;  // what an expression makes of it is no longer the column
      return value;
    }
    return SqlExpr{"NULL", Kind::kDynamic};  // unbound: an error in SPARQL, NULL here
  }
  if (const auto* blank = std::get_if<BlankNode>(&term)) {
    if (const auto found = scope.vars.find("_:" + blank->label); found != scope.vars.end()) {
      return TermValue(found->second);
    }
    return SqlExpr{"NULL", Kind::kDynamic};
  }
  if (const auto* iri = std::get_if<Iri>(&term)) {
    return SqlExpr{IriId(iri->iri), Kind::kResource, ValueType::kResource};
  }
  if (const auto* literal = std::get_if<Literal>(&term)) {
    const ValueType type = NaturalType(*literal);
    auto encoded = schema::EncodeLiteral(ToRdfLiteral(*literal), type);
    if (!encoded) {
      // A datatype without a column encoding (any IRI in open mode): compare its lexical form.
      return SqlExpr{BindValue(literal->lexical), Kind::kLiteral, ValueType::kString};
    }
    return SqlExpr{BindValue(*encoded), Kind::kLiteral, type};
  }
  const auto& parameter = std::get<Parameter>(term);
  return SqlExpr{BindParameter(parameter.name, false, ValueType::kString), Kind::kDynamic};
}

// An operand typed after the other side of a comparison: a constant is encoded like the stored
// values it is compared with (a dateTime literal in the sortable stored form, an IRI as an ID).
Result<SqlExpr> Translator::TypedOperand(const Expr& expr, const SqlExpr* other,
                                         const Fragment& scope, bool allow_aggregates) {
  const Term* term = std::get_if<Term>(&expr.node);
  if (other && term && other->kind == Kind::kLiteral) {
    if (const auto* literal = std::get_if<Literal>(term)) {
      auto encoded = schema::EncodeLiteral(ToRdfLiteral(*literal), other->type);
      if (encoded) return SqlExpr{BindValue(*encoded), Kind::kLiteral, other->type};
    }
    if (const auto* parameter = std::get_if<Parameter>(term)) {
      return SqlExpr{BindParameter(parameter->name, false, other->type), Kind::kLiteral, other->type};
    }
  }
  if (other && term && other->kind == Kind::kResource) {
    if (const auto* parameter = std::get_if<Parameter>(term)) {
      return SqlExpr{fmt::format("(SELECT ID FROM Resource WHERE Uri = {})",
                                 BindParameter(parameter->name, true, ValueType::kResource)),
                     Kind::kResource, ValueType::kResource};
    }
  }
  return Expression(expr, scope, allow_aggregates);
}

Result<SqlExpr> Translator::Compare(BinaryOp op, const Expr& left, const Expr& right,
                                    const Fragment& scope, bool allow_aggregates) {
  const bool left_is_constant = std::holds_alternative<Term>(left.node) &&
                                !std::holds_alternative<Variable>(std::get<Term>(left.node));
  SqlExpr a, b;
  if (left_is_constant) {
    QUARRY_ASSIGN_OR_RETURN(b, Expression(right, scope, allow_aggregates));
    QUARRY_ASSIGN_OR_RETURN(a, TypedOperand(left, &b, scope, allow_aggregates));
  } else {
    QUARRY_ASSIGN_OR_RETURN(a, Expression(left, scope, allow_aggregates));
    QUARRY_ASSIGN_OR_RETURN(b, TypedOperand(right, &a, scope, allow_aggregates));
  }
  if (std::optional<SqlExpr> typed = TermCompare(*this, op, left, right, a, b)) return *typed;
  const bool aggregate = a.is_aggregate || b.is_aggregate;
  const Family family_a = FamilyOf(a), family_b = FamilyOf(b);
  const bool literal_families = family_a != Family::kIri && family_b != Family::kIri;
  if (family_a != family_b && family_a != Family::kUnknown && family_b != Family::kUnknown &&
      literal_families) {
    // Literals of unrelated types: never equal; ordering them is a type error (§17.3).
    const std::string outcome = op == BinaryOp::kEqual ? "0" : op == BinaryOp::kNotEqual ? "1" : "NULL";
    return SqlExpr{fmt::format("(CASE WHEN {} IS NOT NULL AND {} IS NOT NULL THEN {} END)", a.sql,
                               b.sql, outcome),
                   Kind::kLiteral, ValueType::kBoolean, aggregate};
  }
  if ((IsIriText(a) && IsIriLike(b)) || (IsIriText(b) && IsIriLike(a))) {
    return SqlExpr{fmt::format("({} {} {})", IriTextOf(*this, left, a), SqlOperator(op),
                               IriTextOf(*this, right, b)),
                   Kind::kLiteral, ValueType::kBoolean, aggregate};
  }
  const bool a_resource = a.kind == Kind::kResource, b_resource = b.kind == Kind::kResource;
  if (a_resource && b_resource && (op == BinaryOp::kEqual || op == BinaryOp::kNotEqual)) {
    return SqlExpr{fmt::format("({} {} {})", a.sql, SqlOperator(op), b.sql), Kind::kLiteral,
                   ValueType::kBoolean, aggregate};
  }
  // Resources order by IRI; a resource against a literal compares their texts.
  const std::string left_sql = a_resource ? TextOf(a) : a.sql;
  const std::string right_sql = b_resource ? TextOf(b) : b.sql;
  return SqlExpr{fmt::format("({} {} {})", left_sql, SqlOperator(op), right_sql), Kind::kLiteral,
                 ValueType::kBoolean, aggregate};
}

// FILTER (STRSTARTS(?v, "prefix")) with ?v an xsd:string column: the strings with that prefix
// are exactly those in [prefix, prefix with its last byte + 1) under SQLite's BINARY collation
// (every class table column's), a range the column's index answers, where the function alone
// reads every row (files under a folder by nie:url: bench/index's latency probe at 100,000
// files, issue 5). Only for an ASCII last byte, so the bound stays plain UTF-8 text.
std::optional<std::string> Translator::PrefixRange(const Expr& expr, const Fragment& scope) const {
  const auto* call = std::get_if<BuiltinCall>(&expr.node);
  if (!call || call->function != Builtin::kStrStarts || call->args.size() != 2) return std::nullopt;
  const Term* subject = std::get_if<Term>(&call->args[0].node);
  const Term* prefix_term = std::get_if<Term>(&call->args[1].node);
  const auto* variable = subject ? std::get_if<Variable>(subject) : nullptr;
  const auto* prefix = prefix_term ? std::get_if<Literal>(prefix_term) : nullptr;
  if (!variable || !prefix || !prefix->lang.empty() ||
      (!prefix->datatype_iri.empty() && prefix->datatype_iri != kXsdString) ||
      prefix->lexical.empty()) {
    return std::nullopt;
  }
  const auto found = scope.vars.find(variable->name);
  if (found == scope.vars.end() || found->second.kind != Kind::kLiteral ||
      found->second.type != ValueType::kString || !found->second.table_column) {
    return std::nullopt;
  }
  const unsigned char last = static_cast<unsigned char>(prefix->lexical.back());
  if (last < 0x20 || last >= 0x7e) return std::nullopt;
  std::string upper = prefix->lexical;
  upper.back() = static_cast<char>(last + 1);
  return fmt::format("{0} >= {1} AND {0} < {2}", found->second.sql,
                     QuoteSqlLiteral(prefix->lexical), QuoteSqlLiteral(upper));
}

Result<std::string> Translator::Condition(const Expr& expr, const Fragment& scope) {
  QUARRY_ASSIGN_OR_RETURN(SqlExpr value, Expression(expr, scope));
  // Every caller ANDs the condition into a WHERE or ON (never negates or ORs it), where an
  // error (NULL) filters the solution out just as false does. Left bare, a range comparison on
  // an indexed column stays sargable: coalesce(...) would hide it from SQLite's planner.
  if (const std::optional<std::string> range = PrefixRange(expr, scope)) {
    return fmt::format("({} AND {})", *range, EbvOf(value));
  }
  return EbvOf(value);
}

Result<SqlExpr> Translator::Expression(const Expr& expr, const Fragment& scope,
                                       bool allow_aggregates) {
  if (const auto* term = std::get_if<Term>(&expr.node)) return TermExpr(*term, scope);
  if (const auto* binary = std::get_if<BinaryExpr>(&expr.node)) {
    if (IsComparison(binary->op)) {
      return Compare(binary->op, *binary->left, *binary->right, scope, allow_aggregates);
    }
    if (binary->op == BinaryOp::kOr || binary->op == BinaryOp::kAnd) {
      // SQL's three-valued logic is SPARQL's: error || true = true, error && false = false.
      QUARRY_ASSIGN_OR_RETURN(SqlExpr a, Expression(*binary->left, scope, allow_aggregates));
      QUARRY_ASSIGN_OR_RETURN(SqlExpr b, Expression(*binary->right, scope, allow_aggregates));
      SqlExpr result = Boolean(fmt::format("({} {} {})", EbvOf(a), SqlOperator(binary->op), EbvOf(b)));
      result.is_aggregate = a.is_aggregate || b.is_aggregate;
      return result;
    }
    QUARRY_ASSIGN_OR_RETURN(SqlExpr a, Expression(*binary->left, scope, allow_aggregates));
    // A ~parameter is encoded as the number it meets; a literal keeps its own type.
    const Term* right_term = std::get_if<Term>(&binary->right->node);
    const bool right_parameter = right_term && std::holds_alternative<Parameter>(*right_term);
    QUARRY_ASSIGN_OR_RETURN(SqlExpr b, right_parameter
                                           ? TypedOperand(*binary->right, &a, scope, allow_aggregates)
                                           : Expression(*binary->right, scope, allow_aggregates));
    const bool aggregate = a.is_aggregate || b.is_aggregate;
    // Numeric promotion (§17.3): integer op integer is an integer, except division (decimal,
    // here a double); anything with a double is a double; a dynamic operand is typed per row.
    const bool is_double = binary->op == BinaryOp::kDivide || HasType(a, ValueType::kDouble) ||
                           HasType(b, ValueType::kDouble);
    const bool dynamic = IsDynamicValue(a) || IsDynamicValue(b);
    const std::string left_sql = NumericOperand(a), right_sql = NumericOperand(b);
    const std::string left = binary->op == BinaryOp::kDivide ? "CAST(" + left_sql + " AS REAL)" : left_sql;
    return KeepArguments(
        SqlExpr{fmt::format("({} {} {})", left, SqlOperator(binary->op), right_sql),
                dynamic && binary->op != BinaryOp::kDivide ? Kind::kDynamic : Kind::kLiteral,
                is_double ? ValueType::kDouble : ValueType::kInteger, aggregate},
        {a, b});
  }
  if (const auto* unary = std::get_if<UnaryExpr>(&expr.node)) {
    if (unary->op == UnaryOp::kNot) {
      QUARRY_ASSIGN_OR_RETURN(SqlExpr operand, Expression(*unary->operand, scope, allow_aggregates));
      SqlExpr result = Boolean(fmt::format("(NOT {})", EbvOf(operand)));
      result.is_aggregate = operand.is_aggregate;
      return result;
    }
    QUARRY_ASSIGN_OR_RETURN(const SqlExpr operand, Expression(*unary->operand, scope, allow_aggregates));
    SqlExpr result = operand;
    result.sql = NumericOperand(operand);
    if (result.sql == "NULL") result = SqlExpr{"NULL", Kind::kLiteral, ValueType::kInteger, operand.is_aggregate};
    if (unary->op == UnaryOp::kMinus) result.sql = fmt::format("(- {})", result.sql);
    return KeepArguments(std::move(result), {operand});
  }
  if (const auto* call = std::get_if<BuiltinCall>(&expr.node)) {
    return Builtin(*call, scope, allow_aggregates);
  }
  if (const auto* call = std::get_if<FunctionCall>(&expr.node)) {
    return Function(*call, scope, allow_aggregates);
  }
  if (const auto* aggregate = std::get_if<Aggregate>(&expr.node)) {
    if (!allow_aggregates) {
      return Error(Errc::kParse, fmt::format("{} is only allowed in SELECT, HAVING and ORDER BY",
                                             AggregateName(aggregate->op)));
    }
    return AggregateExpr(*aggregate, scope);
  }
  if (const auto* in = std::get_if<In>(&expr.node)) return InExpr(*in, scope, allow_aggregates);
  return ExistsExpr(std::get<Exists>(expr.node), scope);
}

Result<SqlExpr> Translator::InExpr(const In& in, const Fragment& scope, bool allow_aggregates) {
  QUARRY_ASSIGN_OR_RETURN(SqlExpr operand, Expression(*in.operand, scope, allow_aggregates));
  std::string list;
  for (const Expr& item : in.list) {
    QUARRY_ASSIGN_OR_RETURN(SqlExpr value, TypedOperand(item, &operand, scope, allow_aggregates));
    list += (list.empty() ? "" : ", ") + value.sql;
  }
  return Boolean(fmt::format("({} {}IN ({}))", operand.sql, in.negated ? "NOT " : "", list));
}

Result<SqlExpr> Translator::ExistsExpr(const Exists& exists, const Fragment& scope) {
  QUARRY_ASSIGN_OR_RETURN(Fragment inner, Group(*exists.pattern, active_graph_, true));
  std::vector<std::string> conditions = inner.conditions;
  Fragment merged = scope;
  for (const std::string& name : inner.var_order) {
    const SqlExpr& value = inner.vars.at(name);
    if (const auto found = scope.vars.find(name); found != scope.vars.end()) {
      conditions.push_back(fmt::format("({} IS NULL OR {} = {})", found->second.sql,
                                       found->second.sql, value.sql));
    } else {
      merged.vars.emplace(name, value);
    }
  }
  for (const Expr* filter : inner.filters) {
    QUARRY_ASSIGN_OR_RETURN(std::string condition, Condition(*filter, merged));
    conditions.push_back(std::move(condition));
  }
  std::string where;
  for (const std::string& condition : conditions) where += (where.empty() ? " WHERE " : " AND ") + condition;
  return Boolean(fmt::format("({}EXISTS (SELECT 1{}{}))", exists.negated ? "NOT " : "",
                             inner.from.empty() ? "" : " FROM " + inner.from, where));
}

Result<SqlExpr> Translator::AggregateExpr(const Aggregate& aggregate, const Fragment& scope) {
  const std::string distinct = aggregate.distinct ? "DISTINCT " : "";
  if (!aggregate.arg) return SqlExpr{"count(*)", Kind::kLiteral, ValueType::kInteger, true};
  QUARRY_ASSIGN_OR_RETURN(SqlExpr arg, Expression(*aggregate.arg, scope));
  switch (aggregate.op) {
    case AggregateOp::kCount:
      return SqlExpr{fmt::format("count({}{})", distinct, arg.sql), Kind::kLiteral, ValueType::kInteger, true};
    case AggregateOp::kSum:
      // The sum of integers is an integer; of nothing, 0 (§18.5.1.3).
      if (HasType(arg, ValueType::kInteger)) {
        return SqlExpr{fmt::format("coalesce(sum({}{}), 0)", distinct, arg.sql), Kind::kLiteral,
                       ValueType::kInteger, true};
      }
      if (IsDynamicValue(arg)) {  // sum() stays an integer while every value is one
        return SqlExpr{fmt::format("coalesce(sum({}{}), 0)", distinct, arg.sql), Kind::kDynamic,
                       ValueType::kString, true};
      }
      return SqlExpr{fmt::format("total({}{})", distinct, arg.sql), Kind::kLiteral,
                     ValueType::kDouble, true};
    case AggregateOp::kAvg:
      return SqlExpr{fmt::format("avg({}{})", distinct, arg.sql), Kind::kLiteral, ValueType::kDouble, true};
    case AggregateOp::kMin:
    case AggregateOp::kMax:
    case AggregateOp::kSample: {
      const std::string function = aggregate.op == AggregateOp::kMax ? "max" : "min";
      if (!arg.term_id.empty()) {
        // Open mode: the term ID of the chosen row, so the result keeps its stored term.
        const std::string sql =
            aggregate.op == AggregateOp::kSample
                ? fmt::format("min({})", arg.term_id)
                : fmt::format("quarry_term_{}({}, {})", function, arg.sql, arg.term_id);
        return SqlExpr{sql, Kind::kTerm, ValueType::kResource, true};
      }
      if (arg.kind == Kind::kResource) {
        return SqlExpr{fmt::format("{}({})", function, arg.sql), Kind::kResource, ValueType::kResource, true};
      }
      return SqlExpr{fmt::format("{}({}{})", function, distinct, arg.sql), arg.kind, arg.type, true};
    }
    case AggregateOp::kGroupConcat: {
      const std::string separator = BindValue(aggregate.separator.value_or(" "));
      if (aggregate.distinct) {
        // SQLite's DISTINCT aggregates take one argument: join with ',' each value marked by a
        // leading 0x1F, then turn each ",\x1F" into the separator and drop the first mark.
        return SqlExpr{fmt::format("substr(replace(group_concat(DISTINCT char(31) || {}), "
                                   "',' || char(31), {}), 2)",
                                   TextOf(arg), separator),
                       Kind::kLiteral, ValueType::kString, true};
      }
      return SqlExpr{fmt::format("group_concat({}, {})", TextOf(arg), separator),
                     Kind::kLiteral, ValueType::kString, true};
    }
  }
  return Error(Errc::kInternal, "unknown aggregate");
}

Result<std::optional<std::string>> Translator::ProjectedTerm(const Expr& expr, const Fragment& scope) {
  QUARRY_ASSIGN_OR_RETURN(const std::optional<std::string> numeric, NumericTerm(expr, scope, false, true));
  if (numeric) return numeric;
  const auto* aggregate = std::get_if<Aggregate>(&expr.node);
  // Only a variable's own terms: an expression over them (IF, COALESCE) keeps the term ID of an
  // argument (KeepArguments), not of its result.
  if (!open_mode_ || !aggregate || !aggregate->arg ||
      !std::holds_alternative<Term>(aggregate->arg->node) ||
      (aggregate->op != AggregateOp::kSum && aggregate->op != AggregateOp::kAvg)) {
    return std::optional<std::string>();
  }
  QUARRY_ASSIGN_OR_RETURN(const SqlExpr arg, Expression(*aggregate->arg, scope));
  if (arg.term_id.empty() || arg.is_aggregate) return std::optional<std::string>();
  return std::optional<std::string>(
      fmt::format("quarry_term_{}({}{})", aggregate->op == AggregateOp::kSum ? "sum" : "avg",
                  aggregate->distinct ? "DISTINCT " : "", schema::TermOutputSql(arg.term_id)));
}

namespace {

// The alias of the row of `table` a triple pattern already joined for the variable `arg`, when
// `id_sql` (what `arg` compiled to) is the ID of one of the subject's rows in this group's FROM:
// a property function of that subject can then read the column of that very row (ID is the
// table's primary key, so the correlated sub-query `(SELECT P.col FROM table AS P WHERE P.ID =
// alias.ID)` would find the same row). Any of the subject's rows will do, not only the one the
// variable is bound to: each further row of the subject was bound with `first.ID = row.ID`
// (BindTerm), so they are one resource. `?c a nco:PersonContact ; nco:contactUID ?u` binds ?c to
// the PersonContact row; nco:fullname(?c) reads the joined nco:Contact row (issue 7: four
// sub-queries fewer per contact read).
const std::string* JoinedRow(const Fragment& scope, const Expr& arg, const std::string& id_sql,
                             const std::string& table) {
  const Term* term = std::get_if<Term>(&arg.node);
  if (!term || VariableKey(*term).empty()) return nullptr;
  const auto tables = scope.subject_tables.find(SubjectKey(*term));
  if (tables == scope.subject_tables.end()) return nullptr;
  const auto row = tables->second.find(table);
  if (row == tables->second.end()) return nullptr;
  for (const auto& [bound_table, alias] : tables->second) {
    if (id_sql == alias + ".ID") return &row->second;
  }
  return nullptr;
}

}  // namespace

Result<SqlExpr> Translator::Function(const FunctionCall& call, const Fragment& scope,
                                     bool allow_aggregates) {
  if (call.iri.rfind(kFtsNs, 0) == 0) return FtsFunction(call, scope);
  std::vector<SqlExpr> args;
  for (const Expr& arg : call.args) {
    QUARRY_ASSIGN_OR_RETURN(SqlExpr value, Expression(arg, scope, allow_aggregates));
    args.push_back(std::move(value));
  }
  QUARRY_ASSIGN_OR_RETURN(std::optional<SqlExpr> library, LibraryFunction(*this, call, args));
  if (library) {
    for (const SqlExpr& arg : args) library->is_aggregate = library->is_aggregate || arg.is_aggregate;
    return KeepArguments(std::move(*library), args);
  }
  // A property used as a function returns its value; multi-valued ones joined with ','.
  if (const ontology::Property* property = ontology_.FindProperty(call.iri); property && args.size() == 1) {
    const schema::PropertyStorage storage = names_.StorageOf(*property);
    const Kind kind = property->type == ValueType::kResource ? Kind::kResource : Kind::kLiteral;
    if (!storage.multi_valued) {
      // `SELECT ?a nmm:artistName(?a) { ?a a nmm:Artist }`: the subject's nmm:Artist row is in
      // the FROM already: read the column there, not by one sub-query per row.
      if (const std::string* row = JoinedRow(scope, call.args[0], args[0].sql, storage.table)) {
        return SqlExpr{fmt::format("{}.{}", *row, schema::Quote(storage.column)), kind, property->type};
      }
      return SqlExpr{fmt::format("(SELECT P.{} FROM {} AS P WHERE P.ID = {})",
                                 schema::Quote(storage.column), schema::Quote(storage.table), args[0].sql),
                     kind, property->type};
    }
    const SqlExpr value{fmt::format("P.{}", schema::Quote(storage.column)), kind, property->type};
    return Text(fmt::format("(SELECT group_concat({}, ',') FROM {} AS P WHERE P.ID = {})",
                            TextOf(value), schema::Quote(storage.table), args[0].sql));
  }
  return Unsupported(fmt::format("the function <{}>", call.iri));
}

}  // namespace quarry::sparql::translate
