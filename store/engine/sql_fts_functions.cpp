// Full-text helpers: quarry_fts_query() turns a search typed by a person into an FTS5 MATCH
// expression when the search is only known at run time (a ~parameter or a variable; constant
// searches are translated by the compiler), and the FTS5 auxiliary function quarry_offsets()
// behind fts:offsets.
#include <fmt/format.h>

#include <map>
#include <vector>

#include "store/engine/sql_function_util.h"
#include "store/engine/sql_functions.h"
#include "store/sparql/translate/search_syntax.h"

namespace quarry::engine {
namespace {

void FtsQuery(sqlite3_context* context, int, sqlite3_value** args) {
  const auto search = sqlfn::AsString(args[0]);
  if (!search) return sqlite3_result_error(context, "fts:match needs a search text", -1);
  auto expression = sparql::SearchToFts5(search->text);
  if (!expression) return sqlite3_result_error(context, expression.error().message().c_str(), -1);
  sqlfn::ResultText(context, *expression);
}

int CollectTokenStart(void* starts, int flags, const char*, int, int start, int) {
  if (!(flags & FTS5_TOKEN_COLOCATED)) static_cast<std::vector<int>*>(starts)->push_back(start);
  return SQLITE_OK;
}

// quarry_offsets(fts, name_0, …, name_n): "name,byte_offset" for every matched token, comma
// separated, in the format of Tracker's fts:offsets ("nie:title,0,nie:title,12").
void Offsets(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* context, int argc,
             sqlite3_value** names) {
  int count = 0;
  if (api->xInstCount(fts, &count) != SQLITE_OK)
    return sqlite3_result_error(context, "fts:offsets failed", -1);
  std::map<int, std::vector<int>> token_starts;  // column → byte offset of each token
  std::string offsets;
  for (int i = 0; i < count; ++i) {
    int phrase = 0, column = 0, token = 0;
    if (api->xInst(fts, i, &phrase, &column, &token) != SQLITE_OK) continue;
    auto [starts, is_new] = token_starts.try_emplace(column);
    if (is_new) {
      const char* text = nullptr;
      int size = 0;
      if (api->xColumnText(fts, column, &text, &size) == SQLITE_OK && text) {
        api->xTokenize(fts, text, size, &starts->second, CollectTokenStart);
      }
    }
    const int byte = token < static_cast<int>(starts->second.size()) ? starts->second[token] : 0;
    const std::string name =
        column < argc ? std::string(sqlfn::ArgText(names[column])) : std::to_string(column);
    offsets += fmt::format("{}{},{}", offsets.empty() ? "" : ",", name, byte);
  }
  if (offsets.empty()) return sqlite3_result_null(context);
  sqlfn::ResultText(context, offsets);
}

fts5_api* FtsApi(sqlite3* db) {
  fts5_api* api = nullptr;
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, nullptr) != SQLITE_OK)
    return nullptr;
  sqlite3_bind_pointer(statement, 1, &api, "fts5_api_ptr", nullptr);
  sqlite3_step(statement);
  sqlite3_finalize(statement);
  return api;
}

}  // namespace

Result<void> RegisterFtsFunctions(sqlite3* db) {
  if (sqlite3_create_function_v2(db, "quarry_fts_query", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                 nullptr, FtsQuery, nullptr, nullptr, nullptr) != SQLITE_OK) {
    return Error(Errc::kInternal, "cannot register SQL function quarry_fts_query");
  }
  fts5_api* api = FtsApi(db);
  if (!api)
    return Error(Errc::kInternal, "this SQLite has no FTS5: full-text search is unavailable");
  if (api->xCreateFunction(api, "quarry_offsets", nullptr, Offsets, nullptr) != SQLITE_OK) {
    return Error(Errc::kInternal, "cannot register FTS5 function quarry_offsets");
  }
  return Ok();
}

}  // namespace quarry::engine
