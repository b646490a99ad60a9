// A TripleWriter, its UpdateExecutor and an open IMMEDIATE transaction on a TestStore: for tests
// that execute parsed updates themselves and choose when the writer flushes and when to commit.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "store/engine/sqlite/transaction.h"
#include "store/engine/triple_writer.h"
#include "store/engine/update_executor.h"
#include "store/sparql/parser.h"
#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {

class WriterSession {
 public:
  explicit WriterSession(TestStore& store)
      : writer_(store->database(), store->ontology()),
        executor_(store->database(), store->ontology(), writer_),
        transaction_(engine::Transaction::Begin(store->database(),
                                                engine::TransactionMode::kImmediate)) {
    INFO((transaction_ ? std::string() : transaction_.error().ToString()));
    REQUIRE(transaction_.ok());
  }

  // Parses `text` and executes it in the open transaction; both must succeed.
  void Execute(const std::string& text, const sparql::ParseOptions& options = {}) {
    auto update = sparql::ParseUpdate(text, options);
    INFO(text.substr(0, 200));
    INFO((update ? std::string() : update.error().ToString()));
    REQUIRE(update.ok());
    auto done = executor_.Execute(*update);
    INFO((done ? std::string() : done.error().ToString()));
    REQUIRE(done.ok());
  }

  // Writes what the writer still buffers, then commits.
  void Commit() {
    auto finished = writer_.Finish();
    INFO((finished ? std::string() : finished.error().ToString()));
    REQUIRE(finished.ok());
    auto committed = transaction_->Commit();
    INFO((committed ? std::string() : committed.error().ToString()));
    REQUIRE(committed.ok());
  }

  engine::TripleWriter& writer() { return writer_; }

 private:
  engine::TripleWriter writer_;
  engine::UpdateExecutor executor_;
  Result<engine::Transaction> transaction_;
};

}  // namespace quarry::testing
