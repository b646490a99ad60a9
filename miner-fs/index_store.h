// IndexStore: what miner-fs needs from the store — the known children of a batch of folders
// (one query through the indexed nfo:belongsToContainer; for a crawl's comparison without the
// files' IRIs), one resource by URL, and a list of
// updates applied in one transaction (BatchSparqlUpdate with source=miner on the bus).
// ConnectionIndexStore implements it over a quarry::Connection: Bus() in the daemon, Open()
// (embedded) in tests that need no bus.
// Thread-safety: one thread at a time (the Connection's rule).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "miner-fs/folder_diff.h"
#include "quarry/connection.h"
#include "quarry/result.h"

namespace quarry::miner {

class IndexStore {
 public:
  virtual ~IndexStore() = default;
  // The known children of each folder in one query (every requested IRI is in the result).
  virtual Result<std::unordered_map<std::string, KnownChildren>> Children(
      const std::vector<std::string>& folder_iris) = 0;
  // The same for a crawl's comparison: folders keep their IRIs, files may come back without
  // (an empty KnownChild::iri; Children() of the folder gives it when a change needs it), which
  // spares the store a look-up of the IRI for every file of a no-change restart.
  virtual Result<std::unordered_map<std::string, KnownChildren>> ChildrenToCompare(
      const std::vector<std::string>& folder_iris) {
    return Children(folder_iris);
  }
  virtual Result<std::optional<KnownChild>> Lookup(const std::string& uri) = 0;
  virtual Result<void> Apply(const std::vector<std::string>& updates) = 0;
  // One cheap round trip: Ok when the store answers (the miner's retry while it is away).
  virtual Result<void> Ping() = 0;
};

class ConnectionIndexStore final : public IndexStore {
 public:
  // `connection` must outlive this; its update source is set to "miner".
  explicit ConnectionIndexStore(Connection& connection);
  Result<std::unordered_map<std::string, KnownChildren>> Children(
      const std::vector<std::string>& folder_iris) override;
  // Files without their IRI (the store's query projects it for folders only).
  Result<std::unordered_map<std::string, KnownChildren>> ChildrenToCompare(
      const std::vector<std::string>& folder_iris) override;
  Result<std::optional<KnownChild>> Lookup(const std::string& uri) override;
  Result<void> Apply(const std::vector<std::string>& updates) override;
  Result<void> Ping() override;

 private:
  Result<std::unordered_map<std::string, KnownChildren>> Ask(const std::vector<std::string>& folder_iris,
                                                             bool file_iris);

  // The children queries, prepared once per (slot count, file_iris) (KnownChildrenQuery).
  Result<Statement*> ChildrenStatement(size_t slots, bool file_iris);

  Connection& connection_;
  std::map<std::pair<size_t, bool>, Statement> statements_;
};

}  // namespace quarry::miner
