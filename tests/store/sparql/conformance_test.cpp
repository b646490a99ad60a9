// W3C SPARQL conformance: every syntax test of the shared test suites must be accepted or
// rejected as its manifest says, and every query/update of the evaluation tests must parse.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "store/sparql/parser.h"
#include "tests/store/sparql/manifest.h"

namespace quarry::sparql {
namespace {

namespace fs = std::filesystem;
using testing::FileUriToPath;
using testing::ManifestGraph;

const std::string kMf = "http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#";
const std::string kQt = "http://www.w3.org/2001/sw/DataAccess/tests/test-query#";
const std::string kUt = "http://www.w3.org/2009/sparql/tests/test-update#";
const std::string kRdfTypeIri = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";

// Tests the parser gets wrong on purpose, with the reason. Empty: all pass. The test below
// fails if a listed test starts passing, so this list stays exact.
const std::map<std::string, std::string> kKnownFailures = {};

struct Case {
  std::string name;  // path relative to the conformance folder
  std::string path;
  bool is_update = false;
  bool positive = true;
  bool syntax_test = false;  // a Positive/Negative*SyntaxTest, not an evaluation test
};

fs::path ConformanceDir() { return fs::canonical(fs::path(QUARRY_SHARED_DIR) / "conformance"); }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Reads one manifest's mf:entries (syntax and evaluation tests).
void CollectEntries(const fs::path& manifest, std::vector<Case>& out) {
  ManifestGraph graph;
  std::string error;
  REQUIRE_MESSAGE(graph.Load(manifest.string(), error), error);
  const std::string self = "file://" + manifest.string();
  for (const std::string& entry : graph.List(graph.Object(self, kMf + "entries"))) {
    const std::string type = graph.Object(entry, kRdfTypeIri);
    const std::string action = graph.Object(entry, kMf + "action");
    Case test;
    if (type == kMf + "QueryEvaluationTest") {
      test.path = FileUriToPath(graph.Object(action, kQt + "query"));
    } else if (type == kMf + "UpdateEvaluationTest") {
      test.path = FileUriToPath(graph.Object(action, kUt + "request"));
      test.is_update = true;
    } else if (type.find("SyntaxTest") != std::string::npos) {
      test.path = FileUriToPath(action);
      test.is_update = type.find("Update") != std::string::npos;
      test.positive = type.find("Positive") != std::string::npos;
      test.syntax_test = true;
    } else {
      continue;
    }
    REQUIRE_MESSAGE(!test.path.empty(), "no query file for " << entry);
    test.name = fs::relative(test.path, ConformanceDir()).string();
    out.push_back(std::move(test));
  }
}

// Follows mf:include from an entry manifest.
std::vector<Case> CollectSuite(const std::string& entry_manifest) {
  const fs::path path = ConformanceDir() / entry_manifest;
  ManifestGraph graph;
  std::string error;
  REQUIRE_MESSAGE(graph.Load(path.string(), error), error);
  const std::string self = "file://" + path.string();
  std::vector<Case> cases;
  const auto includes = graph.List(graph.Object(self, kMf + "include"));
  REQUIRE(!includes.empty());
  for (const std::string& include : includes) CollectEntries(FileUriToPath(include), cases);
  return cases;
}

Result<void> ParseFile(const Case& test, bool strict) {
  const std::string text = ReadFile(test.path);
  ParseOptions options;
  options.base_iri = "file://" + test.path;
  options.strict = strict;
  if (test.is_update) {
    auto update = ParseUpdate(text, options);
    if (!update) return std::move(update).error();
    return Ok();
  }
  auto query = ParseQuery(text, options);
  if (!query) return std::move(query).error();
  return Ok();
}

struct Tally {
  int positive_passed = 0;
  int positive_total = 0;
  int negative_passed = 0;
  int negative_total = 0;
  int known_failures = 0;
};

// Runs the cases; strict parsing decides pass/fail, Tracker mode must accept every positive.
Tally RunCases(const std::vector<Case>& cases) {
  Tally tally;
  for (const Case& test : cases) {
    const Result<void> strict_result = ParseFile(test, /*strict=*/true);
    const bool passed = strict_result.ok() == test.positive;
    (test.positive ? tally.positive_total : tally.negative_total)++;
    if (passed) (test.positive ? tally.positive_passed : tally.negative_passed)++;
    const bool known = kKnownFailures.count(test.name) > 0;
    if (known) {
      ++tally.known_failures;
      CHECK_MESSAGE(!passed, test.name << " is listed as a known failure but passes now");
    } else if (!passed) {
      FAIL_CHECK(test.name << (test.positive ? " should parse: " + strict_result.error().message()
                                             : std::string(" should be rejected")));
    }
    if (test.positive && passed) {
      const Result<void> tracker_result = ParseFile(test, /*strict=*/false);
      CHECK_MESSAGE(tracker_result.ok(),
                    test.name << " fails in Tracker mode: "
                              << (tracker_result.ok() ? "" : tracker_result.error().message()));
    }
  }
  return tally;
}

std::vector<Case> OnlySyntax(std::vector<Case> cases, bool syntax) {
  std::vector<Case> selected;
  for (Case& test : cases) {
    if (test.syntax_test == syntax) selected.push_back(std::move(test));
  }
  return selected;
}

TEST_CASE("W3C SPARQL 1.1 syntax tests pass (syntax-query and syntax-update-1/2)") {
  std::vector<Case> cases;
  for (const char* folder : {"syntax-query", "syntax-update-1", "syntax-update-2"}) {
    CollectEntries(ConformanceDir() / "sparql11" / folder / "manifest.ttl", cases);
  }
  const Tally tally = RunCases(cases);
  MESSAGE("syntax: positive " << tally.positive_passed << "/" << tally.positive_total
                              << ", negative " << tally.negative_passed << "/"
                              << tally.negative_total << ", known failures "
                              << tally.known_failures);
  CHECK(tally.positive_total + tally.negative_total == 149);
}

TEST_CASE("every query and update of the W3C evaluation tests parses") {
  std::vector<Case> cases = OnlySyntax(CollectSuite("sparql11/manifest-sparql11-query.ttl"), false);
  for (Case& test : OnlySyntax(CollectSuite("sparql11/manifest-sparql11-update.ttl"), false)) {
    cases.push_back(std::move(test));
  }
  for (Case& test : CollectSuite("sparql10/manifest-evaluation.ttl")) {
    cases.push_back(std::move(test));
  }
  const Tally tally = RunCases(cases);
  MESSAGE("evaluation files: " << tally.positive_passed << "/" << tally.positive_total
                               << " parse, known failures " << tally.known_failures);
  CHECK(tally.positive_total == 596);
  CHECK(tally.negative_total == 0);
}

}  // namespace
}  // namespace quarry::sparql
