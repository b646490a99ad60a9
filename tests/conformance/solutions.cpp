#include "tests/conformance/solutions.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "store/engine/rdf_io/rdf_reader.h"

namespace quarry::conformance {
namespace {

constexpr std::string_view kXsdString = "http://www.w3.org/2001/XMLSchema#string";
constexpr std::string_view kRs = "http://www.w3.org/2001/sw/DataAccess/tests/result-set#";
constexpr std::string_view kRdfType = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";

std::string Rs(std::string_view local) { return std::string(kRs) + std::string(local); }

RdfTerm JsonTerm(const nlohmann::json& value) {
  const std::string type = value.value("type", "");
  const std::string text = value.value("value", "");
  if (type == "uri") return RdfTerm::Iri(text);
  if (type == "bnode") return RdfTerm::Blank(text);
  return RdfTerm::Literal(text, value.value("datatype", ""), value.value("xml:lang", ""));
}

// The objects of (subject, predicate) in a graph.
std::vector<const RdfTerm*> ObjectsOf(const Graph& graph, const RdfTerm& subject,
                                      const std::string& predicate) {
  std::vector<const RdfTerm*> objects;
  for (const Quad& quad : graph) {
    if (quad.subject == subject && quad.predicate.value == predicate)
      objects.push_back(&quad.object);
  }
  return objects;
}

}  // namespace

RdfTerm Normalized(RdfTerm term) {
  if (term.kind != RdfTerm::Kind::kLiteral) return term;
  if (term.datatype == kXsdString) term.datatype.clear();
  if (!term.lang.empty()) {
    term.datatype.clear();
    std::transform(term.lang.begin(), term.lang.end(), term.lang.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  }
  return term;
}

Result<Solutions> ReadSrj(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return Error(Errc::kIo, fmt::format("cannot read {}", file.string()));
  const nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded()) return Error(Errc::kParse, fmt::format("{}: not JSON", file.string()));
  Solutions solutions;
  if (json.contains("boolean")) {
    solutions.boolean = json["boolean"].get<bool>();
    return solutions;
  }
  for (const auto& variable : json["head"].value("vars", nlohmann::json::array())) {
    solutions.variables.push_back(variable.get<std::string>());
  }
  for (const auto& binding : json["results"].value("bindings", nlohmann::json::array())) {
    Row row;
    for (const auto& [name, value] : binding.items()) row[name] = Normalized(JsonTerm(value));
    solutions.rows.push_back(std::move(row));
  }
  return solutions;
}

Result<Graph> ReadGraph(const std::filesystem::path& file, const std::string& graph_name) {
  QUARRY_ASSIGN_OR_RETURN(const engine::rdf_io::RdfSyntax syntax,
                          engine::rdf_io::SyntaxOfFile(file));
  Graph graph;
  QUARRY_TRY(
      engine::rdf_io::ReadRdfFile(file, syntax, [&](const engine::rdf_io::RdfStatement& statement) {
        graph.push_back({statement.graph.value_or(graph_name), Normalized(statement.subject),
                         RdfTerm::Iri(statement.predicate), Normalized(statement.object)});
        return Result<void>(Ok());
      }));
  return graph;
}

Result<Solutions> ResultSetOfGraph(const Graph& graph) {
  const Quad* set = nullptr;
  for (const Quad& quad : graph) {
    if (quad.predicate.value == kRdfType && quad.object.value == Rs("ResultSet")) set = &quad;
  }
  if (!set) return Error(Errc::kNotFound, "no rs:ResultSet in the graph");
  Solutions solutions;
  const RdfTerm& root = set->subject;
  for (const RdfTerm* value : ObjectsOf(graph, root, Rs("boolean"))) {
    solutions.boolean = value->value == "true" || value->value == "1";
  }
  for (const RdfTerm* variable : ObjectsOf(graph, root, Rs("resultVariable"))) {
    solutions.variables.push_back(variable->value);
  }
  std::vector<std::pair<long, Row>> indexed;
  for (const RdfTerm* solution : ObjectsOf(graph, root, Rs("solution"))) {
    Row row;
    for (const RdfTerm* binding : ObjectsOf(graph, *solution, Rs("binding"))) {
      const auto names = ObjectsOf(graph, *binding, Rs("variable"));
      const auto values = ObjectsOf(graph, *binding, Rs("value"));
      if (!names.empty() && !values.empty()) row[names[0]->value] = *values[0];
    }
    const auto index = ObjectsOf(graph, *solution, Rs("index"));
    indexed.emplace_back(index.empty() ? 0 : std::stol(index[0]->value), std::move(row));
  }
  std::stable_sort(indexed.begin(), indexed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [index, row] : indexed) solutions.rows.push_back(std::move(row));
  return solutions;
}

Result<Solutions> ReadExpectedSolutions(const std::filesystem::path& file) {
  const std::string extension = file.extension().string();
  if (extension == ".srx") return ReadSrx(file);
  if (extension == ".srj") return ReadSrj(file);
  if (extension == ".ttl" || extension == ".nt") {
    QUARRY_ASSIGN_OR_RETURN(const Graph graph, ReadGraph(file));
    return ResultSetOfGraph(graph);
  }
  return Error(
      Errc::kUnsupported,
      fmt::format("expected results in {} format cannot be read by the runner", extension));
}

}  // namespace quarry::conformance
