// ContactBook: saves contacts as nco resources plus qco: keys, and reads them back by ID, one
// query per field group (contact_statements.h), each prepared once per shape.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>
#include <unordered_map>

#include "quarry/contacts.h"
#include "store/client/contacts/contact_keys.h"
#include "store/client/contacts/contact_sparql.h"
#include "store/client/contacts/contact_statements.h"

namespace quarry::contacts {
namespace {

// Bounds the size of one INSERT DATA request.
constexpr size_t kChunk = 200;
// A save of more contacts than this streams its requests (ContactBook::Save); a smaller one
// goes as one Batch (no socket pair, no thread: save_one stays one call).
constexpr size_t kStreamFrom = kChunk;

// The contacts of `uids` already stored, by UID.
Result<std::set<std::string>> ExistingUids(ContactBook::Statements& statements,
                                           const std::vector<std::string>& uids) {
  std::set<std::string> existing;
  for (size_t begin = 0; begin < uids.size(); begin += kMaxUidsPerQuery) {
    const size_t end = std::min(uids.size(), begin + kMaxUidsPerQuery);
    QUARRY_ASSIGN_OR_RETURN(Cursor cursor, statements.ExistingUids(uids, begin, end));
    while (true) {
      QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
      if (!has_row) break;
      existing.emplace(cursor.GetString(0));
    }
  }
  return existing;
}

std::vector<Contact> WithoutIds(IdContacts rows) {
  std::vector<Contact> contacts;
  contacts.reserve(rows.size());
  for (auto& [id, contact] : rows) contacts.push_back(std::move(contact));
  return contacts;
}

}  // namespace

ContactBook::ContactBook(Connection& connection, ContactBookOptions options)
    : connection_(connection),
      options_(options),
      statements_(std::make_unique<Statements>(connection)) {}
ContactBook::~ContactBook() = default;

Result<void> ContactBook::Save(const std::vector<Contact>& contacts) {
  // The last of several contacts with one UID wins, as if they were saved in order.
  std::unordered_map<std::string, size_t> last_of;
  std::vector<std::string> uids;
  for (size_t i = 0; i < contacts.size(); ++i) {
    if (contacts[i].uid.empty()) {
      return Error(Errc::kInvalidArgument,
                   fmt::format("contact \"{}\" has no UID", contacts[i].full_name));
    }
    if (last_of.insert_or_assign(contacts[i].uid, i).second) uids.push_back(contacts[i].uid);
  }
  QUARRY_ASSIGN_OR_RETURN(const auto existing, ExistingUids(*statements_, uids));
  // The requests in order: a delete per stored contact, then an INSERT DATA per kChunk.
  auto existing_at = existing.begin();
  size_t begin = 0;
  const auto produce = [&](std::string& update) -> Result<bool> {
    if (existing_at != existing.end()) {
      update = DeleteContactUpdate(ContactIri(*existing_at++));
      return true;
    }
    if (begin >= uids.size()) return false;
    update = fmt::format("{}INSERT DATA {{\n", kSparqlPrefixes);
    std::set<std::string> stated;  // tags and photos shared by contacts of this request
    for (size_t i = begin; i < std::min(uids.size(), begin + kChunk); ++i) {
      AppendContactTriples(contacts[last_of.at(uids[i])], stated, update, options_.records);
    }
    update += "}";
    begin += kChunk;
    return true;
  };
  Result<void> done = Ok();
  if (options_.stream_saves && uids.size() > kStreamFrom) {
    // Streamed (Connection::UpdateStream): one request at a time, never the whole batch in
    // this process or in quarry-store (issue 7: the batch-save peak RSS).
    done = connection_.UpdateStream(produce);
  } else {
    Batch batch = connection_.CreateBatch();
    for (std::string update;;) {
      QUARRY_ASSIGN_OR_RETURN(const bool more, produce(update));
      if (!more) break;
      batch.Add(std::move(update));
    }
    done = batch.Execute();
  }
  if (!done) {
    return std::move(done.error()).WithContext(fmt::format("saving {} contacts", uids.size()));
  }
  return {};
}

Result<void> ContactBook::Remove(const std::vector<std::string>& uids) {
  QUARRY_ASSIGN_OR_RETURN(const auto existing, ExistingUids(*statements_, uids));
  if (existing.empty()) return {};
  Batch batch = connection_.CreateBatch();
  for (const auto& uid : existing) batch.Add(DeleteContactUpdate(ContactIri(uid)));
  return batch.Execute();
}

Result<std::vector<Contact>> ContactBook::FetchAll() {
  if (options_.records) {  // the contacts decoded in place are the vector returned: no move
    QUARRY_ASSIGN_OR_RETURN(auto rows, statements_->FetchAllRows());
    return std::move(rows.contacts);
  }
  QUARRY_ASSIGN_OR_RETURN(auto rows, statements_->ReadAll());
  return WithoutIds(std::move(rows));
}

Result<std::vector<Contact>> ContactBook::FetchByUid(const std::vector<std::string>& uids) {
  // Each UID once, in the order asked (a list of one is that already: no copy).
  std::vector<std::string> deduplicated;
  if (uids.size() > 1) {
    std::set<std::string_view> seen;
    for (const auto& uid : uids) {
      if (seen.insert(uid).second) deduplicated.push_back(uid);
    }
  }
  const std::vector<std::string>& unique = uids.size() > 1 ? deduplicated : uids;
  // Records by UID, one statement per kMaxUidsPerQuery; record-less contacts from their nco
  // data (contact_statements.h).
  if (options_.records) {
    QUARRY_ASSIGN_OR_RETURN(auto rows, statements_->FetchUidsRows(unique));
    return std::move(rows.contacts);
  }
  if (unique.size() <= kShortUidList) {  // one statement (contact_statements.h)
    QUARRY_ASSIGN_OR_RETURN(auto rows, statements_->ReadUids(unique, 0, unique.size()));
    return WithoutIds(std::move(rows));
  }
  std::vector<int64_t> ids;
  for (size_t begin = 0; begin < unique.size(); begin += kMaxUidsPerQuery) {
    const size_t end = std::min(unique.size(), begin + kMaxUidsPerQuery);
    QUARRY_ASSIGN_OR_RETURN(auto found, statements_->UidIds(unique, begin, end));
    ids.insert(ids.end(), found.begin(), found.end());
  }
  QUARRY_ASSIGN_OR_RETURN(auto rows, statements_->ReadIds(ids));
  return WithoutIds(std::move(rows));
}

std::string ContactBook::FindQuery(const ContactFilter& filter) {
  // Find's statement (Statements::FindRecordsText: the key search and each found contact's
  // record), its bounds written in as literals.
  return WithFilterLiterals(Statements::FindRecordsText(filter.kind), filter);
}

std::string ContactBook::FindUidsQuery(const ContactFilter& filter) {
  return WithFilterLiterals(Statements::FindUidsText(filter.kind), filter);
}

Result<std::vector<std::string>> ContactBook::FindUids(const ContactFilter& filter) {
  if (FilterRange(filter).low.empty()) {
    return Error(Errc::kInvalidArgument, fmt::format("empty search text \"{}\"", filter.text));
  }
  return statements_->FindUids(filter);
}

Result<std::vector<Contact>> ContactBook::Find(const ContactFilter& filter) {
  if (FilterRange(filter).low.empty()) {
    return Error(Errc::kInvalidArgument, fmt::format("empty search text \"{}\"", filter.text));
  }
  // No second test of the found contacts (Matches): every key range is exact (contact_keys.h),
  // so the index answers exactly the contacts that match. Case-folding each name of 800 found
  // contacts again was 4 % of prefix_short (issue 7, callgrind).
  if (options_.records) {
    QUARRY_ASSIGN_OR_RETURN(auto rows, statements_->FindRows(filter));
    return std::move(rows.contacts);
  }
  QUARRY_ASSIGN_OR_RETURN(const auto ids, statements_->FindIds(filter));
  QUARRY_ASSIGN_OR_RETURN(auto rows, statements_->ReadIds(ids));
  return WithoutIds(std::move(rows));
}

Result<std::vector<std::pair<int64_t, Contact>>> ContactBook::FetchByResourceId(
    const std::vector<int64_t>& ids) {
  // Each ID once; group 0 keeps the nco:PersonContacts among them.
  std::vector<int64_t> unique;
  std::set<int64_t> seen;
  for (const int64_t id : ids) {
    if (seen.insert(id).second) unique.push_back(id);
  }
  return options_.records ? statements_->FetchIds(unique) : statements_->ReadIds(unique);
}

}  // namespace quarry::contacts
