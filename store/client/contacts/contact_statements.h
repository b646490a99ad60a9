// ContactBook::Statements: the book's queries compiled once per shape and rebound per call
// (Connection::Prepare with `~name` parameters), and the read of whole contacts built on them.
// A short list of UIDs (at most kShortUidList) is read by one statement: ContactsQuery (one
// UNION branch per field group) with the UIDs as the selector of every branch, an index lookup
// of nco:contactUID per branch and UID. Each statement costs a fixed overhead (compiled query
// found, parameters bound, cursor, and through quarry-store a round trip) that a second
// statement for the UID -> ID step doubled for fetch-one (issue 7: 76 -> 96 us direct).
// A longer list resolves its UIDs to contact IDs once, then reads the field groups of those
// IDs with one statement: ContactsQuery whose every branch is restricted by
// `FILTER(tracker:id(?c) IN (~i0 …))`, a primary-key lookup per ID. Two statements per
// kMaxUidsPerQuery contacts, whatever their number. A filter finds its IDs over the key index
// and reads them the same way. Fetch all needs no IDs: one query per field group
// (contact_sparql.h: GroupQuery), each read whole, assembled by ID.
// A list of n values uses the smallest shape of 1, 16, 32, … kMaxUidsPerQuery slots that holds
// it: six shapes per kind cover every list, each compiled once. Unused UID slots are bound to a
// value nothing has (the empty UID, which Save refuses); unused ID slots repeat the last ID,
// which SQLite's IN list holds once (no lookup). Padding 100 IDs to 256 slots of ID 0 cost
// fetch_100 ~20 % (a lookup per slot and branch). Through quarry-store the text of a shape
// is the same every time, so the store's query cache finds it.
// Records (contact_record.h): a contact saved by the book carries its fields in one string,
// qco:record. The book's reads (Fetch*, Find, views) read records first: one statement per
// kMaxUidsPerQuery UIDs or IDs (UID index or ID -> contact row -> record), one per filter (key
// range -> record), one for every contact. Contacts found without a record (written by plain
// SPARQL, or by an older version) are then read from their nco data by the statements above,
// so nothing stored is lost; the order asked is kept.
// Thread-safety: like the book's Connection (one thread at a time).
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "quarry/connection.h"
#include "quarry/contacts.h"

namespace quarry::contacts {

inline constexpr size_t kMaxUidsPerQuery = 256;
// Lists up to this long are read by UID in one statement (ReadUids).
inline constexpr size_t kShortUidList = 16;

using IdContacts = std::vector<std::pair<int64_t, Contact>>;

class ContactBook::Statements {
 public:
  explicit Statements(Connection& connection) : connection_(connection) {}

  // The IDs of the stored contacts among uids[begin, end) (end - begin <= kMaxUidsPerQuery),
  // in the order of the UIDs; unknown UIDs are skipped.
  Result<std::vector<int64_t>> UidIds(const std::vector<std::string>& uids, size_t begin,
                                      size_t end);
  // Whole contacts of uids[begin, end) (end - begin <= kShortUidList) in one statement, in the
  // order of the UIDs; unknown UIDs are skipped.
  Result<IdContacts> ReadUids(const std::vector<std::string>& uids, size_t begin, size_t end);
  // The UIDs among uids[begin, end) that are stored (one column: the UID).
  Result<Cursor> ExistingUids(const std::vector<std::string>& uids, size_t begin, size_t end);
  // The IDs of the contacts whose qco: keys match `filter` (contact_keys.h: FilterRange).
  Result<std::vector<int64_t>> FindIds(const ContactFilter& filter);
  // The UIDs of those contacts (FindUidsText: the search joined to
  // nco:contactUID, read from the contact row the search found).
  Result<std::vector<std::string>> FindUids(const ContactFilter& filter);
  // Whole contacts by ID, in the order of `ids` (IDs that are no contact skipped).
  Result<IdContacts> ReadIds(const std::vector<int64_t>& ids);
  // Every contact, whole: each group read entire, no ID list.
  Result<IdContacts> ReadAll();

  // The record route. The contacts found, in the order asked: those with a record decoded in
  // place (straight into the vector returned, no Contact moved), the others (no record, or one
  // this version cannot read) left empty with their positions in `missing`, for Complete.
  // The IDs beside the contacts, not paired with them: the book returns `contacts` itself
  // (a vector<pair<ID, Contact>> had to be moved into a vector<Contact>, one move per
  // contact into new memory: 27 % of prefix_short in perf, issue 7).
  struct RecordRows {
    std::vector<int64_t> ids;        // ids[i] is the ID of contacts[i]
    std::vector<Contact> contacts;
    std::vector<size_t> missing;  // ascending
  };
  // uids[begin, end) (end - begin <= kMaxUidsPerQuery) in the order of the UIDs, unknown
  // ones skipped.
  Result<RecordRows> RecordsOfUids(const std::vector<std::string>& uids, size_t begin, size_t end);
  // ids[begin, end) in their order; an ID without a record is a missing row (it may be no
  // contact at all: Complete decides).
  Result<RecordRows> RecordsOfIds(const std::vector<int64_t>& ids, size_t begin, size_t end);
  Result<RecordRows> FindRecords(const ContactFilter& filter);
  Result<RecordRows> AllRecords();
  // The contacts of `rows`, in their order: the missing ones read by ReadIds (one more
  // statement per kMaxUidsPerQuery of them, none when every row had its record); IDs that are
  // no contact are dropped. `missing` is empty after.
  Result<RecordRows> Complete(RecordRows rows);

  // Whole contacts by the record route, completed (what ContactBook reads: it keeps
  // `contacts` and drops the IDs).
  Result<RecordRows> FetchUidsRows(const std::vector<std::string>& uids);
  Result<RecordRows> FetchIdsRows(const std::vector<int64_t>& ids);
  Result<RecordRows> FindRows(const ContactFilter& filter);
  Result<RecordRows> FetchAllRows();
  // The same, each contact paired with its ID (ContactView, tests).
  Result<IdContacts> FetchUids(const std::vector<std::string>& uids);
  Result<IdContacts> FetchIds(const std::vector<int64_t>& ids);
  Result<IdContacts> Find(const ContactFilter& filter);
  Result<IdContacts> FetchAll();

  // Statements executed so far (for the test that a read's count does not grow with its size).
  size_t executions() const { return executions_; }
  // Shapes compiled so far.
  size_t prepared() const { return prepared_.size(); }

  // The SPARQL of the shapes (for tests and `--explain`): UIDs to IDs, whole contacts of
  // `slots` UIDs, a filter to IDs, whole contacts of `slots` IDs, and group `group` of every
  // contact.
  static std::string FetchUidsText(size_t slots);
  static std::string ReadUidsText(size_t slots);
  static std::string FindText(ContactFilter::Kind kind);
  static std::string FindUidsText(ContactFilter::Kind kind);
  static std::string ReadIdsText(size_t slots);
  static std::string GroupText(size_t group);
  // The record reads: `slots` UIDs, `slots` IDs, a filter's key range, every contact.
  static std::string RecordUidsText(size_t slots);
  static std::string RecordIdsText(size_t slots);
  static std::string FindRecordsText(ContactFilter::Kind kind);
  static std::string AllRecordsText();

 private:
  // The statement of shape `key`, compiled from `sparql()` the first time: the text of a big
  // shape is not built again per call.
  using Text = std::function<std::string()>;
  Result<Statement*> Shape(const std::string& key, const Text& sparql);
  Result<Cursor> Run(Statement& statement);
  Result<Cursor> RunUids(const std::string& key, const Text& sparql,
                         const std::vector<std::string>& uids, size_t begin, size_t end);
  // The statement of filter `kind` (`uids`: FindUidsText, else FindText), its range bound.
  Result<Cursor> RunFind(const ContactFilter& filter, bool uids);
  // The rows of a record read, copied out of SQLite's memory before any is decoded (the
  // views die at the next step): their count is then known, so the contacts are made once in
  // a vector of the right size and decoded in place. Reused across reads (no allocation per
  // read once warm; a buffer grown past kKeptBufferBytes by a big read is released after it).
  struct BufferedRow {
    int64_t id = 0;
    bool has_record = false;
    size_t record_at = 0, record_size = 0;  // in bytes_
    size_t key_at = 0, key_size = 0;        // column `key_column` (the UID), when asked
    std::string_view Record(const std::string& bytes) const {
      return std::string_view(bytes).substr(record_at, record_size);
    }
    std::string_view Key(const std::string& bytes) const {
      return std::string_view(bytes).substr(key_at, key_size);
    }
  };
  static constexpr size_t kKeptBufferBytes = size_t{1} << 20;
  // Rows of (ID, record, [key]) from `cursor` into rows_/bytes_: column 0 the ID, 1 the record
  // (maybe unbound), `key_column` (if >= 0) a text key.
  Result<void> Buffer(Cursor& cursor, int key_column);
  void ReleaseBuffer();
  // The buffered rows `order` (indexes into rows_) as RecordRows, decoded in place.
  RecordRows Decode(const std::vector<size_t>& order);
  // Every buffered row, in row order.
  RecordRows DecodeAll();
  // The statement of a slotted shape, found by slot count without building its key.
  Result<Statement*> SlotShape(std::array<Statement*, 8>& cache, const char* kind, size_t slots,
                               const Text& sparql);

  Result<void> ReadChunk(const std::vector<int64_t>& ids, size_t begin, size_t end,
                         IdContacts& out);
  void BindUids(Statement& statement, const std::vector<std::string>& uids, size_t begin,
                size_t end);

  Connection& connection_;
  std::map<std::string, Statement> prepared_;  // by shape key (nodes: stable addresses)
  std::array<Statement*, 8> record_uids_{};      // by SlotIndex: "uids/record/<slots>"
  std::array<Statement*, 8> record_ids_{};       // "ids/record/<slots>"
  std::vector<BufferedRow> rows_;
  std::string bytes_;
  std::vector<size_t> order_;
  std::vector<int64_t> sorted_ids_;  // FindRecords: the found IDs, sorted to spot repeats
  size_t executions_ = 0;
};

// The number of slots of the shape used for `count` UIDs or IDs: 1, 16, 32, … kMaxUidsPerQuery.
size_t UidSlots(size_t count);

}  // namespace quarry::contacts
