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
#include <map>
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
  // One triple that appeared (insert) or went away, in the order the rows changed, as the
  // RowBuffer hands it out (it stores rows encoded, ~10 bytes each).
  struct RowChange {
    int64_t subject = 0;
    // The object's ID for a resource property; for a literal its stored value (typed) as a
    // 64-bit hash: two values, two triples. Only the netting reads a literal's hash, and
    // GraphUpdated carries no literal. Two values of one subject and property that collide
    // would net as one triple (odds 2^-64).
    uint64_t value = 0;
    // The property's index in properties_ (kSlotMask), with kInsert.
    uint32_t property = 0;
    uint32_t graph = 0;  // index in graphs_
    bool literal = false;  // `value` is a literal's hash
  };
  static constexpr uint32_t kInsert = 1u << 31;
  static constexpr uint32_t kSlotMask = (1u << 29) - 1;
  // Net()'s verdict on the row that stands for its triple (its first change): the triple
  // existed before the transaction / exists after it. A row with neither changes nothing.
  static constexpr uint8_t kBefore = 1;
  static constexpr uint8_t kAfter = 2;
  // Two bits per row: the verdicts of a transaction's rows. A transaction without deletes has
  // no bits: every row is an insert that stands (kAfter).
  class Verdicts {
   public:
    static Verdicts AllAfter() { return Verdicts(); }
    explicit Verdicts(size_t rows) : bits_((rows + 3) / 4, 0), all_after_(false) {}
    uint8_t operator[](size_t row) const {
      return all_after_ ? kAfter : (bits_[row / 4] >> (row % 4 * 2)) & 3;
    }
    void Set(size_t row, uint8_t verdict) {
      uint8_t& byte = bits_[row / 4];
      byte = static_cast<uint8_t>((byte & ~(3 << (row % 4 * 2))) | verdict << (row % 4 * 2));
    }

   private:
    Verdicts() = default;
    std::vector<uint8_t> bits_;
    bool all_after_ = true;
  };

  // The running transaction's rows, encoded: a varint of the property slot and the insert and
  // literal flags, a varint of the graph index, the subject as a zigzag varint of its
  // difference from the row before's, the object ID as one of its difference from the subject
  // (a literal's hash as 8 bytes). ~10 bytes a row where a struct was 24: a 12,800-contact
  // batch save records ~840,000 rows in one transaction, at the top of quarry-store's peak
  // (issue 7). Rows are read in order only (Reader), appended, dropped from the end
  // (RollbackTo) or released from the front.
  // In chunks of 256 KiB mapped from the kernel, not the heap: Collect() unmaps each chunk once
  // it has read it, so the rows leave the process while its class sets (the output) grow;
  // freed heap blocks would stay resident until a trim. No doubling either. Each chunk decodes
  // on its own (its first subject is relative to 0). One emptied chunk stays mapped as the
  // spare (clear(), TakeSpareFrom): a writer's small transactions reuse it instead of a mmap
  // and a munmap each (their rows fit one chunk).
  class RowBuffer {
   public:
    RowBuffer() = default;
    // Takes the rows; the spare chunk stays with `other`.
    RowBuffer(RowBuffer&& other) noexcept
        : chunks_(std::move(other.chunks_)),
          size_(std::exchange(other.size_, 0)),
          last_subject_(std::exchange(other.last_subject_, 0)),
          released_(std::exchange(other.released_, 0)),
          deletes_(std::exchange(other.deletes_, 0)) {
      other.chunks_.clear();
    }
    RowBuffer& operator=(RowBuffer&&) = delete;
    size_t size() const { return size_; }
    // Whether a row may be a delete (it counts those appended; resize() does not uncount).
    bool may_have_deletes() const { return deletes_ != 0; }
    void push_back(const RowChange& row);  // std::bad_alloc when the kernel maps no memory
    void resize(size_t smaller);           // drops the rows from `smaller` on
    void clear();                          // keeps a chunk as the spare
    // Adopts `other`'s spare chunk when this buffer has none (`other` is then without one).
    void TakeSpareFrom(RowBuffer& other);
    // Unmaps the chunks whose rows all lie before `position`: they are not read again.
    void ReleaseBefore(size_t position);

    // Reads the rows in order, from the first.
    class Reader {
     public:
      explicit Reader(const RowBuffer& rows) : rows_(rows) {}
      // The next row, false after the last. `position` is its index.
      bool Next(RowChange& row, size_t& position);

     private:
      const RowBuffer& rows_;
      size_t chunk_ = 0;
      size_t offset_ = 0;
      size_t position_ = 0;
      int64_t subject_ = 0;
    };

   private:
    static constexpr size_t kChunkBytes = size_t{256} << 10;
    static constexpr size_t kMaxRowBytes = 5 + 5 + 10 + 10;
    struct Unmap {
      void operator()(uint8_t* chunk) const noexcept;
    };
    using Chunk = std::unique_ptr<uint8_t, Unmap>;
    struct ChunkInfo {
      Chunk bytes;       // null once released
      size_t used = 0;   // bytes of rows
      size_t first = 0;  // its first row's position
    };
    // Decodes the row at `offset` of `bytes` (the row before's subject in `subject`); returns
    // the offset after it.
    static size_t Decode(const uint8_t* bytes, size_t offset, int64_t& subject, RowChange& row);
    // Moves a chunk being dropped into spare_ when there is none yet (else it is unmapped).
    void KeepAsSpare(Chunk& chunk);
    std::vector<ChunkInfo> chunks_;
    Chunk spare_;  // an emptied chunk, mapped and ready
    size_t size_ = 0;
    int64_t last_subject_ = 0;  // of the last row (0 at a chunk's start)
    size_t released_ = 0;       // chunks released from the front
    size_t deletes_ = 0;        // delete rows appended since clear()
  };

  // A property's ID and description, by slot.
  struct PropertyRef {
    const ontology::Property* property = nullptr;
    int64_t id = 0;
  };

  ChangeCapture(Database& db, const ontology::Ontology& ontology);
  static Verdicts Net(const RowBuffer& rows);
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
  // The notify classes of a transaction's subjects, by their positions in ontology_.classes().
  // Subjects share few sets of classes (a contact's, a phone number's, ...), so a subject costs
  // 12 bytes here: a 12,800-contact batch save has ~130,000 (a hash map of vectors was 4.2 MiB,
  // a sorted vector of (subject, class) pairs as much).
  struct SubjectClasses {
    std::vector<int64_t> subjects;                     // ascending: those with a notify class
    std::vector<uint32_t> set_of;                      // by subject: index in sets
    std::vector<std::vector<uint32_t>> sets;           // class positions, ascending, unique
    std::map<std::vector<uint32_t>, uint32_t> set_index;  // sets, by content
    // Appends `subject` (above the last one) with `classes` (ascending, unique, not empty).
    void Add(int64_t subject, const std::vector<uint32_t>& classes);
    // The subject's classes; empty when it has none.
    const std::vector<uint32_t>& Of(int64_t subject) const;
  };
  // The classes each of `subjects` (ascending, unique) has now, inside the transaction, plus
  // `removed`: (subject, class position) of notify types this transaction took away (a deleted
  // resource's triples are reported under the class it had), ascending.
  Result<SubjectClasses> NotifyClassesOf(
      const std::vector<int64_t>& subjects,
      const std::vector<std::pair<int64_t, uint32_t>>& removed);
  uint32_t ClassPosition(const ontology::Class* cls) const {
    return static_cast<uint32_t>(cls - ontology_.classes().data());
  }

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
