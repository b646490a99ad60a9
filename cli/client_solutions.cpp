#include "cli/client_solutions.h"

#include "store/ipc/graph_stream.h"

namespace quarry::cli {

std::optional<schema::RdfTerm> ClientSolutions::GetTerm(int column) {
  // quarry::ValueKind and engine::ValueKind share the stream numbering (cursor.h).
  return ipc::TermOfStreamValue(static_cast<engine::ValueKind>(cursor_.Kind(column)),
                                cursor_.GetString(column), cursor_.GetLanguage(column));
}

}  // namespace quarry::cli
