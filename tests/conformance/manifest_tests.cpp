// Reading the test entries of W3C manifests into TestCases.
#include <algorithm>

#include "tests/conformance/runner.h"
#include "tests/store/sparql/manifest.h"

namespace quarry::conformance {
namespace {

using sparql::testing::FileUriToPath;
using sparql::testing::ManifestGraph;

const std::string kRdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
const std::string kRdfs = "http://www.w3.org/2000/01/rdf-schema#";
const std::string kMf = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#";
const std::string kQt = "http://www.w3.org/2001/sw/DataAccess/tests/test-query#";
const std::string kUt = "http://www.w3.org/2009/sparql/tests/test-update#";
const std::string kDawgt = "http://www.w3.org/2001/sw/DataAccess/tests/test-dawg#";

std::vector<std::filesystem::path> Paths(const ManifestGraph& graph, const std::string& subject,
                                         const std::string& predicate) {
  std::vector<std::filesystem::path> paths;
  for (const std::string& uri : graph.Objects(subject, predicate))
    paths.push_back(FileUriToPath(uri));
  return paths;
}

// ut:graphData [ ut:graph <file> ; rdfs:label "name" ].
std::vector<std::pair<std::string, std::filesystem::path>> NamedGraphs(const ManifestGraph& graph,
                                                                       const std::string& node) {
  std::vector<std::pair<std::string, std::filesystem::path>> graphs;
  for (const std::string& entry : graph.Objects(node, kUt + "graphData")) {
    const std::string file = graph.Object(entry, kUt + "graph");
    std::string name = graph.Object(entry, kRdfs + "label");
    if (name.empty()) name = file;
    graphs.emplace_back(name, FileUriToPath(file));
  }
  return graphs;
}

TestCase ReadEntry(const ManifestGraph& graph, const std::string& entry,
                   const std::string& category) {
  TestCase test;
  test.id = entry;
  test.name = graph.Object(entry, kMf + "name");
  test.category = category;
  const std::string type = graph.Object(entry, kRdf + "type");
  const std::string action = graph.Object(entry, kMf + "action");
  const std::string result = graph.Object(entry, kMf + "result");
  if (type == kUt + "UpdateEvaluationTest" || type == kMf + "UpdateEvaluationTest") {
    test.kind = TestCase::Kind::kUpdate;
    test.query = FileUriToPath(graph.Object(action, kUt + "request"));
    test.data = Paths(graph, action, kUt + "data");
    test.graph_data = NamedGraphs(graph, action);
    test.result_data = Paths(graph, result, kUt + "data");
    test.result_graph_data = NamedGraphs(graph, result);
  } else {
    test.query = FileUriToPath(graph.Object(action, kQt + "query"));
    test.data = Paths(graph, action, kQt + "data");
    for (const std::string& uri : graph.Objects(action, kQt + "graphData")) {
      test.graph_data.emplace_back(uri, FileUriToPath(uri));
    }
    test.result = FileUriToPath(result);
  }
  if (const std::string required = graph.Object(entry, kMf + "requires"); !required.empty()) {
    test.skip_reason = "requires " + required;
  }
  if (graph.Object(entry, kDawgt + "approval") == kDawgt + "Withdrawn") {
    test.skip_reason = "withdrawn by the W3C";
  }
  return test;
}

bool IsEvaluation(const std::string& type) {
  return type == kMf + "QueryEvaluationTest" || type == kMf + "UpdateEvaluationTest" ||
         type == kUt + "UpdateEvaluationTest";
}

void CollectManifest(const std::filesystem::path& manifest, const std::filesystem::path& root,
                     std::vector<TestCase>& tests) {
  ManifestGraph graph;
  std::string error;
  if (!graph.Load(manifest.string(), error)) {
    TestCase broken;
    broken.id = manifest.string();
    broken.category = std::filesystem::relative(manifest.parent_path(), root).string();
    broken.skip_reason = error;
    tests.push_back(std::move(broken));
    return;
  }
  const std::string self = "file://" + manifest.string();
  for (const std::string& include : graph.List(graph.Object(self, kMf + "include"))) {
    CollectManifest(FileUriToPath(include), root, tests);
  }
  const std::string category = std::filesystem::relative(manifest.parent_path(), root).string();
  for (const std::string& entry : graph.List(graph.Object(self, kMf + "entries"))) {
    if (IsEvaluation(graph.Object(entry, kRdf + "type"))) {
      tests.push_back(ReadEntry(graph, entry, category));
    }
  }
}

}  // namespace

std::vector<TestCase> CollectTests(const std::filesystem::path& suite_root) {
  const std::filesystem::path root = std::filesystem::absolute(suite_root);
  std::vector<TestCase> tests;
  for (const char* entry :
       {"sparql10/manifest-evaluation.ttl", "sparql11/manifest-sparql11-query.ttl",
        "sparql11/manifest-sparql11-update.ttl"}) {
    if (std::filesystem::exists(root / entry)) CollectManifest(root / entry, root, tests);
  }
  return tests;
}

}  // namespace quarry::conformance
