// The store's half of graph_stream.h: a CONSTRUCT/DESCRIBE answer written into the FD stream.
// Apart from graph_stream.cpp, whose pure functions (query form, prefixes, term <-> stream value)
// the bus client links without the engine (quarry_ipc_wire).
#include <array>

#include "store/ipc/graph_stream.h"
#include "store/ipc/row_encoder.h"

namespace quarry::ipc {

using engine::ValueKind;

Result<std::vector<std::string>> StepGraphIntoBlocks(engine::Store& store, const std::string& query,
                                                     int fd, OutgoingBlocks& blocks,
                                                     const engine::QueryParameters& parameters) {
  QUARRY_ASSIGN_OR_RETURN(const engine::TripleSet triples, store.QueryGraph(query, parameters));
  for (const engine::Triple& triple : triples.triples()) {
    const std::string subject = triple.subject.kind == schema::RdfTerm::Kind::kBlank
                                    ? "_:" + triple.subject.value
                                    : triple.subject.value;
    const std::string object = triple.object.kind == schema::RdfTerm::Kind::kBlank
                                   ? "_:" + triple.object.value
                                   : triple.object.value;
    const std::array<StreamValue, 3> row = {{
        {StreamKindOf(triple.subject), subject, {}},
        {ValueKind::kIri, triple.predicate, {}},
        {StreamKindOf(triple.object), object, triple.object.lang},
    }};
    AppendRow(row, blocks.tail());
    if (blocks.tail().size() < kStreamBlockSize) continue;
    blocks.SealFullBlocks();
    QUARRY_TRY(blocks.WriteAvailable(fd));
  }
  return kTripleColumns;
}

}  // namespace quarry::ipc
