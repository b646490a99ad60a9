#include "store/schema/domain_index.h"

#include <fmt/format.h>

#include "store/schema/ddl.h"
#include "store/schema/names.h"

namespace quarry::schema {
namespace {

constexpr const char* kTriggerEvents[] = {"class_insert", "insert", "update", "delete"};

}  // namespace

std::vector<std::string> DomainIndexSql(const ontology::Ontology& ontology,
                                        const ontology::Class& cls,
                                        const ontology::Property& property, bool copy_values) {
  const Names names(ontology);
  const std::string mirror_table = Quote(names.ClassTable(cls));
  const std::string column = Quote(names.MirrorColumn(property));
  const PropertyStorage source = names.StorageOf(property);
  const std::string source_table = Quote(source.table);
  const auto trigger = [&](std::string_view event) {
    return Quote(MirrorTriggerName(names.ClassTable(cls), names.MirrorColumn(property), event));
  };

  std::vector<std::string> statements;
  if (copy_values) {
    statements.push_back(fmt::format(
        "UPDATE {0} SET {1} = (SELECT S.{1} FROM {2} AS S WHERE S.ID = {0}.ID)", mirror_table,
        column, source_table));
  }
  statements.push_back(ValueIndexSql(IndexName(names.ClassTable(cls), property.name),
                                     names.ClassTable(cls), names.MirrorColumn(property)));
  // A resource that gains the subclass type after the value was set copies it once. The WHEN
  // spares the UPDATE when the writer already put the right value in the new row (the engine's
  // bulk path does: an UPDATE per new row was a tenth of a bulk import, issue 2).
  statements.push_back(fmt::format(
      "CREATE TRIGGER {0} AFTER INSERT ON {1} WHEN NEW.{2} IS NOT "
      "(SELECT S.{2} FROM {3} AS S WHERE S.ID = NEW.ID) BEGIN UPDATE {1} SET {2} = "
      "(SELECT S.{2} FROM {3} AS S WHERE S.ID = NEW.ID) WHERE ID = NEW.ID; END",
      trigger("class_insert"), mirror_table, column, source_table));
  statements.push_back(fmt::format(
      "CREATE TRIGGER {0} AFTER INSERT ON {1} WHEN NEW.{2} IS NOT NULL BEGIN "
      "UPDATE {3} SET {2} = NEW.{2} WHERE ID = NEW.ID; END",
      trigger("insert"), source_table, column, mirror_table));
  statements.push_back(fmt::format(
      "CREATE TRIGGER {0} AFTER UPDATE OF {2} ON {1} BEGIN "
      "UPDATE {3} SET {2} = NEW.{2} WHERE ID = NEW.ID; END",
      trigger("update"), source_table, column, mirror_table));
  statements.push_back(fmt::format(
      "CREATE TRIGGER {0} AFTER DELETE ON {1} BEGIN "
      "UPDATE {2} SET {3} = NULL WHERE ID = OLD.ID; END",
      trigger("delete"), source_table, mirror_table, column));
  return statements;
}

std::vector<std::string> AddDomainIndexSql(const ontology::Ontology& ontology,
                                           const ontology::Class& cls,
                                           const ontology::Property& property) {
  const Names names(ontology);
  std::vector<std::string> statements = {fmt::format(
      "ALTER TABLE {} ADD COLUMN {} {}", Quote(names.ClassTable(cls)),
      Quote(names.MirrorColumn(property)), SqlTypeOf(property.type))};
  for (std::string& sql : DomainIndexSql(ontology, cls, property, /*copy_values=*/true)) {
    statements.push_back(std::move(sql));
  }
  return statements;
}

std::vector<std::string> DropDomainIndexSql(const ontology::Ontology& ontology,
                                            const ontology::Class& cls,
                                            const ontology::Property& property) {
  const Names names(ontology);
  const std::string table = names.ClassTable(cls);
  const std::string column = names.MirrorColumn(property);
  std::vector<std::string> statements;
  for (const char* event : kTriggerEvents) {
    statements.push_back(
        fmt::format("DROP TRIGGER IF EXISTS {}", Quote(MirrorTriggerName(table, column, event))));
  }
  statements.push_back(fmt::format("DROP INDEX IF EXISTS {}", Quote(IndexName(table, column))));
  // SQLite >= 3.35 rewrites the table without the column: the rebuild SCHEMA.md asks for.
  statements.push_back(
      fmt::format("ALTER TABLE {} DROP COLUMN {}", Quote(table), Quote(column)));
  return statements;
}

}  // namespace quarry::schema
