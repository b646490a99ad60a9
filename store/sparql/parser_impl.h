// The recursive-descent parser behind ParseQuery()/ParseUpdate(). Internal to store/sparql.
//
// One member function per grammar rule, each quoting its rule. The implementation is split by
// concept: parser.cpp (tokens, errors, entry points), parse_terms.cpp (IRIs, literals, blank
// nodes, prologue), parse_triples.cpp, parse_path.cpp, parse_pattern.cpp, parse_expr.cpp,
// parse_call.cpp (built-ins, aggregates), parse_query.cpp, parse_select.cpp (projection
// checks), parse_update.cpp. Thread-safety: one Parser per parse.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/common/result.h"
#include "store/sparql/ast.h"
#include "store/sparql/lexer.h"
#include "store/sparql/parser.h"

namespace quarry::sparql {

class ChainGuard;

// What the triples being parsed may contain; set per block (WHERE, template, QuadData).
struct TripleRules {
  bool paths = true;
  bool variables = true;
  bool blank_nodes = true;
  bool check_label_scope = false;  // strict: a label belongs to one BGP / INSERT DATA
  std::string_view context = "";   // for messages: "INSERT DATA", "a DELETE template"
};

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& options);

  Result<Query> ParseQueryUnit();
  Result<Update> ParseUpdateUnit();
  Result<void> ParseUpdateStreamUnit(UpdateSink& sink);  // parse_update_stream.cpp

 private:
  friend class NestingGuard;
  friend class ChainGuard;

  // ---- tokens and errors (parser.cpp)
  const Token& Peek() const { return current_; }
  const Token& PeekNext();
  void Advance();
  bool At(TokenKind kind) const { return current_.kind == kind; }
  bool AtKeyword(Keyword keyword) const {
    return current_.kind == TokenKind::kWord && current_.keyword == keyword;
  }
  bool Accept(TokenKind kind);
  bool AcceptKeyword(Keyword keyword);
  Result<void> Expect(TokenKind kind);
  Result<void> ExpectKeyword(Keyword keyword);
  // "expected <what> but found <current token>" at the current token.
  Error ErrorExpected(std::string_view what) const;
  Error ErrorAt(size_t offset, std::string_view message) const;
  std::string Describe(const Token& token) const;
  bool strict() const { return options_.strict; }
  // Refuses a Tracker extension in strict mode.
  Result<void> CheckExtension(size_t offset, std::string_view what) const;

  // ---- terms (parse_terms.cpp)
  Result<void> ParsePrologue();    // [4]
  Result<void> ParseBaseDecl();    // [5]
  Result<void> ParsePrefixDecl();  // [6]
  bool AtIri() const;
  Result<std::string> ParseIri();  // [136]
  Result<std::string> ResolveIriRef(const Token& token);
  Result<std::string> ExpandPrefixedName(const Token& token);  // [137]
  bool AtVar() const { return At(TokenKind::kVar); }
  Result<Variable> ParseVar();        // [108]
  Result<Term> ParseVarOrIri();       // [107]
  Result<std::string> ParseString();  // [135]
  Result<Literal> ParseRdfLiteral();  // [129]
  Literal ParseNumericLiteral();      // [130]
  Literal ParseBooleanLiteral();      // [134]
  Result<Term> ParseGraphTerm();      // [109]
  Result<Term> ParseVarOrTerm();      // [106]
  Result<Term> ParseParameter();
  BlankNode NewBlankNode();
  Result<BlankNode> UseBlankNodeLabel(const Token& token);
  bool AtLiteralStart() const;

  // ---- triples (parse_triples.cpp)
  Result<void> ParseTriplesBlock(std::vector<TriplePattern>& out);        // [55]
  Result<void> ParseTriplesTemplate(std::vector<TriplePattern>& out);     // [52]
  Result<void> ParseTriplesSameSubject(std::vector<TriplePattern>& out);  // [75] [81]
  Result<void> ParsePropertyListNotEmpty(const Term& subject,
                                         std::vector<TriplePattern>& out);  // [77] [83]
  Result<Verb> ParseVerb();                                                 // [78] [84] [85]
  Result<void> ParseObjectList(const Term& subject, const Verb& verb,
                               std::vector<TriplePattern>& out);             // [79] [86]
  Result<Term> ParseGraphNode(std::vector<TriplePattern>& out);              // [104] [105]
  Result<Term> ParseCollection(std::vector<TriplePattern>& out);             // [102] [103]
  Result<Term> ParseBlankNodePropertyList(std::vector<TriplePattern>& out);  // [99] [101]
  bool AtTriplesStart() const;
  bool AtVerbStart() const;

  // ---- property paths (parse_path.cpp)
  Result<Path> ParsePath();                             // [88] [89]
  Result<Path> ParsePathSequence();                     // [90]
  Result<Path> ParsePathEltOrInverse();                 // [92]
  Result<Path> ParsePathElt();                          // [91] [93]
  Result<Path> ParsePathPrimary();                      // [94]
  Result<Path> ParsePathNegatedPropertySet();           // [95]
  Result<NegatedPathItem> ParsePathOneInPropertySet();  // [96]

  // ---- graph patterns (parse_pattern.cpp)
  Result<GroupGraphPattern> ParseGroupGraphPattern();                                  // [53]
  Result<void> ParseGroupGraphPatternSub(GroupGraphPattern& group);                    // [54]
  Result<PatternElement> ParseGraphPatternNotTriples(const GroupGraphPattern& group);  // [56]
  Result<PatternElement> ParseGroupOrUnionGraphPattern();                              // [67]
  Result<PatternElement> ParseGraphGraphPattern();                                     // [58]
  Result<PatternElement> ParseServiceGraphPattern();                                   // [59]
  Result<PatternElement> ParseBind(const GroupGraphPattern& group);                    // [60]
  Result<InlineData> ParseDataBlock();  // [62] [63] [64]
  Result<std::vector<std::optional<Term>>> ParseDataBlockRow(size_t width);
  Result<std::optional<Term>> ParseDataBlockValue();    // [65]
  Result<std::unique_ptr<SubSelect>> ParseSubSelect();  // [8]

  // ---- expressions (parse_expr.cpp)
  Result<Expr> ParseExpression();                // [110]
  Result<Expr> ParseConditionalOrExpression();   // [111]
  Result<Expr> ParseConditionalAndExpression();  // [112]
  Result<Expr> ParseRelationalExpression();      // [114]
  Result<Expr> ParseAdditiveExpression();        // [116]
  Result<Expr> ParseMultiplicativeExpression();  // [117]
  Result<Expr> ParseMultiplicativeTail(Expr left, ChainGuard& chain);
  Result<Expr> Combine(BinaryOp op, Expr left, Expr right, ChainGuard& chain);
  Result<Expr> ParseUnaryExpression();                     // [118]
  Result<Expr> ParsePrimaryExpression();                   // [119]
  Result<Expr> ParseBrackettedExpression();                // [120]
  Result<Expr> ParseConstraint();                          // [69]
  Result<Expr> ParseIriOrFunction();                       // [128]
  Result<Expr> ParseFunctionCall();                        // [70]
  Result<std::vector<Expr>> ParseArgList(bool& distinct);  // [71]
  Result<std::vector<Expr>> ParseExpressionList();         // [72]

  // ---- built-in calls (parse_call.cpp)
  bool AtBuiltInCall() const;
  Result<Expr> ParseBuiltInCall();  // [121]
  Result<Expr> ParseAggregate();    // [127]
  Result<Expr> ParseExistsFunc();   // [125] [126]

  // ---- queries (parse_query.cpp, parse_select.cpp)
  Result<SelectClause> ParseSelectClause(std::vector<size_t>& item_offsets);  // [9]
  Result<SelectItem> ParseSelectExpressionItem();
  Result<void> ParseSelectQuery(Query& query);                         // [7]
  Result<void> ParseConstructQuery(Query& query);                      // [10]
  Result<void> ParseDescribeQuery(Query& query);                       // [11]
  Result<void> ParseAskQuery(Query& query);                            // [12]
  Result<void> ParseDatasetClauses(std::vector<DatasetClause>& out);   // [13]
  Result<GroupGraphPattern> ParseWhereClause();                        // [17]
  Result<SolutionModifiers> ParseSolutionModifier();                   // [18]
  Result<void> ParseGroupClause(SolutionModifiers& modifiers);         // [19]
  Result<GroupCondition> ParseGroupCondition();                        // [20]
  Result<void> ParseHavingClause(SolutionModifiers& modifiers);        // [21]
  Result<void> ParseOrderClause(SolutionModifiers& modifiers);         // [23]
  Result<OrderCondition> ParseOrderCondition();                        // [24]
  Result<void> ParseLimitOffsetClauses(SolutionModifiers& modifiers);  // [25]
  Result<void> ParseLimitOrOffset(std::optional<int64_t>& value,
                                  std::optional<Parameter>& parameter);  // [26] [27]
  Result<std::optional<InlineData>> ParseValuesClause();                 // [28]
  // SPARQL 1.1 §18.2.4.1 / §18.2.1 checks on a finished SELECT (parse_select.cpp).
  Result<void> CheckSelect(const SelectClause& select, const std::vector<size_t>& item_offsets,
                           const GroupGraphPattern& where, const SolutionModifiers& modifiers,
                           size_t select_offset);

  // ---- updates (parse_update.cpp)
  Result<void> ParseUpdateRequest(Update& update);     // [29]
  Result<UpdateOperation> ParseUpdate1();              // [30]
  bool AtUpdateStart() const;
  Result<UpdateOperation> ParseLoad();                 // [31]
  Result<UpdateOperation> ParseClearOrDrop();          // [32] [33]
  Result<UpdateOperation> ParseCreate();               // [34]
  Result<UpdateOperation> ParseAddMoveCopy();          // [35] [36] [37]
  Result<UpdateOperation> ParseInsert();               // [38] [43] + Tracker's OR REPLACE/SILENT
  Result<UpdateOperation> ParseDelete();               // [39] [40] [42]
  Result<UpdateOperation> ParseModify(Modify modify);  // [41]
  Result<GraphOrDefault> ParseGraphOrDefault();        // [45]
  Result<std::string> ParseGraphRef();                 // [46]
  Result<GraphRef> ParseGraphRefAll();                 // [47]
  Result<Quads> ParseQuadBlock(const TripleRules& rules);  // [48] [49]
  Result<void> ParseQuads(Quads& quads);                   // [50] [51]
  void ReserveForBulkData(std::vector<TriplePattern>& triples) const;

  // ---- streaming updates (parse_update_stream.cpp)
  // Parses the QuadData of a streamed INSERT DATA / DELETE DATA, handing triples to the sink.
  Result<UpdateOperation> StreamQuadData(const DataOperation& operation, const TripleRules& rules);
  // In a streamed QuadData: hands one statement's triples to the sink and clears them.
  Result<void> EmitDataTriples(std::vector<TriplePattern>& triples, size_t offset);

  std::string_view source_;
  const ParseOptions& options_;
  Lexer lexer_;
  Token current_;
  Token next_;
  bool has_next_ = false;
  size_t previous_end_ = 0;  // end of the last consumed token, for end-of-input errors

  std::map<std::string, std::string, std::less<>> prefixes_;  // string_view lookups
  std::string base_;
  int depth_ = 0;
  uint64_t generated_blank_nodes_ = 0;
  TripleRules rules_;
  // Strict mode: the BGP (or update operation) each written blank node label belongs to.
  std::unordered_map<std::string, uint32_t> label_scopes_;
  uint32_t label_scope_ = 0;
  uint32_t label_scope_counter_ = 0;
  bool aggregates_allowed_ = false;
  bool in_aggregate_ = false;
  // Streaming (ParseUpdateStream): the sink; whether the next top-level INSERT DATA / DELETE
  // DATA may stream (not one after DELETE {...}); whether the last operation streamed; the
  // sink while inside a streamed QuadData, and the GRAPH being parsed there.
  UpdateSink* sink_ = nullptr;
  bool may_stream_data_ = false;
  bool streamed_ = false;
  UpdateSink* data_sink_ = nullptr;
  const Term* data_graph_ = nullptr;
};

// The depth budget bounds both the parser's recursion and the height of the AST it builds
// (so destroying or walking the AST recursively is safe too). A nesting level (group,
// bracketed expression, path, collection, [ ]) costs kNestingCost units; each link of an
// operator chain (a || b || c, a + b + c) costs one unit while the chain is parsed.
inline constexpr int kNestingCost = 4;
inline constexpr int kDepthBudget = kMaxNestingDepth * kNestingCost;

// Counts one level of nesting for as long as it lives.
class NestingGuard {
 public:
  explicit NestingGuard(Parser& parser) : parser_(parser) { parser_.depth_ += kNestingCost; }
  ~NestingGuard() { parser_.depth_ -= kNestingCost; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;
  bool too_deep() const { return parser_.depth_ > kDepthBudget; }

 private:
  Parser& parser_;
};

// Counts the links of one operator chain; released when the chain's parse returns.
class ChainGuard {
 public:
  explicit ChainGuard(Parser& parser) : parser_(parser) {}
  ~ChainGuard() { parser_.depth_ -= links_; }
  ChainGuard(const ChainGuard&) = delete;
  ChainGuard& operator=(const ChainGuard&) = delete;
  // Adds a link; false when the budget is exhausted.
  bool Step() {
    ++links_;
    ++parser_.depth_;
    return parser_.depth_ <= kDepthBudget;
  }

 private:
  Parser& parser_;
  int links_ = 0;
};

// Sets a variable for a scope and restores it after.
template <typename T>
class ScopedValue {
 public:
  ScopedValue(T& target, T value) : target_(target), saved_(std::move(target)) {
    target_ = std::move(value);
  }
  ~ScopedValue() { target_ = std::move(saved_); }
  ScopedValue(const ScopedValue&) = delete;
  ScopedValue& operator=(const ScopedValue&) = delete;

 private:
  T& target_;
  T saved_;
};

// Variable scoping helpers (scope.cpp), SPARQL 1.1 §18.2.1.
void AddInScopeVariables(const GroupGraphPattern& group, std::vector<std::string>& out);
void AddInScopeVariables(const PatternElement& element, std::vector<std::string>& out);
// Variables an expression mentions; with skip_aggregates, those inside aggregates are left out.
void AddExpressionVariables(const Expr& expr, bool skip_aggregates, std::vector<std::string>& out);
bool ContainsAggregate(const Expr& expr);

}  // namespace quarry::sparql
