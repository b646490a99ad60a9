// Functions named by IRI: XSD casts (§17.5) and Tracker's extensions tracker:id, tracker:uri,
// tracker:coalesce, tracker:case-folding, tracker:normalize, tracker:unaccent,
// tracker:string-from-filename, tracker:uri-is-parent, tracker:uri-is-descendant.
#include <fmt/format.h>

#include <array>

#include "store/sparql/translate/builtin_helpers.h"

namespace quarry::sparql::translate {
namespace {

constexpr std::string_view kTrackerNs = "http://tracker.api.gnome.org/ontology/v3/tracker#";

Error Arity(std::string_view name, std::string_view expected) {
  return Error(Errc::kParse, fmt::format("{} takes {}", name, expected));
}

// xsd:T(value): a value already of that type passes; others are converted by quarry_cast,
// which returns NULL (a type error) for a lexical form that is not valid for T.
Result<SqlExpr> Cast(const FunctionCall& call, ValueType type, const std::vector<SqlExpr>& args) {
  if (args.size() != 1) return Arity("the cast <" + call.iri + ">", "one argument");
  const SqlExpr& arg = args[0];
  if (type == ValueType::kString && !arg.term_id.empty() && !arg.is_aggregate) {
    return Text(TermStringSql(arg.term_id));
  }
  if (type == ValueType::kString) return Text(IsIriText(arg) ? arg.sql : Translator::TextOf(arg));
  if (IsIriLike(arg)) return TypeError(type);
  if (HasType(arg, type)) return arg;
  // A stored date or dateTime converts only to its own kind of date (through its lexical form).
  const bool is_date = HasType(arg, ValueType::kDateTime) || HasType(arg, ValueType::kDate);
  const bool to_date = type == ValueType::kDateTime || type == ValueType::kDate;
  if (is_date && !to_date) return TypeError(type);
  const std::string value = is_date ? Translator::TextOf(arg) : arg.sql;
  return SqlExpr{fmt::format("quarry_cast({}, {})", value, static_cast<int>(type)), Kind::kLiteral,
                 type};
}

bool IsNormalizationForm(std::string_view form) {
  std::string lower;
  for (const char c : form) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "nfc" || lower == "nfd" || lower == "nfkc" || lower == "nfkd";
}

constexpr std::array<std::string_view, 9> kTrackerFunctions = {
    "id",           "uri",           "coalesce",
    "case-folding", "unaccent",      "string-from-filename",
    "normalize",    "uri-is-parent", "uri-is-descendant"};

Result<SqlExpr> Tracker(const FunctionCall& call, std::string_view name,
                        const std::vector<SqlExpr>& args) {
  const std::string shown = "tracker:" + std::string(name);
  const auto one_string = [&](std::string_view function) -> Result<SqlExpr> {
    if (args.size() != 1) return Arity(shown, "one argument");
    if (!MayBeString(args[0])) return TypeError(ValueType::kString);
    return Text(fmt::format("{}({})", function, args[0].sql));
  };
  if (name == "id" || name == "uri") {
    if (args.size() != 1) return Arity(shown, "one argument");
    if (name == "id") return Integer(args[0].sql);
    return SqlExpr{args[0].sql, Kind::kResource, ValueType::kResource};
  }
  if (name == "coalesce") return CoalesceOf(args);
  if (name == "case-folding") return one_string("quarry_case_folding");
  if (name == "unaccent") return one_string("quarry_unaccent");
  if (name == "string-from-filename") return one_string("quarry_string_from_filename");
  if (name == "normalize") {
    if (args.size() != 2)
      return Arity(shown, "a string and a form (\"nfc\", \"nfd\", \"nfkc\", \"nfkd\")");
    const Literal* form = ConstantLiteral(call.args[1]);
    if (form && !IsNormalizationForm(form->lexical)) {
      return Error(Errc::kParse, fmt::format("tracker:normalize: unknown form \"{}\" (nfc, nfd, "
                                             "nfkc or nfkd)",
                                             form->lexical));
    }
    if (!MayBeString(args[0])) return TypeError(ValueType::kString);
    return Text(fmt::format("quarry_normalize({}, {})", args[0].sql, args[1].sql));
  }
  if (name == "uri-is-parent" || name == "uri-is-descendant") {
    const bool parent = name == "uri-is-parent";
    if (parent ? args.size() != 2 : args.size() < 2) {
      return Arity(shown, parent ? "a parent and a uri" : "one or more parents and a uri");
    }
    std::string sql;
    for (const SqlExpr& arg : args) sql += (sql.empty() ? "" : ", ") + TextOrIri(arg);
    return Boolean(
        fmt::format("{}({})", parent ? "quarry_uri_is_parent" : "quarry_uri_is_descendant", sql));
  }
  return Error(Errc::kInternal, "unknown Tracker function " + shown);
}

Result<std::optional<SqlExpr>> Found(Result<SqlExpr> result) {
  if (!result) return std::move(result.error());
  return std::optional<SqlExpr>(std::move(*result));
}

}  // namespace

Result<std::optional<SqlExpr>> LibraryFunction(Translator&, const FunctionCall& call,
                                               const std::vector<SqlExpr>& args) {
  if (call.iri.rfind(kXsdNs, 0) == 0) {
    const std::optional<ValueType> type = ontology::DatatypeValueType(call.iri);
    if (type && *type != ValueType::kResource && *type != ValueType::kLangString) {
      return Found(Cast(call, *type, args));
    }
    return std::optional<SqlExpr>();
  }
  if (call.iri.rfind(kTrackerNs, 0) == 0) {
    const std::string_view name = std::string_view(call.iri).substr(kTrackerNs.size());
    for (const std::string_view known : kTrackerFunctions) {
      if (name == known) return Found(Tracker(call, name, args));
    }
  }
  return std::optional<SqlExpr>();
}

}  // namespace quarry::sparql::translate
