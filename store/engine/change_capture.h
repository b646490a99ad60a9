// ChangeCapture: records every triple a write transaction inserts or deletes, for GraphUpdated
// and Writeback (issue 4), by watching the rows themselves with SQLite's pre-update hook.
//
// Why rows and not TripleWriter calls: a triple changes in many ways the writer never spells
// out one by one — a removed type drops whole class rows (every value of the resource goes),
// INSERT OR REPLACE overwrites a cell, CLEAR GRAPH empties columns, the bulk path writes
// hundreds of resources per statement. The hook sees the old and new value of every cell, so
// each of these reports exactly what changed (deleting <a> carries the object ID of
// `<a> nie:isPartOf <b>`), and nothing in the write paths has to know about signals.
//
// Cost: nothing when no capture is attached (no hook is installed). Attached, one callback per
// changed row of a class or property table, plus one query per transaction to find which
// notify classes the touched subjects have.
//
// Life of a transaction: rows accumulate while it runs; Collect() (inside the transaction,
// before COMMIT) nets them out and groups them by notify class; Discard() after a ROLLBACK;
// Mark()/RollbackTo() around a savepoint that may be rolled back (LOAD).
// Thread-safety: the writer thread, like the Database it watches.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/common/result.h"
#include "store/engine/committed_changes.h"
#include "store/engine/sqlite/database.h"
#include "store/ontology/ontology.h"

struct sqlite3;
struct sqlite3_value;

namespace quarry::engine {

class ChangeCapture {
 public:
  // Reads the table layout and the IDs of classes and properties, then installs the hook on
  // `db` (replacing any other pre-update hook). `db` and `ontology` must outlive the capture.
  static Result<std::unique_ptr<ChangeCapture>> Attach(Database& db,
                                                       const ontology::Ontology& ontology);
  ~ChangeCapture();  // removes the hook
  ChangeCapture(const ChangeCapture&) = delete;
  ChangeCapture& operator=(const ChangeCapture&) = delete;

  // Savepoint support: rows recorded after Mark() are forgotten by RollbackTo(mark).
  size_t Mark() const { return rows_.size(); }
  void RollbackTo(size_t mark);
  // Forgets the running transaction's rows (after ROLLBACK).
  void Discard() { rows_.clear(); }
  // The running transaction's net changes; call inside it, before COMMIT (it reads the types of
  // the touched subjects). Forgets the rows.
  Result<CommittedChanges> Collect();

  // One stored value of one property (a cell, or a row of a multi-valued table).
  struct Column {
    int value_index = 0;
    int graph_index = 0;
    const ontology::Property* property = nullptr;
    int64_t property_id = 0;
  };
  struct TableLayout {
    int id_index = 0;
    std::vector<Column> columns;
  };

 private:
  // One triple that appeared (insert) or went away, in the order the rows changed.
  struct RowChange {
    bool insert = false;
    ChangedQuad quad;
    const ontology::Property* property = nullptr;
    // A literal's stored value (typed) as a 64-bit hash: two values, two triples. Only the
    // netting reads it, and GraphUpdated carries no literal; the bytes themselves (a contact's
    // record, its names …) were a heap block per row at the batch save's peak (issue 7). Two
    // values of one subject and property that collide would net as one triple (odds 2^-64).
    uint64_t literal = 0;
  };

  // A triple's net effect on the transaction (see Net()).
  struct NetChange {
    const RowChange* row = nullptr;  // its first change
    bool before = false;             // it existed before the transaction
    bool after = false;              // it exists after
  };

  ChangeCapture(Database& db, const ontology::Ontology& ontology);
  static std::vector<NetChange> Net(const std::deque<RowChange>& rows);
  Result<void> Load();
  Result<void> LoadTable(const std::string& table, std::vector<Column> columns);
  // sqlite3_preupdate_hook's callback (its rowids are sqlite3_int64, i.e. long long).
  static void OnPreUpdate(void* self, sqlite3* db, int op, const char* schema, const char* table,
                          long long old_rowid, long long new_rowid);
  void Record(sqlite3* db, int op, const TableLayout& layout);
  void RecordCell(bool insert, int64_t subject, const Column& column, sqlite3_value* value,
                  sqlite3_value* graph);
  Result<std::unordered_map<int64_t, std::vector<int64_t>>> NotifyClassesOf(
      const std::vector<int64_t>& subjects);

  Database& db_;
  const ontology::Ontology& ontology_;
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
  };
  std::unordered_map<std::string, TableLayout, StringHash, std::equal_to<>> tables_;
  const ontology::Property* rdf_type_ = nullptr;
  std::unordered_map<int64_t, const ontology::Class*> notify_classes_;  // by class ID
  std::string notify_types_sql_;  // ?1: JSON array of subject IDs → (ID, notify class ID)
  // A deque, not a vector: a batch save records ~80 rows per contact (1M rows of 56 bytes at
  // 12,800 contacts), and a vector's doubling held the old and the new array at once (+50 %) and up to
  // twice the rows (bench/phonebook/RESULTS.md "Peak RSS by phase").
  std::deque<RowChange> rows_;
};

}  // namespace quarry::engine
