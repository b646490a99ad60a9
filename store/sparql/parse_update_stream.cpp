// Streaming update parsing (parser.h, ParseUpdateStream): the grammar of parse_update.cpp, with
// the triples of a top-level INSERT DATA / DELETE DATA handed to an UpdateSink statement by
// statement instead of being collected into the operation's AST.
#include "store/sparql/parser_impl.h"

namespace quarry::sparql {

Result<void> Parser::ParseUpdateStreamUnit(UpdateSink& sink) {
  sink_ = &sink;
  Update unused;  // every operation goes to the sink
  QUARRY_TRY(ParseUpdateRequest(unused));
  if (!At(TokenKind::kEnd)) return ErrorExpected("';' or end of update");
  return Ok();
}

// [38] InsertData ::= 'INSERT DATA' QuadData   [39] DeleteData ::= 'DELETE DATA' QuadData
// Called after the DATA keyword; the operation returned is empty (its triples went to the sink).
Result<UpdateOperation> Parser::StreamQuadData(const DataOperation& operation,
                                               const TripleRules& rules) {
  QUARRY_TRY(sink_->OnDataBegin(operation));
  {
    ScopedValue<UpdateSink*> streaming(data_sink_, sink_);
    QUARRY_TRY(ParseQuadBlock(rules));
  }
  QUARRY_TRY(sink_->OnDataEnd());
  streamed_ = true;
  if (operation.insert) return UpdateOperation(InsertData{{}, operation.or_replace, operation.silent});
  return UpdateOperation(DeleteData{});
}

Result<void> Parser::EmitDataTriples(std::vector<TriplePattern>& triples, size_t offset) {
  auto emitted = data_sink_->OnDataTriples(data_graph_, triples, offset);
  triples.clear();
  return emitted;
}

Result<void> ParseUpdateStream(std::string_view text, const ParseOptions& options,
                               UpdateSink& sink) {
  Parser parser(text, options);
  return parser.ParseUpdateStreamUnit(sink);
}

}  // namespace quarry::sparql
