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
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
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
  void Discard() { ForgetRows(); }
  // The running transaction's net changes; call inside it, before COMMIT (it reads the types of
  // the touched subjects). Forgets the rows.
  Result<CommittedChanges> Collect();

  // Row chunks (RowBuffer) mapped from the kernel by every capture of this process so far: a
  // run of small transactions maps one, then reuses it (tests and measurements).
  static size_t RowChunksMapped();

  // One stored value of one property (a cell, or a row of a multi-valued table).
  struct Column {
    int value_index = 0;
    int graph_index = 0;
    const ontology::Property* property = nullptr;
    int64_t property_id = 0;
    uint32_t slot = 0;  // its index in properties_
  };
  struct TableLayout {
    int id_index = 0;
    std::vector<Column> columns;
  };

 private:
  // One triple that appeared (insert) or went away, in the order the rows changed. 24 bytes:
  // a 12,800-contact batch save records ~1M of them in one transaction (issue 7; 56 bytes with
  // the whole quad, a property pointer and a flag until Dec 2, and a netting record of 16 more).
  struct RowChange {
    int64_t subject = 0;
    // The object's ID for a resource property; for a literal its stored value (typed) as a
    // 64-bit hash: two values, two triples. Only the netting reads a literal's hash, and
    // GraphUpdated carries no literal. Two values of one subject and property that collide
    // would net as one triple (odds 2^-64).
    uint64_t value = 0;
    // The property's index in properties_ (kSlotMask), with kInsert and the netting's flags.
    uint32_t property = 0;
    uint32_t graph = 0;  // index in graphs_
  };
  static constexpr uint32_t kInsert = 1u << 31;
  // Set by Net() on the row that stands for its triple (its first change): the triple existed
  // before the transaction / exists after it. A row with neither changes nothing.
  static constexpr uint32_t kBefore = 1u << 30;
  static constexpr uint32_t kAfter = 1u << 29;
  static constexpr uint32_t kSlotMask = kAfter - 1;

  // The running transaction's rows, in chunks of 1 MiB mapped from the kernel, not the heap:
  // Collect() unmaps each chunk once it has read it, so a batch save's rows (~20 MiB at 12,800
  // contacts) leave the process while its class sets (the output) grow; freed heap blocks would
  // stay resident until a trim. No doubling either (a vector held the old and the new array at
  // once). Rows are only appended, dropped from the end (RollbackTo) or released from the front.
  // One emptied chunk stays mapped as the spare (clear(), TakeSpareFrom): a writer's small
  // transactions reuse it instead of a mmap and a munmap each (their rows fit one chunk).
  class RowBuffer {
   public:
    RowBuffer() = default;
    // Takes the rows; the spare chunk stays with `other`.
    RowBuffer(RowBuffer&& other) noexcept
        : chunks_(std::move(other.chunks_)),
          size_(std::exchange(other.size_, 0)),
          released_(std::exchange(other.released_, 0)) {
      other.chunks_.clear();
    }
    RowBuffer& operator=(RowBuffer&&) = delete;
    size_t size() const { return size_; }
    RowChange& operator[](size_t position) {
      return chunks_[position / kPerChunk].get()[position % kPerChunk];
    }
    void push_back(const RowChange& row);  // std::bad_alloc when the kernel maps no memory
    void resize(size_t smaller);           // drops the rows from `smaller` on
    void clear();                          // keeps a chunk as the spare
    // Adopts `other`'s spare chunk when this buffer has none (`other` is then without one).
    void TakeSpareFrom(RowBuffer& other);
    // Unmaps the chunks that lie wholly before `position`: their rows are not read again.
    void ReleaseBefore(size_t position);

   private:
    static constexpr size_t kChunkBytes = size_t{1} << 20;
    static constexpr size_t kPerChunk = kChunkBytes / sizeof(RowChange);
    struct Unmap {
      void operator()(RowChange* chunk) const noexcept;
    };
    using Chunk = std::unique_ptr<RowChange, Unmap>;
    // Moves a chunk being dropped into spare_ when there is none yet (else it is unmapped).
    void KeepAsSpare(Chunk& chunk);
    std::vector<Chunk> chunks_;  // null once released
    Chunk spare_;                // an emptied chunk, mapped and ready
    size_t size_ = 0;
    size_t released_ = 0;  // chunks released from the front
  };

  // A property's ID and description, by slot.
  struct PropertyRef {
    const ontology::Property* property = nullptr;
    int64_t id = 0;
  };

  ChangeCapture(Database& db, const ontology::Ontology& ontology);
  static void Net(RowBuffer& rows);
  Result<void> Load();
  Result<void> LoadTable(const std::string& table, std::vector<Column> columns);
  // sqlite3_preupdate_hook's callback (its rowids are sqlite3_int64, i.e. long long).
  static void OnPreUpdate(void* self, sqlite3* db, int op, const char* schema, const char* table,
                          long long old_rowid, long long new_rowid);
  void Record(sqlite3* db, int op, const TableLayout& layout);
  void RecordCell(bool insert, int64_t subject, const Column& column, sqlite3_value* value,
                  sqlite3_value* graph);
  uint32_t GraphSlot(int64_t graph);
  void ForgetRows();
  Result<std::unordered_map<int64_t, std::vector<int64_t>>> NotifyClassesOf(
      const std::vector<int64_t>& subjects);

  Database& db_;
  const ontology::Ontology& ontology_;
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
  };
  std::unordered_map<std::string, TableLayout, StringHash, std::equal_to<>> tables_;
  std::vector<PropertyRef> properties_;  // by slot
  uint32_t rdf_type_slot_ = kSlotMask;   // none
  std::unordered_map<int64_t, const ontology::Class*> notify_classes_;  // by class ID
  std::string notify_types_sql_;  // ?1: JSON array of subject IDs → (ID, notify class ID)
  RowBuffer rows_;
  // The graph IDs the running transaction's rows name (0: the default graph), by index, and
  // the last one looked up (rows come in runs of one graph).
  std::vector<int64_t> graphs_;
  std::unordered_map<int64_t, uint32_t> graph_slots_;
  int64_t last_graph_ = -1;
  uint32_t last_graph_slot_ = 0;
};

}  // namespace quarry::engine
