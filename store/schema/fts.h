// Full-text schema: one FTS5 table over every nrl:fulltextIndexed property (SCHEMA.md).
// External content: the text lives once, in the property columns; `fts_view` presents it per
// resource, and only resources with at least one full-text value appear in it, so "has a row
// in the index" and "has a row in the view" are the same fact. The engine deletes a resource's
// row (old values) before changing its text and inserts the new one before commit.
// Pure: returns SQL.
#pragma once

#include <string>
#include <vector>

#include "store/ontology/ontology.h"

namespace quarry::schema {

// Full-text properties in column order (ontology order).
std::vector<const ontology::Property*> FulltextProperties(const ontology::Ontology& ontology);

// View + FTS5 table; empty when the ontology has no full-text property.
std::vector<std::string> CreateFtsSql(const ontology::Ontology& ontology);
std::vector<std::string> DropFtsSql();
// Drop, recreate and re-index everything from the content (migration of full-text flags).
std::vector<std::string> RebuildFtsSql(const ontology::Ontology& ontology);

// Statements taking the resource ID as parameter ?1; empty when there is no full-text property.
std::string FtsDeleteRowSql(const ontology::Ontology& ontology);
std::string FtsInsertRowSql(const ontology::Ontology& ontology);
// The same for many resources at once: ?1 is a JSON array of IDs. One statement for a whole
// batch matters: FTS5 flushes its pending terms at every statement boundary.
// `applicable` narrows the look-ups to properties the resources can have (empty = all).
std::string FtsInsertRowsSql(const ontology::Ontology& ontology,
                             const std::vector<const ontology::Property*>& applicable = {});

}  // namespace quarry::schema
