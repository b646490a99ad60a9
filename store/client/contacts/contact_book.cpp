// ContactBook: saves contacts as nco resources plus qco: keys, and reads them back with one
// query per call (contact_sparql.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>
#include <unordered_map>

#include "quarry/contacts.h"
#include "store/client/contacts/contact_keys.h"
#include "store/client/contacts/contact_sparql.h"

namespace quarry::contacts {
namespace {

// Bounds the size of one request: VALUES lists and INSERT DATA blocks.
constexpr size_t kChunk = 200;

std::string UidValues(const std::vector<std::string>& uids, size_t begin, size_t end) {
  std::string values = "VALUES ?uid {";
  for (size_t i = begin; i < end; ++i) values += " " + SparqlString(uids[i]);
  return values + " }";
}

std::string SelectorByUid(const std::vector<std::string>& uids) {
  return UidValues(uids, 0, uids.size()) + " ?c nco:contactUID ?uid .";
}

// The contacts of `uids` already stored, by UID.
Result<std::set<std::string>> ExistingUids(Connection& connection,
                                           const std::vector<std::string>& uids) {
  std::set<std::string> existing;
  for (size_t begin = 0; begin < uids.size(); begin += kChunk) {
    const size_t end = std::min(uids.size(), begin + kChunk);
    QUARRY_ASSIGN_OR_RETURN(
        Cursor cursor,
        connection.Query(fmt::format("{}SELECT ?uid WHERE {{ {} ?c nco:contactUID ?uid }}",
                                     kSparqlPrefixes, UidValues(uids, begin, end))));
    while (true) {
      QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
      if (!has_row) break;
      existing.emplace(cursor.GetString(0));
    }
  }
  return existing;
}

Result<std::vector<Contact>> RunContactsQuery(Connection& connection, std::string_view selector) {
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, connection.Query(ContactsQuery(selector)));
  QUARRY_ASSIGN_OR_RETURN(auto rows, ReadContacts(cursor));
  std::vector<Contact> contacts;
  contacts.reserve(rows.size());
  for (auto& [id, contact] : rows) contacts.push_back(std::move(contact));
  return contacts;
}

}  // namespace

ContactBook::ContactBook(Connection& connection) : connection_(connection) {}

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
  QUARRY_ASSIGN_OR_RETURN(const auto existing, ExistingUids(connection_, uids));
  Batch batch = connection_.CreateBatch();
  for (const auto& uid : existing) batch.Add(DeleteContactUpdate(ContactIri(uid)));
  for (size_t begin = 0; begin < uids.size(); begin += kChunk) {
    std::string update = fmt::format("{}INSERT DATA {{\n", kSparqlPrefixes);
    for (size_t i = begin; i < std::min(uids.size(), begin + kChunk); ++i) {
      update += ContactTriples(contacts[last_of.at(uids[i])]);
    }
    batch.Add(update + "}");
  }
  if (auto done = batch.Execute(); !done) {
    return std::move(done.error()).WithContext(fmt::format("saving {} contacts", uids.size()));
  }
  return {};
}

Result<void> ContactBook::Remove(const std::vector<std::string>& uids) {
  QUARRY_ASSIGN_OR_RETURN(const auto existing, ExistingUids(connection_, uids));
  if (existing.empty()) return {};
  Batch batch = connection_.CreateBatch();
  for (const auto& uid : existing) batch.Add(DeleteContactUpdate(ContactIri(uid)));
  return batch.Execute();
}

Result<std::vector<Contact>> ContactBook::FetchAll() {
  return RunContactsQuery(connection_, "?c a nco:PersonContact ; nco:contactUID ?uid .");
}

Result<std::vector<Contact>> ContactBook::FetchByUid(const std::vector<std::string>& uids) {
  if (uids.empty()) return std::vector<Contact>{};
  return RunContactsQuery(connection_, SelectorByUid(uids));
}

std::string ContactBook::FindQuery(const ContactFilter& filter) {
  static constexpr std::string_view kPredicates[] = {"qco:namePrefixKey", "qco:nameSuffixKey",
                                                     "qco:emailKey", "qco:phoneSuffixKey"};
  const std::string selector =
      fmt::format("?c {} {} .", kPredicates[static_cast<int>(filter.kind)],
                  SparqlString(FilterKey(filter)));
  return ContactsQuery(selector);
}

Result<std::vector<Contact>> ContactBook::Find(const ContactFilter& filter) {
  if (FilterKey(filter).empty()) {
    return Error(Errc::kInvalidArgument, fmt::format("empty search text \"{}\"", filter.text));
  }
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, connection_.Query(FindQuery(filter)));
  QUARRY_ASSIGN_OR_RETURN(auto rows, ReadContacts(cursor));
  std::vector<Contact> found;
  for (auto& [id, contact] : rows) {
    if (Matches(contact, filter)) found.push_back(std::move(contact));
  }
  return found;
}

Result<std::vector<std::pair<int64_t, Contact>>> ContactBook::FetchByResourceId(
    const std::vector<int64_t>& ids) {
  std::vector<std::pair<int64_t, Contact>> found;
  if (ids.empty()) return found;
  // IDs to IRIs first: a VALUES list of IRIs is an index lookup per contact, where a FILTER on
  // tracker:id(?c) would scan every contact (the translator's FILTERs cannot use indexes).
  std::string uris;
  for (const int64_t id : ids) uris += fmt::format(" tracker:uri({})", id);
  QUARRY_ASSIGN_OR_RETURN(Cursor names,
                          connection_.Query(fmt::format("{}SELECT{} {{}}", kSparqlPrefixes, uris)));
  QUARRY_ASSIGN_OR_RETURN(const bool has_row, names.Next());
  std::string values = "VALUES ?c {";
  for (int column = 0; has_row && column < names.ColumnCount(); ++column) {
    if (names.IsBound(column)) values += " " + IriRef(names.GetString(column));
  }
  values += " } ?c a nco:PersonContact .";
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, connection_.Query(ContactsQuery(values)));
  return ReadContacts(cursor);
}

}  // namespace quarry::contacts
