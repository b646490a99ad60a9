// Domain indexes (nrl:domainIndex): a superclass property mirrored into a subclass table, so
// `?r a nmm:MusicPiece ; nie:title ?t } ORDER BY ?t` reads and sorts one indexed table.
// The mirror is kept equal to the superclass value by triggers, so every writer (the update
// executor, migrations, hand-written SQL) keeps it in sync. Pure: returns SQL.
#pragma once

#include <string>
#include <vector>

#include "store/ontology/ontology.h"

namespace quarry::schema {

// Index and triggers for a mirror column that already exists in `cls`'s table; with
// `copy_values`, also an UPDATE that fills the column from the superclass table first.
std::vector<std::string> DomainIndexSql(const ontology::Ontology& ontology,
                                        const ontology::Class& cls,
                                        const ontology::Property& property, bool copy_values);
// Migration: add the mirror column to an existing table, fill it, index it, add triggers.
std::vector<std::string> AddDomainIndexSql(const ontology::Ontology& ontology,
                                           const ontology::Class& cls,
                                           const ontology::Property& property);
// Migration: drop triggers and index, then the column (SQLite rewrites the table).
std::vector<std::string> DropDomainIndexSql(const ontology::Ontology& ontology,
                                            const ontology::Class& cls,
                                            const ontology::Property& property);

}  // namespace quarry::schema
