// Full-text search (issue 3): `?r fts:match "search"` joins the FTS5 table (SCHEMA.md "Full
// text") by rowid = resource ID, with the search translated by search_syntax.h; fts:rank,
// fts:snippet and fts:offsets read that join's row. A search written in the query is
// translated (and its errors reported) at compile time; a ~parameter or a variable goes
// through quarry_fts_query() when the query runs.
#include <fmt/format.h>

#include "store/schema/fts.h"
#include "store/sparql/translate/builtin_helpers.h"
#include "store/sparql/translate/search_syntax.h"

namespace quarry::sparql::translate {
namespace {

constexpr std::string_view kFtsNs = "http://tracker.api.gnome.org/ontology/v3/fts#";

// fts:snippet's defaults: no highlighting, Tracker's ellipsis, a dozen words of context.
constexpr std::string_view kSnippetEllipsis = "…";
constexpr int kSnippetTokens = 12;

}  // namespace

bool Translator::IsFtsMatch(const TriplePattern& triple) {
  const Term* predicate = std::get_if<Term>(&triple.predicate);
  const Iri* iri = predicate ? std::get_if<Iri>(predicate) : nullptr;
  return iri && iri->iri == std::string(kFtsNs) + "match";
}

Result<void> Translator::AddFtsMatch(Fragment& fragment, const TriplePattern& triple) {
  if (schema::FulltextProperties(ontology_).empty()) {
    return Error(Errc::kUnsupported, "fts:match: the ontology has no nrl:fulltextIndexed property");
  }
  std::string search;
  if (const auto* literal = std::get_if<Literal>(&triple.object)) {
    auto expression = SearchToFts5(literal->lexical);
    if (!expression) return std::move(expression.error()).WithContext("fts:match");
    search = BindValue(*expression);
  } else if (const auto* parameter = std::get_if<Parameter>(&triple.object)) {
    search = fmt::format("quarry_fts_query({})",
                         BindParameter(parameter->name, false, ontology::ValueType::kString));
  } else if (const auto found = fragment.vars.find(VariableKey(triple.object));
             found != fragment.vars.end()) {
    search = fmt::format("quarry_fts_query({})", TextOf(TermValue(found->second)));
  } else {
    return Error(Errc::kParse,
                 "fts:match needs a search text: a string, a ~parameter, or a "
                 "variable bound earlier in the group");
  }
  if (std::holds_alternative<Literal>(triple.subject)) {
    fragment.conditions.push_back("0");  // a literal is never a resource with text
    return Ok();
  }
  bool is_new = false;
  const std::string alias =
      AliasFor(fragment, triple.subject, std::string(schema::kFtsTable), &is_new);
  if (!is_new) {
    return Unsupported("two fts:match patterns on one resource (write both searches in one)");
  }
  fragment.conditions.push_back(
      fmt::format("{}.{} MATCH {}", alias, schema::Quote(schema::kFtsTable), search));
  return BindTerm(fragment, triple.subject, alias + ".rowid", Kind::kResource,
                  ontology::ValueType::kResource);
}

Result<SqlExpr> Translator::FtsFunction(const FunctionCall& call, const Fragment& scope) {
  const std::string name = call.iri.substr(kFtsNs.size());
  if (name != "rank" && name != "snippet" && name != "offsets") {
    return Unsupported(fmt::format("the function fts:{}", name));
  }
  const Term* subject = call.args.empty() ? nullptr : std::get_if<Term>(&call.args[0].node);
  const auto tables =
      subject ? scope.subject_tables.find(SubjectKey(*subject)) : scope.subject_tables.end();
  const auto alias = tables != scope.subject_tables.end()
                         ? tables->second.find(std::string(schema::kFtsTable))
                         : std::map<std::string, std::string>::const_iterator();
  if (tables == scope.subject_tables.end() || alias == tables->second.end()) {
    return Error(Errc::kParse,
                 fmt::format("fts:{}(?r) needs a `?r fts:match \"…\"` pattern for its "
                             "argument in the same group",
                             name));
  }
  const std::string column = fmt::format("{}.{}", alias->second, schema::Quote(schema::kFtsTable));
  if (name == "rank") {
    if (call.args.size() != 1) return Error(Errc::kParse, "fts:rank takes one argument");
    // FTS5's rank is bm25, smaller = better; fts:rank grows with relevance, as in Tracker
    // (ORDER BY DESC(fts:rank(?r))).
    return Double(fmt::format("(- {}.rank)", alias->second));
  }
  if (name == "offsets") {
    if (call.args.size() != 1) return Error(Errc::kParse, "fts:offsets takes one argument");
    std::string names;
    for (const ontology::Property* property : schema::FulltextProperties(ontology_)) {
      names += ", " + BindValue(property->name);
    }
    return Text(fmt::format("quarry_offsets({}{})", column, names));
  }
  if (call.args.size() != 1 && call.args.size() != 3 && call.args.size() != 5) {
    return Error(Errc::kParse,
                 "fts:snippet takes (?r), (?r, start, end) or "
                 "(?r, start, end, ellipsis, n_tokens)");
  }
  std::vector<std::string> options = {BindValue(std::string()), BindValue(std::string()),
                                      BindValue(std::string(kSnippetEllipsis)),
                                      std::to_string(kSnippetTokens)};
  for (size_t i = 1; i < call.args.size(); ++i) {
    QUARRY_ASSIGN_OR_RETURN(const SqlExpr value, Expression(call.args[i], scope));
    options[i - 1] = i == 4 ? fmt::format("max(1, min(64, {}))", value.sql) : TextOf(value);
  }
  return Text(fmt::format("snippet({}, -1, {}, {}, {}, {})", column, options[0], options[1],
                          options[2], options[3]));
}

}  // namespace quarry::sparql::translate
