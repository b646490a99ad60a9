// Full-text schema: one FTS5 table over every nrl:fulltextIndexed property (SCHEMA.md).
// External content: the text lives once, in the property columns; `fts_view` presents it per
// resource, and only resources with at least one full-text value appear in it, so "has a row
// in the index" and "has a row in the view" are the same fact. The engine deletes a resource's
// row (old values) before changing its text and inserts the new one before commit.
// Pure: returns SQL.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "store/ontology/ontology.h"

namespace quarry::schema {

// Full-text properties in column order (ontology order).
std::vector<const ontology::Property*> FulltextProperties(const ontology::Ontology& ontology);

// View + FTS5 table with its merge settings; empty when the ontology has no full-text property.
std::vector<std::string> CreateFtsSql(const ontology::Ontology& ontology);

// FTS5 merge settings (issue 5). FTS5's automerge rewrites segments while writes stream in, on
// the store's single writer thread, the indexing critical path: off (automerge 0), the writes
// only flush segments, and crisismerge (FTS5's default, 16 per level) bounds them. The writer
// merges them when idle instead (FtsMergeStepSql), as far as usermerge (4 a level) asks.
// A replay of the 20,001-file corpus' rows (bench/query/README.md "FTS5 merges at idle"): FTS
// write instructions -29 %, the idle merges less than what was saved, queries after them no
// slower. hashsize 4 MiB (FTS5's default 1 MiB): a transaction keeps its pending terms in
// memory up to it before it writes them as a segment; a write batch of text files passed 1 MiB
// (some 55 bytes a distinct term), so it flushed more segments, and merged them more often.
// 8,001 text files, quarry-extract's writes (tests/extract/store_cost_driver.cpp): -9.0 %
// instructions per file with 128 files a batch (unchanged with 1 MiB; 8 MiB no better).
// Statements that apply them to an existing table; FTS5's table of settings (a
// database without full-text properties has none); a query on it that returns a row when the
// settings are not there yet (a database made before them).
std::vector<std::string> FtsMergeSettingsSql();
std::string FtsConfigTable();
std::string FtsLacksMergeSettingsSql();
// One idle merge step: about `pages` leaf pages of segment merging. It did work when it changed
// 2 or more rows (sqlite3_total_changes), none left otherwise (FTS5 documentation, 'merge').
std::string FtsMergeStepSql(int pages);
std::vector<std::string> DropFtsSql();
// Drop, recreate and re-index everything from the content (migration of full-text flags).
std::vector<std::string> RebuildFtsSql(const ontology::Ontology& ontology);

// The engine writes the index in two steps (both empty when there is no full-text property):
// a read of the rows' values (ID then every full-text column, only resources with some text;
// `rows` is a condition on R.ID, e.g. "R.ID = ?1"; `applicable` narrows the look-ups to
// properties the resources can have, empty = all), and
// a one-row write of them (?1 the ID, ?2.. the columns; `remove`: FTS5's 'delete' command).
// A one-row INSERT ... VALUES opens no statement journal, so FTS5 keeps its pending terms until
// COMMIT; an INSERT ... SELECT opens one, and FTS5 flushes them at its savepoint.
std::string FtsSelectRowsSql(const ontology::Ontology& ontology, std::string_view rows,
                             const std::vector<const ontology::Property*>& applicable = {});
std::string FtsWriteValuesSql(const ontology::Ontology& ontology, bool remove);

}  // namespace quarry::schema
