// ContactBook::Statements: the book's queries compiled once per shape and rebound per call
// (Connection::Prepare with `~name` parameters). A fetch of n UIDs uses the shape for the next
// power of two >= n (at most kMaxUidsPerQuery), the unused slots bound to the empty string,
// which no contact has as UID (Save refuses it) — so a handful of shapes covers every list.
// Direct and embedded connections compile each shape once; through quarry-store the text of a
// shape is the same every time, so the store's query cache finds it.
// Thread-safety: like the book's Connection (one thread at a time).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "quarry/connection.h"
#include "quarry/contacts.h"

namespace quarry::contacts {

inline constexpr size_t kMaxUidsPerQuery = 256;

class ContactBook::Statements {
 public:
  explicit Statements(Connection& connection) : connection_(connection) {}

  // Whole contacts (ContactsQuery rows) for uids[begin, end), end - begin <= kMaxUidsPerQuery.
  Result<Cursor> FetchUids(const std::vector<std::string>& uids, size_t begin, size_t end);
  // The UIDs among uids[begin, end) that are stored (one column: the UID).
  Result<Cursor> ExistingUids(const std::vector<std::string>& uids, size_t begin, size_t end);
  // Whole contacts whose qco: keys match `filter` (contact_keys.h: FilterRange).
  Result<Cursor> Find(const ContactFilter& filter);

  // The SPARQL of the shapes (for tests and `--explain`).
  static std::string FetchUidsText(size_t slots);
  static std::string FindText(ContactFilter::Kind kind);

 private:
  Result<Statement*> Shape(const std::string& key, const std::string& sparql);
  Result<Cursor> RunUids(const std::string& key, const std::string& sparql,
                         const std::vector<std::string>& uids, size_t begin, size_t end);

  Connection& connection_;
  std::map<std::string, Statement> prepared_;  // by shape key
};

// The number of UID slots of the shape used for `count` UIDs.
size_t UidSlots(size_t count);

}  // namespace quarry::contacts
