// ContactBook::Statements: the book's queries compiled once per shape and rebound per call
// (Connection::Prepare with `~name` parameters), and the read of whole contacts built on them.
// A read resolves its selector (UIDs or a search range) to contact IDs once, then reads the
// field groups of those IDs with one statement: ContactsQuery whose every branch (one per
// group) is restricted by `FILTER(tracker:id(?c) IN (~i0 …))`, a primary-key lookup per ID,
// instead of finding the UID again. Two statements (two round trips through quarry-store) per
// kMaxUidsPerQuery contacts, whatever their number. Fetch all needs no IDs: one query per field
// group (contact_sparql.h: GroupQuery), each read whole, assembled by ID.
// A list of n values uses the shape for the next power of two >= n (at most kMaxUidsPerQuery),
// the unused slots bound to a value nothing has (the empty UID, which Save refuses; ID 0) — so
// a handful of shapes covers every list. Direct and embedded connections compile each shape
// once; through quarry-store the text of a shape is the same every time, so the store's query
// cache finds it.
// Thread-safety: like the book's Connection (one thread at a time).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "quarry/connection.h"
#include "quarry/contacts.h"

namespace quarry::contacts {

inline constexpr size_t kMaxUidsPerQuery = 256;

using IdContacts = std::vector<std::pair<int64_t, Contact>>;

class ContactBook::Statements {
 public:
  explicit Statements(Connection& connection) : connection_(connection) {}

  // The IDs of the stored contacts among uids[begin, end) (end - begin <= kMaxUidsPerQuery),
  // in the order of the UIDs; unknown UIDs are skipped.
  Result<std::vector<int64_t>> UidIds(const std::vector<std::string>& uids, size_t begin,
                                      size_t end);
  // The UIDs among uids[begin, end) that are stored (one column: the UID).
  Result<Cursor> ExistingUids(const std::vector<std::string>& uids, size_t begin, size_t end);
  // The IDs of the contacts whose qco: keys match `filter` (contact_keys.h: FilterRange).
  Result<std::vector<int64_t>> FindIds(const ContactFilter& filter);
  // Whole contacts by ID, in the order of `ids` (IDs that are no contact skipped).
  Result<IdContacts> ReadIds(const std::vector<int64_t>& ids);
  // Every contact, whole: each group read entire, no ID list.
  Result<IdContacts> ReadAll();

  // Statements executed so far (for the test that a read's count does not grow with its size).
  size_t executions() const { return executions_; }

  // The SPARQL of the shapes (for tests and `--explain`): UIDs to IDs, a filter to IDs, whole
  // contacts of `slots` IDs, and group `group` of every contact.
  static std::string FetchUidsText(size_t slots);
  static std::string FindText(ContactFilter::Kind kind);
  static std::string ReadIdsText(size_t slots);
  static std::string GroupText(size_t group);

 private:
  Result<Statement*> Shape(const std::string& key, const std::string& sparql);
  Result<Cursor> Run(Statement& statement);
  Result<Cursor> RunUids(const std::string& key, const std::string& sparql,
                         const std::vector<std::string>& uids, size_t begin, size_t end);
  Result<void> ReadChunk(const std::vector<int64_t>& ids, size_t begin, size_t end,
                         IdContacts& out);

  Connection& connection_;
  std::map<std::string, Statement> prepared_;  // by shape key
  size_t executions_ = 0;
};

// The number of slots of the shape used for `count` UIDs or IDs.
size_t UidSlots(size_t count);

}  // namespace quarry::contacts
