// The SPARQL 1.1 abstract syntax tree produced by ParseQuery()/ParseUpdate().
//
// Shaped for the SQL translator: every IRI is stored resolved and expanded (never a prefixed
// name), literals carry their datatype IRI, graph patterns keep the source order of their
// elements so SPARQL 1.1 §18.2 (algebra translation) can be applied later, and property paths
// appear only where the query wrote a real path (a plain IRI or variable predicate stays a
// Term). Nodes own their children (std::vector, std::unique_ptr): move-only values.
// Thread-safety: plain values; no shared state.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace quarry::sparql {

inline constexpr std::string_view kXsdNs = "http://www.w3.org/2001/XMLSchema#";
inline constexpr std::string_view kRdfNs = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
inline constexpr std::string_view kXsdString = "http://www.w3.org/2001/XMLSchema#string";
inline constexpr std::string_view kXsdInteger = "http://www.w3.org/2001/XMLSchema#integer";
inline constexpr std::string_view kXsdDecimal = "http://www.w3.org/2001/XMLSchema#decimal";
inline constexpr std::string_view kXsdDouble = "http://www.w3.org/2001/XMLSchema#double";
inline constexpr std::string_view kXsdBoolean = "http://www.w3.org/2001/XMLSchema#boolean";
inline constexpr std::string_view kRdfLangString =
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString";
inline constexpr std::string_view kRdfType = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
inline constexpr std::string_view kRdfFirst = "http://www.w3.org/1999/02/22-rdf-syntax-ns#first";
inline constexpr std::string_view kRdfRest = "http://www.w3.org/1999/02/22-rdf-syntax-ns#rest";
inline constexpr std::string_view kRdfNil = "http://www.w3.org/1999/02/22-rdf-syntax-ns#nil";

// ---------------------------------------------------------------------------------------------
// Terms

struct Variable {
  std::string name;  // without '?' or '$'
  friend bool operator==(const Variable&, const Variable&) = default;
};

struct Iri {
  std::string iri;  // absolute when the query had a BASE (or the IRI was absolute)
  friend bool operator==(const Iri&, const Iri&) = default;
};

// RDF 1.1 literal: a simple literal has datatype xsd:string, a language-tagged one
// rdf:langString and a non-empty lang. Numeric literals keep their lexical form as written
// ("+1", "1.0e3"). true/false become "true"/"false"^^xsd:boolean.
struct Literal {
  std::string lexical;
  std::string datatype_iri;
  std::string lang;
  friend bool operator==(const Literal&, const Literal&) = default;
};

// A blank node. Labels written in the query (_:b1) keep their label; nodes the parser makes
// for [], [ p o ] and collections get labels "#1", "#2", ... (never a valid written label, so
// `label` alone identifies the node) and generated = true.
struct BlankNode {
  std::string label;
  bool generated = false;
  friend bool operator==(const BlankNode&, const BlankNode&) = default;
};

// Tracker extension: ~name, a value bound by the caller of a prepared statement.
struct Parameter {
  std::string name;
  friend bool operator==(const Parameter&, const Parameter&) = default;
};

using Term = std::variant<Variable, Iri, Literal, BlankNode, Parameter>;

// ---------------------------------------------------------------------------------------------
// Property paths (only where the query used path syntax beyond a single IRI / variable)

enum class PathKind : uint8_t {
  kLink,         // one IRI (appears inside larger paths)
  kInverse,      // ^p
  kSequence,     // p1 / p2 / ...
  kAlternative,  // p1 | p2 | ...
  kZeroOrMore,   // p*
  kOneOrMore,    // p+
  kZeroOrOne,    // p?
  kNegatedSet,   // !p, !(p1 | ^p2 | ...)
};

struct NegatedPathItem {
  std::string iri;
  bool inverse = false;  // ^iri inside the negated set
};

struct Path {
  PathKind kind = PathKind::kLink;
  std::string iri;                       // kLink
  std::vector<Path> children;            // kInverse/k*Or*: one; kSequence/kAlternative: 2+
  std::vector<NegatedPathItem> negated;  // kNegatedSet
};

// A triple pattern's predicate: a plain term (IRI, variable, parameter) or a real path.
using Verb = std::variant<Term, Path>;

struct TriplePattern {
  Term subject;
  Verb predicate;
  Term object;
};

// ---------------------------------------------------------------------------------------------
// Expressions

enum class BinaryOp : uint8_t {
  kOr,
  kAnd,
  kEqual,
  kNotEqual,
  kLess,
  kGreater,
  kLessEqual,
  kGreaterEqual,
  kAdd,
  kSubtract,
  kMultiply,
  kDivide,
};
enum class UnaryOp : uint8_t { kNot, kMinus, kPlus };

// SPARQL 1.1 built-in calls ([121] BuiltInCall), named by BuiltinName() in upper case.
// clang-format off
#define QUARRY_SPARQL_BUILTINS(X) \
  X(kStr, "STR") \
  X(kLang, "LANG") \
  X(kLangMatches, "LANGMATCHES") \
  X(kDatatype, "DATATYPE") \
  X(kBound, "BOUND") \
  X(kIri, "IRI") \
  X(kUri, "URI") \
  X(kBnode, "BNODE") \
  X(kRand, "RAND") \
  X(kAbs, "ABS") \
  X(kCeil, "CEIL") \
  X(kFloor, "FLOOR") \
  X(kRound, "ROUND") \
  X(kConcat, "CONCAT") \
  X(kSubstr, "SUBSTR") \
  X(kStrlen, "STRLEN") \
  X(kReplace, "REPLACE") \
  X(kUcase, "UCASE") \
  X(kLcase, "LCASE") \
  X(kEncodeForUri, "ENCODE_FOR_URI") \
  X(kContains, "CONTAINS") \
  X(kStrStarts, "STRSTARTS") \
  X(kStrEnds, "STRENDS") \
  X(kStrBefore, "STRBEFORE") \
  X(kStrAfter, "STRAFTER") \
  X(kYear, "YEAR") \
  X(kMonth, "MONTH") \
  X(kDay, "DAY") \
  X(kHours, "HOURS") \
  X(kMinutes, "MINUTES") \
  X(kSeconds, "SECONDS") \
  X(kTimezone, "TIMEZONE") \
  X(kTz, "TZ") \
  X(kNow, "NOW") \
  X(kUuid, "UUID") \
  X(kStrUuid, "STRUUID") \
  X(kMd5, "MD5") \
  X(kSha1, "SHA1") \
  X(kSha256, "SHA256") \
  X(kSha384, "SHA384") \
  X(kSha512, "SHA512") \
  X(kCoalesce, "COALESCE") \
  X(kIf, "IF") \
  X(kStrLang, "STRLANG") \
  X(kStrDt, "STRDT") \
  X(kSameTerm, "SAMETERM") \
  X(kIsIri, "ISIRI") \
  X(kIsUri, "ISURI") \
  X(kIsBlank, "ISBLANK") \
  X(kIsLiteral, "ISLITERAL") \
  X(kIsNumeric, "ISNUMERIC") \
  X(kRegex, "REGEX")
// clang-format on

enum class Builtin : uint8_t {
#define QUARRY_SPARQL_BUILTIN_ENUM(id, name) id,
  QUARRY_SPARQL_BUILTINS(QUARRY_SPARQL_BUILTIN_ENUM)
#undef QUARRY_SPARQL_BUILTIN_ENUM
};
std::string_view BuiltinName(Builtin builtin);

enum class AggregateOp : uint8_t { kCount, kSum, kMin, kMax, kAvg, kSample, kGroupConcat };
std::string_view AggregateName(AggregateOp op);  // "COUNT", ..., "GROUP_CONCAT"

struct Expr;
struct GroupGraphPattern;

struct BinaryExpr {
  BinaryOp op;
  std::unique_ptr<Expr> left;
  std::unique_ptr<Expr> right;
};

struct UnaryExpr {
  UnaryOp op;
  std::unique_ptr<Expr> operand;
};

struct BuiltinCall {
  Builtin function;
  std::vector<Expr> args;
};

// A function named by IRI: XSD casts (xsd:integer(?x)), Tracker functions (tracker:id,
// fts:rank), and property functions, which are ordinary IRI calls here.
struct FunctionCall {
  std::string iri;
  std::vector<Expr> args;
  bool distinct = false;  // iri(DISTINCT ...): custom aggregates
};

struct Aggregate {
  AggregateOp op;
  bool distinct = false;
  std::unique_ptr<Expr> arg;             // null for COUNT(*)
  std::optional<std::string> separator;  // GROUP_CONCAT(...; SEPARATOR = "...")
};

struct Exists {
  std::unique_ptr<GroupGraphPattern> pattern;
  bool negated = false;  // NOT EXISTS
};

struct In {
  std::unique_ptr<Expr> operand;
  std::vector<Expr> list;
  bool negated = false;  // NOT IN
};

struct Expr {
  std::variant<Term, BinaryExpr, UnaryExpr, BuiltinCall, FunctionCall, Aggregate, Exists, In> node;
};

// ---------------------------------------------------------------------------------------------
// Graph patterns

struct PatternElement;

// [53] GroupGraphPattern: the elements in source order. A sub-select is a group whose only
// element is a SubSelect.
struct GroupGraphPattern {
  std::vector<PatternElement> elements;
};

struct TriplesBlock {
  std::vector<TriplePattern> triples;
};
struct Filter {
  Expr expr;
};
struct OptionalPattern {
  GroupGraphPattern pattern;
};
struct UnionPattern {
  std::vector<GroupGraphPattern> branches;  // two or more
};
struct MinusPattern {
  GroupGraphPattern pattern;
};
struct GraphPattern {
  Term graph;  // Iri or Variable (or Parameter)
  GroupGraphPattern pattern;
};
// SERVICE is parsed so queries using it get a clear "unsupported" from the translator.
struct ServicePattern {
  Term endpoint;
  bool silent = false;
  GroupGraphPattern pattern;
};
struct Bind {
  Expr expr;
  Variable variable;
};
// VALUES data; an UNDEF cell is std::nullopt. Every row has vars.size() cells.
struct InlineData {
  std::vector<Variable> variables;
  std::vector<std::vector<std::optional<Term>>> rows;
};
struct SubSelect;
// A nested { ... } that is not part of a UNION (nor an OPTIONAL/MINUS/GRAPH body).
struct NestedGroup {
  GroupGraphPattern pattern;
};

struct PatternElement {
  std::variant<TriplesBlock, Filter, OptionalPattern, UnionPattern, MinusPattern, GraphPattern,
               ServicePattern, Bind, InlineData, NestedGroup, std::unique_ptr<SubSelect>>
      node;
};

// ---------------------------------------------------------------------------------------------
// Queries

// One projected column. `expr` is null for a plain variable. `variable` is absent only for the
// Tracker extension of an unnamed expression (SELECT COUNT(?x) {...}).
struct SelectItem {
  std::optional<Variable> variable;
  std::unique_ptr<Expr> expr;
};

struct SelectClause {
  bool distinct = false;
  bool reduced = false;
  bool star = false;  // SELECT *
  std::vector<SelectItem> items;
};

// [20] GroupCondition: an expression, optionally named (GROUP BY (?x + 1 AS ?y)).
struct GroupCondition {
  Expr expr;
  std::optional<Variable> variable;
};

struct OrderCondition {
  Expr expr;
  bool descending = false;
};

struct SolutionModifiers {
  std::vector<GroupCondition> group_by;
  std::vector<Expr> having;
  std::vector<OrderCondition> order_by;
  std::optional<int64_t> limit;
  std::optional<int64_t> offset;
  // Tracker: LIMIT ~name / OFFSET ~name, bound when a prepared statement runs.
  std::optional<Parameter> limit_parameter;
  std::optional<Parameter> offset_parameter;
};

struct DatasetClause {
  std::string iri;
  bool named = false;  // FROM NAMED
};

struct SubSelect {
  SelectClause select;
  GroupGraphPattern where;
  SolutionModifiers modifiers;
  std::optional<InlineData> values;
};

enum class QueryForm : uint8_t { kSelect, kConstruct, kDescribe, kAsk };

struct Query {
  QueryForm form = QueryForm::kSelect;
  std::string base_iri;                           // the last BASE in effect (or the option's)
  std::map<std::string, std::string> prefixes;    // the prefix map at the end of the prologue
  SelectClause select;                            // kSelect
  std::vector<TriplePattern> construct_template;  // kConstruct (CONSTRUCT WHERE: the pattern)
  std::vector<Term> describe;                     // kDescribe; empty with select.star
  std::vector<DatasetClause> dataset;
  bool has_where = true;  // false only for DESCRIBE without a WHERE clause
  GroupGraphPattern where;
  SolutionModifiers modifiers;
  std::optional<InlineData> values;  // trailing VALUES
};

// ---------------------------------------------------------------------------------------------
// Updates

// Triples of one graph inside a quad pattern/data block; graph absent = the default graph (or
// the WITH graph of a Modify).
struct QuadsBlock {
  std::optional<Term> graph;
  std::vector<TriplePattern> triples;
};
using Quads = std::vector<QuadsBlock>;

struct InsertData {
  Quads quads;
  bool or_replace = false;  // Tracker: INSERT OR REPLACE DATA
  bool silent = false;      // Tracker: INSERT SILENT DATA
};
struct DeleteData {
  Quads quads;
};
struct DeleteWhere {
  Quads quads;
};
// [41] Modify: WITH ... DELETE {...} INSERT {...} USING ... WHERE ...
struct Modify {
  std::optional<std::string> with_iri;
  std::optional<Quads> delete_quads;
  std::optional<Quads> insert_quads;
  bool or_replace = false;  // Tracker: INSERT OR REPLACE { ... }
  bool silent = false;      // Tracker: INSERT SILENT { ... }
  std::vector<DatasetClause> using_clauses;
  bool has_where = true;  // Tracker allows omitting WHERE: one empty solution then
  GroupGraphPattern where;
};

struct GraphRef {
  enum class Kind : uint8_t { kGraph, kDefault, kNamed, kAll };
  Kind kind = Kind::kGraph;
  std::string iri;  // kGraph
};
// [46] GraphOrDefault
struct GraphOrDefault {
  bool is_default = true;
  std::string iri;
};

struct Load {
  bool silent = false;
  std::string iri;
  std::optional<std::string> into_graph;
};
struct Clear {
  bool silent = false;
  GraphRef target;
};
struct Drop {
  bool silent = false;
  GraphRef target;
};
struct Create {
  bool silent = false;
  std::string graph_iri;
};
struct Add {
  bool silent = false;
  GraphOrDefault from;
  GraphOrDefault to;
};
struct Move {
  bool silent = false;
  GraphOrDefault from;
  GraphOrDefault to;
};
struct Copy {
  bool silent = false;
  GraphOrDefault from;
  GraphOrDefault to;
};

using UpdateOperation = std::variant<InsertData, DeleteData, DeleteWhere, Modify, Load, Clear, Drop,
                                     Create, Add, Move, Copy>;

struct Update {
  std::string base_iri;
  std::map<std::string, std::string> prefixes;  // at the end of the request
  std::vector<UpdateOperation> operations;      // in order; ';'-separated in the source
};

// Shortcuts used by the parser and tests.
inline Term MakeIri(std::string iri) { return Iri{std::move(iri)}; }
inline Term MakeVariable(std::string name) { return Variable{std::move(name)}; }
inline Term MakeLiteral(std::string lexical, std::string_view datatype = kXsdString) {
  return Literal{std::move(lexical), std::string(datatype), {}};
}

}  // namespace quarry::sparql
