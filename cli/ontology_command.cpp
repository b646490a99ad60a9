// quarry ontology: what the database follows — classes, properties with their annotations, and
// the SQL indexes that exist in the database (nrl:indexed and domain indexes named as such).
#include <fmt/format.h>

#include <iostream>
#include <map>

#include "cli/commands.h"
#include "cli/text_table.h"
#include "store/schema/names.h"

namespace quarry::cli {
namespace {

std::string Join(const std::vector<std::string>& parts) {
  std::string joined;
  for (const std::string& part : parts) joined += (joined.empty() ? "" : ", ") + part;
  return joined;
}

void PrintClasses(const ontology::Ontology& ontology, std::ostream& out) {
  TextTable table({"class", "super classes", "flags", "domain indexes"});
  for (const ontology::Class& cls : ontology.classes()) {
    std::vector<std::string> supers, indexes;
    for (const std::string& iri : cls.super_classes) supers.push_back(ontology.Compact(iri));
    for (const std::string& iri : cls.domain_indexes) indexes.push_back(ontology.Compact(iri));
    table.AddRow({cls.name, Join(supers), cls.notify ? "notify" : "", Join(indexes)});
  }
  out << "Classes (" << table.size() << ")\n";
  table.Print(out);
}

void PrintProperties(const ontology::Ontology& ontology, std::ostream& out) {
  TextTable table({"property", "domain", "range", "cardinality", "flags"});
  for (const ontology::Property& property : ontology.properties()) {
    std::vector<std::string> flags;
    if (property.indexed) flags.push_back("indexed");
    if (property.fulltext) flags.push_back("fulltext");
    if (property.writeback) flags.push_back("writeback");
    table.AddRow({property.name, ontology.Compact(property.domain),
                  ontology.Compact(property.range),
                  property.max_cardinality ? std::to_string(*property.max_cardinality) : "many",
                  Join(flags)});
  }
  out << "\nProperties (" << table.size() << ")\n";
  table.Print(out);
}

// Index name → why it exists, from the ontology's annotations.
std::map<std::string, std::string> IndexKinds(const ontology::Ontology& ontology) {
  const schema::Names names(ontology);
  std::map<std::string, std::string> kinds;
  for (const ontology::Property& property : ontology.properties()) {
    if (!property.indexed) continue;
    const schema::PropertyStorage storage = names.StorageOf(property);
    kinds[schema::IndexName(storage.table, storage.column)] = "nrl:indexed";
  }
  for (const ontology::Class& cls : ontology.classes()) {
    for (const std::string& iri : cls.domain_indexes) {
      const ontology::Property* property = ontology.FindProperty(iri);
      if (!property) continue;
      kinds[schema::IndexName(names.ClassTable(cls), names.MirrorColumn(*property))] =
          "domain index";
    }
  }
  return kinds;
}

Result<void> PrintIndexes(engine::Store& store, std::ostream& out) {
  const std::map<std::string, std::string> kinds = IndexKinds(store.ontology());
  QUARRY_ASSIGN_OR_RETURN(
      engine::Statement indexes,
      store.database().Prepare(
          "SELECT m.name, m.tbl_name, group_concat(i.name, ', ') FROM sqlite_master AS m, "
          "pragma_index_info(m.name) AS i WHERE m.type = 'index' AND m.sql IS NOT NULL "
          "GROUP BY m.name ORDER BY m.tbl_name, m.name"));
  TextTable table({"index", "table", "columns", "from"});
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, indexes.Step());
    if (!has_row) break;
    const std::string name(indexes.ColumnText(0));
    const auto kind = kinds.find(name);
    table.AddRow({name, std::string(indexes.ColumnText(1)), std::string(indexes.ColumnText(2)),
                  kind == kinds.end() ? "schema" : kind->second});
  }
  out << "\nSQL indexes (" << table.size() << ")\n";
  table.Print(out);
  return Ok();
}

}  // namespace

CLI::App* AddOntologyCommand(CLI::App& app, OntologyArgs& args) {
  CLI::App* command =
      app.add_subcommand("ontology", "Show the classes, properties and indexes of a database");
  AddStoreOptions(*command, args.store);
  return command;
}

int RunOntology(const OntologyArgs& args) {
  auto store = OpenStore(args.store);
  if (!store) return ReportError({}, store.error());
  PrintClasses((*store)->ontology(), std::cout);
  PrintProperties((*store)->ontology(), std::cout);
  const auto printed = PrintIndexes(**store, std::cout);
  if (!printed) return ReportError("ontology", printed.error());
  return 0;
}

}  // namespace quarry::cli
