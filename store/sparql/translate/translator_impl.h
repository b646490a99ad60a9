// Internal state of the SPARQL → SQL compiler; see translator.h for what is supported.
//
// A group graph pattern becomes a Fragment: a FROM list, WHERE conditions and the SQL
// expression that binds each variable. Triple patterns join class tables (one alias per subject
// and table, so several properties of one resource never self-join), OPTIONAL becomes a LEFT
// JOIN on a derived table, and expressions are typed (resource ID, literal of a known type, or
// dynamic) so constants are encoded like the stored values they are compared with.
// Thread-safety: one Translator per compilation.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "store/common/result.h"
#include "store/ontology/ontology.h"
#include "store/schema/names.h"
#include "store/sparql/ast.h"
#include "store/sparql/sql_query.h"

namespace quarry::sparql::translate {

enum class Kind { kResource, kLiteral, kDynamic };

struct SqlExpr {
  std::string sql;
  Kind kind = Kind::kDynamic;
  ontology::ValueType type = ontology::ValueType::kString;  // for kLiteral
  bool is_aggregate = false;
};

struct GraphContext {
  enum class Mode { kAny, kIri, kVariable };
  Mode mode = Mode::kAny;
  Term graph;  // the IRI or variable
};

struct Fragment {
  std::string from;  // comma/JOIN separated table list; empty when the group has no tables
  std::vector<std::string> conditions;
  std::map<std::string, SqlExpr> vars;
  std::vector<std::string> var_order;  // first binding order, for SELECT *
  std::set<std::string> nullable;      // bound only by an OPTIONAL
  // Alias reuse: subject key → table → alias. ID is each class table's primary key, so two
  // patterns on one subject and table are the same row.
  std::map<std::string, std::map<std::string, std::string>> subject_tables;
  // Classes a subject is known to have (from rdf:type patterns), most specific first.
  std::map<std::string, std::vector<std::pair<const ontology::Class*, std::string>>> subject_classes;
  std::vector<const Expr*> filters;  // a group's FILTERs, applied over the whole group
};

class Translator {
 public:
  explicit Translator(const ontology::Ontology& ontology) : ontology_(ontology), names_(ontology) {}

  // Translates a group; its FILTERs are applied unless `defer_filters` (OPTIONAL: they become
  // part of the LEFT JOIN condition, seeing the outer variables).
  Result<Fragment> Group(const GroupGraphPattern& group, const GraphContext& graph,
                         bool defer_filters = false);
  // Scope: variables of the fragment plus `extra` (projected expressions, for ORDER BY).
  Result<SqlExpr> Expression(const Expr& expr, const Fragment& scope,
                             bool allow_aggregates = false);
  // A FILTER condition (SQL truth value).
  Result<std::string> Condition(const Expr& expr, const Fragment& scope);

  std::string BindValue(schema::SqlValue value);
  std::string BindParameter(const std::string& name, bool as_resource, ontology::ValueType type);
  std::string IriId(const std::string& iri);
  std::string NewAlias(std::string_view prefix = "t");
  static std::string UriOf(const std::string& id_sql);
  static std::string TextOf(const SqlExpr& expr);

  SqlQuery& output() { return output_; }
  std::map<std::string, SqlExpr>& projected() { return projected_; }
  const ontology::Ontology& ontology() const { return ontology_; }

 private:
  Result<void> AddTriple(Fragment& fragment, const TriplePattern& triple,
                         const GraphContext& graph);
  Result<void> AddTypeTriple(Fragment& fragment, const TriplePattern& triple,
                             const GraphContext& graph);
  Result<void> BindTerm(Fragment& fragment, const Term& term, const std::string& sql, Kind kind,
                        ontology::ValueType type);
  Result<void> BindGraph(Fragment& fragment, const std::string& graph_column,
                         const GraphContext& graph);
  std::string AliasFor(Fragment& fragment, const Term& subject, const std::string& table,
                       bool* is_new);
  Result<void> Join(Fragment& into, Fragment other);
  Result<void> LeftJoin(Fragment& into, Fragment optional);
  Result<void> AddBind(Fragment& fragment, const sparql::Bind& bind);
  Result<SqlExpr> Compare(BinaryOp op, const Expr& left, const Expr& right, const Fragment& scope,
                          bool allow_aggregates);
  Result<SqlExpr> TypedOperand(const Expr& expr, const SqlExpr* other, const Fragment& scope,
                               bool allow_aggregates);
  Result<SqlExpr> Builtin(const BuiltinCall& call, const Fragment& scope, bool allow_aggregates);
  Result<SqlExpr> Function(const FunctionCall& call, const Fragment& scope, bool allow_aggregates);
  Result<SqlExpr> AggregateExpr(const Aggregate& aggregate, const Fragment& scope);
  Result<SqlExpr> InExpr(const In& in, const Fragment& scope, bool allow_aggregates);
  Result<SqlExpr> ExistsExpr(const Exists& exists, const Fragment& scope);
  Result<SqlExpr> TermExpr(const Term& term, const Fragment& scope);

  const ontology::Ontology& ontology_;
  schema::Names names_;
  SqlQuery output_;
  std::map<std::string, SqlExpr> projected_;
  int alias_counter_ = 0;
};

std::string SubjectKey(const Term& term);
std::string VariableKey(const Term& term);  // "" when the term is no variable/blank node
Error Unsupported(std::string_view what);

}  // namespace quarry::sparql::translate
