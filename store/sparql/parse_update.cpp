// SPARQL 1.1 Update: operations, quad blocks and graph references.
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "store/sparql/parser_impl.h"

namespace quarry::sparql {

namespace {

TripleRules DataRules(bool allow_blank_nodes, std::string_view context) {
  TripleRules rules;
  rules.paths = false;
  rules.variables = false;
  rules.blank_nodes = allow_blank_nodes;
  rules.check_label_scope = allow_blank_nodes;
  rules.context = context;
  return rules;
}

// DELETE templates may not create blank nodes: they would never match anything.
TripleRules TemplateRules(bool allow_blank_nodes, std::string_view context) {
  TripleRules rules;
  rules.paths = false;
  rules.blank_nodes = allow_blank_nodes;
  rules.context = context;
  return rules;
}

}  // namespace

// [3] UpdateUnit ::= Update
Result<Update> Parser::ParseUpdateUnit() {
  Update update;
  QUARRY_TRY(ParseUpdateRequest(update));
  if (!At(TokenKind::kEnd)) return ErrorExpected("';' or end of update");
  update.base_iri = base_;
  update.prefixes.insert(prefixes_.begin(), prefixes_.end());
  return update;
}

// [29] Update ::= Prologue ( Update1 ( ';' Update )? )?
// Tracker makes the ';' between operations optional.
// With a sink (ParseUpdateStream) operations go to it instead of into `update`.
Result<void> Parser::ParseUpdateRequest(Update& update) {
  while (true) {
    QUARRY_TRY(ParsePrologue());
    if (At(TokenKind::kEnd)) return Ok();
    label_scope_ = ++label_scope_counter_;
    const size_t offset = current_.offset;
    may_stream_data_ = sink_ && (AtKeyword(Keyword::kInsert) || AtKeyword(Keyword::kDelete));
    QUARRY_ASSIGN_OR_RETURN(UpdateOperation operation, ParseUpdate1());
    if (!sink_) {
      update.operations.push_back(std::move(operation));
    } else if (!std::exchange(streamed_, false)) {
      QUARRY_TRY(sink_->OnOperation(std::move(operation), offset));
    }
    if (!Accept(TokenKind::kSemicolon) && (strict() || !AtUpdateStart())) return Ok();
  }
}

bool Parser::AtUpdateStart() const {
  if (current_.kind != TokenKind::kWord) return false;
  switch (current_.keyword) {
    case Keyword::kLoad:
    case Keyword::kClear:
    case Keyword::kDrop:
    case Keyword::kCreate:
    case Keyword::kAdd:
    case Keyword::kMove:
    case Keyword::kCopy:
    case Keyword::kInsert:
    case Keyword::kDelete:
    case Keyword::kWith:
    case Keyword::kPrefix:
    case Keyword::kBase:
      return true;
    default:
      return false;
  }
}

// [30] Update1 ::= Load | Clear | Drop | Add | Move | Copy | Create | InsertData | DeleteData
//      | DeleteWhere | Modify
Result<UpdateOperation> Parser::ParseUpdate1() {
  if (current_.kind == TokenKind::kWord) {
    switch (current_.keyword) {
      case Keyword::kLoad:
        return ParseLoad();
      case Keyword::kClear:
      case Keyword::kDrop:
        return ParseClearOrDrop();
      case Keyword::kCreate:
        return ParseCreate();
      case Keyword::kAdd:
      case Keyword::kMove:
      case Keyword::kCopy:
        return ParseAddMoveCopy();
      case Keyword::kInsert:
        return ParseInsert();
      case Keyword::kDelete:
        return ParseDelete();
      case Keyword::kWith: {
        Advance();
        Modify modify;
        QUARRY_ASSIGN_OR_RETURN(modify.with_iri, ParseIri());
        if (AcceptKeyword(Keyword::kDelete)) {
          QUARRY_ASSIGN_OR_RETURN(modify.delete_quads,
                                  ParseQuadBlock(TemplateRules(false, "a DELETE template")));
        } else if (!AtKeyword(Keyword::kInsert)) {
          return ErrorExpected("DELETE or INSERT after WITH");
        }
        return ParseModify(std::move(modify));
      }
      default:
        break;
    }
  }
  return ErrorExpected("an update operation (INSERT, DELETE, LOAD, CLEAR, ...)");
}

// [31] Load ::= 'LOAD' 'SILENT'? iri ( 'INTO' GraphRef )?
Result<UpdateOperation> Parser::ParseLoad() {
  Advance();
  Load load;
  load.silent = AcceptKeyword(Keyword::kSilent);
  QUARRY_ASSIGN_OR_RETURN(load.iri, ParseIri());
  if (AcceptKeyword(Keyword::kInto)) {
    QUARRY_ASSIGN_OR_RETURN(load.into_graph, ParseGraphRef());
  }
  return UpdateOperation(std::move(load));
}

// [32] Clear ::= 'CLEAR' 'SILENT'? GraphRefAll
// [33] Drop ::= 'DROP' 'SILENT'? GraphRefAll
Result<UpdateOperation> Parser::ParseClearOrDrop() {
  const bool is_clear = AtKeyword(Keyword::kClear);
  Advance();
  const bool silent = AcceptKeyword(Keyword::kSilent);
  QUARRY_ASSIGN_OR_RETURN(GraphRef target, ParseGraphRefAll());
  if (is_clear) return UpdateOperation(Clear{silent, std::move(target)});
  return UpdateOperation(Drop{silent, std::move(target)});
}

// [34] Create ::= 'CREATE' 'SILENT'? GraphRef
Result<UpdateOperation> Parser::ParseCreate() {
  Advance();
  Create create;
  create.silent = AcceptKeyword(Keyword::kSilent);
  QUARRY_ASSIGN_OR_RETURN(create.graph_iri, ParseGraphRef());
  return UpdateOperation(std::move(create));
}

// [35] Add ::= 'ADD' 'SILENT'? GraphOrDefault 'TO' GraphOrDefault
// [36] Move ::= 'MOVE' 'SILENT'? GraphOrDefault 'TO' GraphOrDefault
// [37] Copy ::= 'COPY' 'SILENT'? GraphOrDefault 'TO' GraphOrDefault
Result<UpdateOperation> Parser::ParseAddMoveCopy() {
  const Keyword keyword = current_.keyword;
  Advance();
  const bool silent = AcceptKeyword(Keyword::kSilent);
  QUARRY_ASSIGN_OR_RETURN(GraphOrDefault from, ParseGraphOrDefault());
  QUARRY_TRY(ExpectKeyword(Keyword::kTo));
  QUARRY_ASSIGN_OR_RETURN(GraphOrDefault to, ParseGraphOrDefault());
  if (keyword == Keyword::kAdd) return UpdateOperation(Add{silent, std::move(from), std::move(to)});
  if (keyword == Keyword::kMove) {
    return UpdateOperation(Move{silent, std::move(from), std::move(to)});
  }
  return UpdateOperation(Copy{silent, std::move(from), std::move(to)});
}

// [38] InsertData ::= 'INSERT DATA' QuadData
// [43] InsertClause ::= 'INSERT' QuadPattern
// Tracker: 'INSERT' ( 'OR' 'REPLACE' )? 'SILENT'? ( 'DATA' QuadData | QuadPattern ... )
Result<UpdateOperation> Parser::ParseInsert() {
  const size_t offset = current_.offset;
  const bool stream = std::exchange(may_stream_data_, false);
  Advance();
  bool or_replace = false;
  if (AtKeyword(Keyword::kOr)) {
    QUARRY_TRY(CheckExtension(offset, "INSERT OR REPLACE"));
    Advance();
    if (current_.kind != TokenKind::kWord ||
        current_.builtin != static_cast<uint8_t>(Builtin::kReplace)) {
      return ErrorExpected("REPLACE after INSERT OR");
    }
    Advance();
    or_replace = true;
  }
  bool silent = false;
  if (AtKeyword(Keyword::kSilent)) {
    QUARRY_TRY(CheckExtension(offset, "INSERT SILENT"));
    Advance();
    silent = true;
  }
  if (AcceptKeyword(Keyword::kData)) {
    if (stream) {
      return StreamQuadData({true, or_replace, silent, offset}, DataRules(true, "INSERT DATA"));
    }
    QUARRY_ASSIGN_OR_RETURN(Quads quads, ParseQuadBlock(DataRules(true, "INSERT DATA")));
    return UpdateOperation(InsertData{std::move(quads), or_replace, silent});
  }
  Modify modify;
  modify.or_replace = or_replace;
  modify.silent = silent;
  QUARRY_ASSIGN_OR_RETURN(modify.insert_quads,
                          ParseQuadBlock(TemplateRules(true, "an INSERT template")));
  return ParseModify(std::move(modify));
}

// [39] DeleteData ::= 'DELETE DATA' QuadData
// [40] DeleteWhere ::= 'DELETE WHERE' QuadPattern
// [42] DeleteClause ::= 'DELETE' QuadPattern
Result<UpdateOperation> Parser::ParseDelete() {
  const size_t offset = current_.offset;
  const bool stream = std::exchange(may_stream_data_, false);
  Advance();
  if (AcceptKeyword(Keyword::kData)) {
    if (stream) return StreamQuadData({false, false, false, offset}, DataRules(false, "DELETE DATA"));
    QUARRY_ASSIGN_OR_RETURN(Quads quads, ParseQuadBlock(DataRules(false, "DELETE DATA")));
    return UpdateOperation(DeleteData{std::move(quads)});
  }
  if (AcceptKeyword(Keyword::kWhere)) {
    QUARRY_ASSIGN_OR_RETURN(Quads quads, ParseQuadBlock(TemplateRules(false, "DELETE WHERE")));
    return UpdateOperation(DeleteWhere{std::move(quads)});
  }
  Modify modify;
  QUARRY_ASSIGN_OR_RETURN(modify.delete_quads,
                          ParseQuadBlock(TemplateRules(false, "a DELETE template")));
  return ParseModify(std::move(modify));
}

// [41] Modify ::= ( 'WITH' iri )? ( DeleteClause InsertClause? | InsertClause ) UsingClause*
//      'WHERE' GroupGraphPattern
// Called after the WITH and DELETE clauses; parses the INSERT clause if it is still ahead.
// [44] UsingClause ::= 'USING' ( iri | 'NAMED' iri )
Result<UpdateOperation> Parser::ParseModify(Modify modify) {
  if (!modify.insert_quads && AtKeyword(Keyword::kInsert)) {
    QUARRY_ASSIGN_OR_RETURN(UpdateOperation insert, ParseInsert());
    Modify* inserted = std::get_if<Modify>(&insert);
    if (inserted == nullptr) return ErrorAt(previous_end_, "INSERT DATA cannot follow DELETE");
    inserted->with_iri = std::move(modify.with_iri);
    inserted->delete_quads = std::move(modify.delete_quads);
    return insert;
  }
  while (AcceptKeyword(Keyword::kUsing)) {
    DatasetClause clause;
    clause.named = AcceptKeyword(Keyword::kNamed);
    QUARRY_ASSIGN_OR_RETURN(clause.iri, ParseIri());
    modify.using_clauses.push_back(std::move(clause));
  }
  if (AtKeyword(Keyword::kWhere)) {
    QUARRY_ASSIGN_OR_RETURN(modify.where, ParseWhereClause());
  } else if (strict() || !modify.using_clauses.empty()) {
    return ErrorExpected("WHERE");
  } else {
    modify.has_where = false;  // Tracker: INSERT { ... } alone runs once
  }
  return UpdateOperation(std::move(modify));
}

// [45] GraphOrDefault ::= 'DEFAULT' | 'GRAPH'? iri
Result<GraphOrDefault> Parser::ParseGraphOrDefault() {
  GraphOrDefault graph;
  if (AcceptKeyword(Keyword::kDefault)) return graph;
  AcceptKeyword(Keyword::kGraph);
  graph.is_default = false;
  QUARRY_ASSIGN_OR_RETURN(graph.iri, ParseIri());
  return graph;
}

// [46] GraphRef ::= 'GRAPH' iri
Result<std::string> Parser::ParseGraphRef() {
  QUARRY_TRY(ExpectKeyword(Keyword::kGraph));
  return ParseIri();
}

// [47] GraphRefAll ::= GraphRef | 'DEFAULT' | 'NAMED' | 'ALL'
Result<GraphRef> Parser::ParseGraphRefAll() {
  GraphRef ref;
  if (AcceptKeyword(Keyword::kDefault)) {
    ref.kind = GraphRef::Kind::kDefault;
  } else if (AcceptKeyword(Keyword::kNamed)) {
    ref.kind = GraphRef::Kind::kNamed;
  } else if (AcceptKeyword(Keyword::kAll)) {
    ref.kind = GraphRef::Kind::kAll;
  } else if (AtKeyword(Keyword::kGraph)) {
    QUARRY_ASSIGN_OR_RETURN(ref.iri, ParseGraphRef());
  } else {
    return ErrorExpected("GRAPH, DEFAULT, NAMED or ALL");
  }
  return ref;
}

// [48] QuadPattern ::= '{' Quads '}'   [49] QuadData ::= '{' Quads '}'
Result<Quads> Parser::ParseQuadBlock(const TripleRules& rules) {
  ScopedValue<TripleRules> scoped(rules_, rules);
  QUARRY_TRY(Expect(TokenKind::kLBrace));
  Quads quads;
  QUARRY_TRY(ParseQuads(quads));
  QUARRY_TRY(Expect(TokenKind::kRBrace));
  return quads;
}

// A bulk INSERT DATA (tens of MB) would otherwise grow its vector by doubling, writing every
// triple two or three times into fresh memory; reserving from the bytes left avoids that. The
// estimate errs high (real data runs 40+ bytes per triple): unused capacity is never touched.
void Parser::ReserveForBulkData(std::vector<TriplePattern>& triples) const {
  constexpr size_t kBulkBytes = 64 * 1024;
  constexpr size_t kMinBytesPerTriple = 32;
  const size_t remaining = source_.size() - std::min(current_.offset, source_.size());
  if (rules_.variables || data_sink_ || remaining < kBulkBytes) return;
  triples.reserve(triples.size() + remaining / kMinBytesPerTriple);
}

// [50] Quads ::= TriplesTemplate? ( QuadsNotTriples '.'? TriplesTemplate? )*
// [51] QuadsNotTriples ::= 'GRAPH' VarOrIri '{' TriplesTemplate? '}'
Result<void> Parser::ParseQuads(Quads& quads) {
  while (true) {
    if (AtTriplesStart()) {
      if (quads.empty() || quads.back().graph) quads.emplace_back();
      ReserveForBulkData(quads.back().triples);
      QUARRY_TRY(ParseTriplesTemplate(quads.back().triples));
    }
    if (At(TokenKind::kRBrace)) return Ok();
    if (!AtKeyword(Keyword::kGraph)) {
      if (AtTriplesStart()) return ErrorExpected("'.' or '}'");
      return ErrorExpected("triples, GRAPH or '}'");
    }
    Advance();
    QuadsBlock block;
    QUARRY_ASSIGN_OR_RETURN(block.graph, ParseVarOrIri());
    QUARRY_TRY(Expect(TokenKind::kLBrace));
    {
      ScopedValue<const Term*> graph(data_graph_, &*block.graph);
      if (AtTriplesStart()) {
        QUARRY_TRY(ParseTriplesTemplate(block.triples));
      } else if (data_sink_) {  // an empty GRAPH block still names (and creates) its graph
        QUARRY_TRY(EmitDataTriples(block.triples, current_.offset));
      }
    }
    QUARRY_TRY(Expect(TokenKind::kRBrace));
    if (!data_sink_) quads.push_back(std::move(block));
    Accept(TokenKind::kDot);
  }
}

}  // namespace quarry::sparql
