// Golden tests: each tests/store/sparql/cases/NAME.rq (query) or NAME.ru (update) is parsed in
// Tracker mode with the test prefixes (parse_helpers.h) and its S-expression compared with
// NAME.ast; a case that must fail stores "ERROR\n<message>". QUARRY_UPDATE_GOLDEN=1 rewrites
// the .ast files (review the diff).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/store/sparql/parse_helpers.h"

namespace quarry::sparql {
namespace {

namespace fs = std::filesystem;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Render(const fs::path& path) {
  const std::string text = ReadText(path);
  const ParseOptions options = testing::TestOptions();
  if (path.extension() == ".ru") {
    Result<Update> update = ParseUpdate(text, options);
    return update ? ToSExpression(*update) : "ERROR\n" + update.error().message() + "\n";
  }
  Result<Query> query = ParseQuery(text, options);
  return query ? ToSExpression(*query) : "ERROR\n" + query.error().message() + "\n";
}

TEST_CASE("Golden S-expressions of tests/store/sparql/cases") {
  const fs::path dir = fs::path(QUARRY_TEST_DATA_DIR) / "store" / "sparql" / "cases";
  const bool update_golden = std::getenv("QUARRY_UPDATE_GOLDEN") != nullptr;
  int cases = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const fs::path& path = entry.path();
    if (path.extension() != ".rq" && path.extension() != ".ru") continue;
    ++cases;
    CAPTURE(path.filename().string());
    const std::string actual = Render(path);
    fs::path golden = path;
    golden.replace_extension(".ast");
    if (update_golden) {
      std::ofstream(golden, std::ios::binary) << actual;
      continue;
    }
    REQUIRE_MESSAGE(fs::exists(golden),
                    "missing " << golden << " (run with QUARRY_UPDATE_GOLDEN=1)");
    CHECK(actual == ReadText(golden));
  }
  CHECK(cases >= 20);
}

}  // namespace
}  // namespace quarry::sparql
