// Migration planning: the SQL that turns a database built for one ontology into one for
// another, in place, plus the data checks that must pass first. Pure: the engine runs the
// checks and statements in one transaction (store/engine/migrate.cpp).
#pragma once

#include <string>
#include <vector>

#include "store/common/result.h"
#include "store/ontology/ontology.h"

namespace quarry::schema {

// A query that returns a row when the change is incompatible with the stored data.
struct MigrationCheck {
  std::string sql;
  std::string message;  // the error a user sees when sql returns a row
};

struct MigrationPlan {
  std::vector<MigrationCheck> checks;
  std::vector<std::string> statements;
  std::vector<std::string> summary;  // one line per change, for logs and `quarry ontology`
  bool empty() const { return summary.empty(); }
};

MigrationPlan PlanMigration(const ontology::Ontology& old_ontology,
                            const ontology::Ontology& new_ontology);

}  // namespace quarry::schema
