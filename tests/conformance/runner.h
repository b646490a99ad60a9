// The W3C SPARQL 1.1 / 1.0 evaluation tests (query and update) run against open-mode stores.
// Tests are read from the manifests with tests/store/sparql/manifest.h; each test gets a fresh
// store in a scratch folder, loads its data through the importer, runs, and compares with the
// expected result (compare.h).
// Thread-safety: one runner per thread.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace quarry::conformance {

struct TestCase {
  enum class Kind { kQuery, kUpdate };
  Kind kind = Kind::kQuery;
  std::string id;               // the entry's IRI
  std::string name;             // mf:name
  std::string category;         // folder relative to the suite root, e.g. "sparql11/aggregates"
  std::filesystem::path query;  // qt:query or ut:request
  std::vector<std::filesystem::path> data;                                // default graph
  std::vector<std::pair<std::string, std::filesystem::path>> graph_data;  // name → file
  std::filesystem::path result;                    // query tests: the expected result file
  std::vector<std::filesystem::path> result_data;  // update tests
  std::vector<std::pair<std::string, std::filesystem::path>> result_graph_data;  // update tests
  std::string skip_reason;  // set when the test is not run
};

struct Outcome {
  enum class Status { kPass, kFail, kSkip };
  Status status = Status::kFail;
  std::string reason;  // why it failed or was skipped
};

// Every evaluation test of the entry manifests under `suite_root` (mf:include followed).
std::vector<TestCase> CollectTests(const std::filesystem::path& suite_root);
// Runs one test in a fresh store under `scratch` (emptied first).
Outcome RunTest(const TestCase& test, const std::filesystem::path& scratch);

}  // namespace quarry::conformance
