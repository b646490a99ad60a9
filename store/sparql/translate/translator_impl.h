// Internal state of the SPARQL → SQL compiler; see translator.h for what is supported.
//
// A group graph pattern becomes a Fragment: a FROM list, WHERE conditions and the SQL
// expression that binds each variable. Triple patterns join class tables (one alias per subject
// and table, so several properties of one resource never self-join), OPTIONAL becomes a LEFT
// JOIN on a derived table (or, for one single-valued property of a row already joined, that
// row's column: translate_optional.cpp), and expressions are typed (resource ID, literal of a
// known type, or dynamic) so constants are encoded like the stored values they are compared with.
// Thread-safety: one Translator per compilation.
#pragma once

#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include "store/common/result.h"
#include "store/ontology/ontology.h"
#include "store/schema/names.h"
#include "store/sparql/ast.h"
#include "store/sparql/sql_query.h"

namespace quarry::sparql::translate {

// kTerm (open mode, translate_quad.cpp): a term ID of the quad table, a Resource ID or a
// negative literal ID (store/schema/quad_table.h); expressions see it as its dynamic value.
enum class Kind { kResource, kLiteral, kDynamic, kTerm };

struct SqlExpr {
  std::string sql;
  Kind kind = Kind::kDynamic;
  ontology::ValueType type = ontology::ValueType::kString;  // for kLiteral
  bool is_aggregate = false;
  // Open mode: the quad-table term ID this value was read from (Translator::TermValue), for
  // the functions that need the term itself (STR, LANG, DATATYPE, is*, sameTerm).
  std::string term_id = {};
  // Open mode: the value's self-describing output form (quad_table.h TermOutputSql) when its
  // kind cannot say it, e.g. COALESCE of a quad-table term and a typed constant; projected as a
  // kTerm column so the datatype survives (§17.4.1.4: COALESCE returns its argument's term).
  std::string output = {};
  // A class table's own column (alias."column", BINARY collation), not an expression over one:
  // a range condition on it is one its index can answer (Translator::PrefixRange).
  bool table_column = false;
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

// FROM / FROM NAMED (SPARQL 1.1 §13.2). Without FROM the default graph is Tracker's union of
// all graphs; with FROM it is the merge of the listed graphs (empty when only FROM NAMED is
// given); with FROM NAMED, GRAPH ranges over the listed graphs only.
struct Dataset {
  bool restricts_default = false;
  // Open mode (SPARQL 1.1 §13): without FROM the default graph is the store's own default graph
  // (graph 0), not Tracker's union of all graphs; restricts_default is then set too.
  bool default_is_graph0 = false;
  std::vector<std::string> default_graphs;
  bool restricts_named = false;
  std::vector<std::string> named_graphs;
};

// A property path as a derived table with columns s, o (and g when the graph is a variable).
struct PathTable {
  std::string sql;  // a SELECT
  Kind subject_kind = Kind::kResource;
  Kind object_kind = Kind::kResource;
  ontology::ValueType subject_type = ontology::ValueType::kResource;
  ontology::ValueType object_type = ontology::ValueType::kResource;
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
  // A FILTER condition (SQL truth value, NULL on error): only for a term ANDed into a WHERE or
  // ON, where NULL and false both drop the solution.
  Result<std::string> Condition(const Expr& expr, const Fragment& scope);
  // STRSTARTS(?string_column, "prefix") as an index range on the column (translate_expr.cpp).
  std::optional<std::string> PrefixRange(const Expr& expr, const Fragment& scope) const;

  std::string BindValue(schema::SqlValue value);
  std::string BindParameter(const std::string& name, bool as_resource, ontology::ValueType type);
  std::string IriId(const std::string& iri);
  std::string NewAlias(std::string_view prefix = "t");
  static std::string UriOf(const std::string& id_sql);
  static std::string TextOf(const SqlExpr& expr);

  // Joins `other` into `into`; shared variables that may be unbound join as compatible
  // solutions (equal, or unbound on one side), taking the bound value.
  Result<void> Join(Fragment& into, Fragment other);
  // Algebra beyond joins (issue 3): each adds one element of a group to `fragment`.
  Result<void> AddUnion(Fragment& fragment, const UnionPattern& pattern, const GraphContext& graph);
  Result<void> AddMinus(Fragment& fragment, const MinusPattern& minus, const GraphContext& graph);
  Result<Fragment> Values(const InlineData& data);
  Result<Fragment> SubQuery(const SubSelect& select, const GraphContext& graph);
  Result<void> AddPath(Fragment& fragment, const TriplePattern& triple, const GraphContext& graph);
  // GRAPH ?name { … } whose pattern binds ?name itself: the graph column, bound under `hidden`,
  // leaves the fragment's variables and joins as ?name (compatible with the pattern's own).
  Result<void> JoinGraphName(Fragment& fragment, const std::string& hidden,
                             const std::string& name);
  // `fragment` as a derived table (a SELECT) whose column "v_<name>" holds each of `names`
  // (NULL where the fragment does not bind it); `kinds` says how each is encoded.
  std::string DerivedSelect(const Fragment& fragment, const std::vector<std::string>& names,
                            const std::vector<SqlExpr>& kinds);
  void SetDataset(Dataset dataset) { dataset_ = std::move(dataset); }
  // True when a pattern outside GRAPH sees every graph (no FROM): class tables, which keep no
  // graph, may then stand for rdf:type and domain-index mirrors for values.
  bool SeesAllGraphs(const GraphContext& graph) const {
    return graph.mode == GraphContext::Mode::kAny && !dataset_.restricts_default;
  }

  SqlQuery& output() { return output_; }
  // Open mode: unknown and variable predicates read the quad table (translate_quad.cpp).
  void set_open_mode(bool open_mode) { open_mode_ = open_mode; }
  // The query's BASE, against which IRI("relative") resolves.
  void set_base_iri(std::string base_iri) { base_iri_ = std::move(base_iri); }
  const std::string& base_iri() const { return base_iri_; }
  bool UsesQuads(const TriplePattern& triple) const;
  Result<void> AddQuadTriple(Fragment& fragment, const TriplePattern& triple,
                             const GraphContext& graph);
  // A kTerm value as the dynamic value expressions compute with; other kinds unchanged.
  static SqlExpr TermValue(const SqlExpr& value);
  // Full text (translate_fts.cpp): `?r fts:match "search"`, fts:rank/snippet/offsets(?r).
  static bool IsFtsMatch(const TriplePattern& triple);
  Result<void> AddFtsMatch(Fragment& fragment, const TriplePattern& triple);
  Result<SqlExpr> FtsFunction(const FunctionCall& call, const Fragment& scope);
  std::map<std::string, SqlExpr>& projected() { return projected_; }
  const ontology::Ontology& ontology() const { return ontology_; }
  // Open mode: the output form (kTerm column) of a projected SUM or AVG of quad-table terms,
  // typed by XPath's promotion with exact decimals (quarry_term_sum/avg,
  // sql_aggregate_functions.cpp); nullopt for any other expression.
  Result<std::optional<std::string>> ProjectedTerm(const Expr& expr, const Fragment& scope);
  // Open mode: the output form of an XSD number (store/engine/sql_numeric_functions.h) for
  // + - * /, unary + -, ABS/CEIL/FLOOR/ROUND and the casts to xsd:decimal/float/double whose
  // leaves are quad-table terms, literals, or (`allow_aggregates`) aggregates (`operand`: a bare
  // term counts); nullopt otherwise (translate_numeric.cpp).
  Result<std::optional<std::string>> NumericTerm(const Expr& expr, const Fragment& scope,
                                                 bool operand = false,
                                                 bool allow_aggregates = false);

  // The FROM / FROM NAMED restriction of a graph column for this context ("1" when none).
  std::string GraphFilter(const std::string& graph_column, const GraphContext& graph);
  // All conditions on the graph column of one stored triple (context and dataset).
  std::string EdgeGraph(const std::string& graph_column, const GraphContext& graph);
 private:
  Result<void> AddTriple(Fragment& fragment, const TriplePattern& triple,
                         const GraphContext& graph);
  Result<void> AddTypeTriple(Fragment& fragment, const TriplePattern& triple,
                             const GraphContext& graph);
  Result<void> BindTerm(Fragment& fragment, const Term& term, const std::string& sql, Kind kind,
                        ontology::ValueType type, bool table_column = false);
  Result<void> BindGraph(Fragment& fragment, const std::string& graph_column,
                         const GraphContext& graph);
  std::string AliasFor(Fragment& fragment, const Term& subject, const std::string& table,
                       bool* is_new);
  Result<void> LeftJoin(Fragment& into, Fragment optional);
  // OPTIONAL { ?s <p> ?o } as the column of a row of ?s `fragment` joined already, when that is
  // what the LEFT JOIN would give (translate_optional.cpp); false: not such a pattern.
  bool OptionalFromJoinedRow(Fragment& fragment, const GroupGraphPattern& optional,
                             const GraphContext& graph);
  std::string JoinedColumn(const Fragment& fragment, const std::string& key,
                           const ontology::Property& property) const;
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
  bool open_mode_ = false;
  std::string base_iri_;
  Dataset dataset_;
  GraphContext active_graph_;  // of the group being translated (Group), for EXISTS

  // One VALUES cell in its natural encoding; UNDEF is NULL (translate_values.cpp).
  Result<SqlExpr> ValueCell(const std::optional<Term>& cell, std::map<std::string, int>& unknown_iris);

  // translate_path.cpp
  // `ends` is the triple when `path` is its whole predicate: a constant end seeds * and +.
  Result<PathTable> PathSql(const Path& path, const GraphContext& graph, const TriplePattern* ends);
  Result<PathTable> LinkSql(const std::string& iri, const GraphContext& graph);
  Result<PathTable> ClosureSql(const Path& step, const GraphContext& graph, const TriplePattern* ends,
                               bool zero_length, bool repeat);
  Result<PathTable> NegatedSql(const Path& path, const GraphContext& graph);
  Result<PathTable> OpenNegatedSql(const std::vector<std::string>& forward,
                                   const std::vector<std::string>& inverse,
                                   const GraphContext& graph);
  std::string ZeroLengthSql(const PathTable& edges, const std::string& edge_table,
                            const GraphContext& graph);
};

std::string SubjectKey(const Term& term);
std::string VariableKey(const Term& term);  // "" when the term is no variable/blank node
Error Unsupported(std::string_view what);
// The encoding values of several kinds share in one column (UNION branches, VALUES cells, path
// alternatives): their kind when all agree, else kDynamic (sql is left empty).
SqlExpr CommonKind(const std::vector<SqlExpr>& values);
// `value` re-encoded for a column of `target`'s kind: a dynamic column holds a resource as its
// IRI text and a dateTime in its lexical form, so the cursor reads them back by SQLite type.
std::string Convert(const SqlExpr& value, const SqlExpr& target);
// SELECTs joined with UNION ALL, nested in groups so no compound exceeds SQLite's limit of 500
// terms (a negated property set unions every property of the ontology).
std::string UnionAll(std::vector<std::string> selects);
// SQL equality of two bound values ("0" when their kinds can never be equal).
std::string Equal(const SqlExpr& a, const SqlExpr& b);
// Equal() when either side is a kTerm (translate_quad.cpp).
std::string TermEqual(const SqlExpr& a, const SqlExpr& b);
// GROUP BY, HAVING, ORDER BY, LIMIT/OFFSET of a query or sub-select (translate_select.cpp).
Result<std::string> SolutionTail(Translator& translator, const SolutionModifiers& modifiers,
                                 const Fragment& fragment);
// GROUP BY (expression AS ?name): binds ?name to the key's expression, so the projection,
// HAVING and ORDER BY see it (§18.2.4.1); a name the pattern binds already is left alone.
Result<void> BindGroupAliases(Translator& translator, const SolutionModifiers& modifiers,
                              Fragment& fragment);

}  // namespace quarry::sparql::translate
