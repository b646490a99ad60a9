#include "store/schema/migration_plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "store/schema/ddl.h"
#include "store/schema/domain_index.h"
#include "store/schema/fts.h"
#include "store/schema/names.h"

namespace quarry::schema {
namespace {

using ontology::Class;
using ontology::Ontology;
using ontology::Property;

bool Contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// Where and how a property is stored; two properties with equal layouts need no data move.
std::string Layout(const Ontology& ontology, const Property& property) {
  const PropertyStorage storage = Names(ontology).StorageOf(property);
  return fmt::format("{}|{}|{}", storage.table, storage.column, SqlTypeOf(property.type));
}

std::string HasValuesSql(const Ontology& ontology, const Property& property) {
  const PropertyStorage storage = Names(ontology).StorageOf(property);
  if (storage.multi_valued) return fmt::format("SELECT 1 FROM {} LIMIT 1", Quote(storage.table));
  return fmt::format("SELECT 1 FROM {} WHERE {} IS NOT NULL LIMIT 1", Quote(storage.table),
                     Quote(storage.column));
}

class Planner {
 public:
  Planner(const Ontology& old_ontology, const Ontology& new_ontology)
      : old_(old_ontology), new_(new_ontology) {}

  MigrationPlan Run() {
    RemoveDomainIndexes();
    ChangeProperties();
    RemoveClasses();
    AddClasses();
    AddProperties();
    AddDomainIndexes();
    if (FulltextLayout(old_) != FulltextLayout(new_)) {
      plan_.summary.push_back("full-text properties changed: full-text index rebuilt");
      // The view must go before any column it reads is dropped.
      std::vector<std::string> drop = DropFtsSql();
      plan_.statements.insert(plan_.statements.begin(), drop.begin(), drop.end());
      Append(RebuildFtsSql(new_));
    }
    if (!plan_.empty()) Append(OntologyResourcesSql(new_));
    return std::move(plan_);
  }

 private:
  void Append(std::vector<std::string> statements) {
    for (std::string& sql : statements) plan_.statements.push_back(std::move(sql));
  }
  void Append(std::string statement) { plan_.statements.push_back(std::move(statement)); }

  std::string FulltextLayout(const Ontology& ontology) const {
    std::string layout;
    for (const Property* property : FulltextProperties(ontology)) {
      layout += Layout(ontology, *property) + ";";
    }
    return layout;
  }

  bool StorageChanged(const Property& property) const {
    const Property* before = old_.FindProperty(property.iri);
    return before && Layout(old_, *before) != Layout(new_, property);
  }

  void RemoveDomainIndexes() {
    for (const Class& before : old_.classes()) {
      const Class* after = new_.FindClass(before.iri);
      for (const std::string& iri : before.domain_indexes) {
        const Property* property = old_.FindProperty(iri);
        const Property* new_property = new_.FindProperty(iri);
        const bool kept = after && Contains(after->domain_indexes, iri) && new_property &&
                          !StorageChanged(*new_property);
        if (kept || !property) continue;
        plan_.summary.push_back(
            fmt::format("domain index {} removed from {}", property->name, before.name));
        Append(DropDomainIndexSql(old_, before, *property));
      }
    }
  }

  void AddDomainIndexes() {
    for (const Class& after : new_.classes()) {
      const Class* before = old_.FindClass(after.iri);
      if (!before) continue;  // a new table was created with its domain indexes
      for (const std::string& iri : after.domain_indexes) {
        const Property* property = new_.FindProperty(iri);
        const bool kept = Contains(before->domain_indexes, iri) && property &&
                          !StorageChanged(*property);
        if (kept || !property) continue;
        plan_.summary.push_back(
            fmt::format("domain index {} added to {}", property->name, after.name));
        Append(AddDomainIndexSql(new_, after, *property));
      }
    }
  }

  void RemoveClasses() {
    for (const Class& before : old_.classes()) {
      if (new_.FindClass(before.iri)) continue;
      plan_.summary.push_back(fmt::format("class {} removed", before.name));
      plan_.checks.push_back(
          {fmt::format("SELECT 1 FROM {} LIMIT 1", Quote(before.name)),
           fmt::format("class {} is removed from the ontology but resources of it are stored",
                       before.name)});
      Append(fmt::format("DROP TABLE IF EXISTS {}", Quote(before.name)));
    }
  }

  void AddClasses() {
    for (const Class& after : new_.classes()) {
      const Class* before = old_.FindClass(after.iri);
      if (before) {
        if (before->super_classes != after.super_classes) {
          plan_.summary.push_back(fmt::format("super classes of {} changed", after.name));
          plan_.checks.push_back(
              {fmt::format("SELECT 1 FROM {} LIMIT 1", Quote(after.name)),
               fmt::format("the super classes of {} changed but resources of it are stored",
                           after.name)});
        }
        continue;
      }
      plan_.summary.push_back(fmt::format("class {} added", after.name));
      Append(CreateClassTableSql(new_, after));
      for (const std::string& iri : after.domain_indexes) {
        if (const Property* property = new_.FindProperty(iri)) {
          Append(DomainIndexSql(new_, after, *property, /*copy_values=*/false));
        }
      }
    }
  }

  void DropStorage(const Property& property) {
    const PropertyStorage storage = Names(old_).StorageOf(property);
    Append(DropPropertyIndexSql(old_, property));
    if (!old_.FindClass(property.domain) || !new_.FindClass(property.domain)) {
      if (storage.multi_valued) Append(fmt::format("DROP TABLE IF EXISTS {}", Quote(storage.table)));
      return;  // the domain table itself goes away
    }
    if (storage.multi_valued) {
      Append(fmt::format("DROP TABLE {}", Quote(storage.table)));
    } else {
      Append(fmt::format("ALTER TABLE {} DROP COLUMN {}", Quote(storage.table),
                         Quote(storage.column)));
      Append(fmt::format("ALTER TABLE {} DROP COLUMN {}", Quote(storage.table),
                         Quote(storage.graph_column)));
    }
  }

  void CreateStorage(const Property& property) {
    if (property.multi_valued()) {
      Append(CreateMultiValuedTableSql(new_, property));
    } else if (old_.FindClass(property.domain)) {
      Append(AddSingleValuedColumnSql(new_, property));
    }  // else: the new class table already has the column
    Append(PropertyIndexSql(new_, property));
  }

  void ChangeProperties();
  void ChangeCardinality(const Property& before, const Property& after);
  void AddProperties() {
    for (const Property& after : new_.properties()) {
      if (old_.FindProperty(after.iri)) continue;
      plan_.summary.push_back(fmt::format("property {} added", after.name));
      CreateStorage(after);
    }
  }

  const Ontology& old_;
  const Ontology& new_;
  MigrationPlan plan_;
};

void Planner::ChangeProperties() {
  for (const Property& before : old_.properties()) {
    const Property* after = new_.FindProperty(before.iri);
    if (!after) {
      plan_.summary.push_back(fmt::format("property {} removed", before.name));
      plan_.checks.push_back({HasValuesSql(old_, before),
                              fmt::format("property {} is removed from the ontology but values "
                                          "of it are stored", before.name)});
      DropStorage(before);
      continue;
    }
    if (before.domain != after->domain || before.type != after->type) {
      plan_.summary.push_back(fmt::format("domain or range of {} changed", before.name));
      plan_.checks.push_back(
          {HasValuesSql(old_, before),
           fmt::format("the {} of {} changed from {} to {} but values of it are stored",
                       before.domain != after->domain ? "domain" : "range", before.name,
                       old_.Compact(before.domain != after->domain ? before.domain : before.range),
                       new_.Compact(before.domain != after->domain ? after->domain
                                                                   : after->range))});
      DropStorage(before);
      CreateStorage(*after);
      continue;
    }
    if (before.max_cardinality != after->max_cardinality) ChangeCardinality(before, *after);
    if (before.indexed != after->indexed && Layout(old_, before) == Layout(new_, *after)) {
      plan_.summary.push_back(fmt::format("index on {} {}", before.name,
                                          after->indexed ? "added" : "removed"));
      Append(after->indexed ? PropertyIndexSql(new_, *after) : DropPropertyIndexSql(old_, before));
    }
  }
}

void Planner::ChangeCardinality(const Property& before, const Property& after) {
  const PropertyStorage old_storage = Names(old_).StorageOf(before);
  const PropertyStorage new_storage = Names(new_).StorageOf(after);
  plan_.summary.push_back(fmt::format("cardinality of {} changed", before.name));
  if (after.max_cardinality && old_storage.multi_valued) {
    plan_.checks.push_back(
        {fmt::format("SELECT 1 FROM {} GROUP BY ID HAVING COUNT(*) > {} LIMIT 1",
                     Quote(old_storage.table), *after.max_cardinality),
         fmt::format("nrl:maxCardinality of {} lowered to {} but a resource holds more values",
                     before.name, *after.max_cardinality)});
  }
  if (old_storage.multi_valued == new_storage.multi_valued) return;
  Append(DropPropertyIndexSql(old_, before));
  if (new_storage.multi_valued) {
    Append(CreateMultiValuedTableSql(new_, after));
    Append(fmt::format("INSERT INTO {0} (ID, {1}, {2}) SELECT ID, {3}, coalesce({4}, 0) FROM {5} "
                       "WHERE {3} IS NOT NULL",
                       Quote(new_storage.table), Quote(new_storage.column),
                       Quote(new_storage.graph_column), Quote(old_storage.column),
                       Quote(old_storage.graph_column), Quote(old_storage.table)));
  } else {
    Append(AddSingleValuedColumnSql(new_, after));
    Append(fmt::format("UPDATE {0} SET ({1}, {2}) = (SELECT V.{3}, V.{4} FROM {5} AS V WHERE "
                       "V.ID = {0}.ID)",
                       Quote(new_storage.table), Quote(new_storage.column),
                       Quote(new_storage.graph_column), Quote(old_storage.column),
                       Quote(old_storage.graph_column), Quote(old_storage.table)));
  }
  DropStorage(before);
  Append(PropertyIndexSql(new_, after));
}

}  // namespace

MigrationPlan PlanMigration(const Ontology& old_ontology, const Ontology& new_ontology) {
  return Planner(old_ontology, new_ontology).Run();
}

}  // namespace quarry::schema
