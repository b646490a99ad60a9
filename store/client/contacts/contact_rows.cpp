// ReadContacts: the rows of ContactsQuery (one per field group) folded into Contacts;
// ContactAssembler: the same from one GroupQuery per group.
#include <string>
#include <unordered_map>

#include "store/client/contacts/contact_sparql.h"

namespace quarry::contacts {
namespace {

enum Column { kV1 = 0, kV2, kV3, kV4, kV5, kV6, kV7, kV8, kV9, kV10, kId, kGroupColumn };
constexpr std::string_view kKinds = "coretaiung";  // the field groups, in ContactsQuery's order

// The group of the row: ContactsQuery's ?k (0 if unbound or out of range).
char KindOf(Cursor& row) {
  if (!row.IsBound(kGroupColumn)) return 0;
  const int64_t group = row.GetInteger(kGroupColumn);
  return group >= 0 && static_cast<size_t>(group) < kKinds.size() ? kKinds[group] : 0;
}

std::vector<std::string> SplitTypes(std::string_view text) {
  std::vector<std::string> types;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) types.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return types;
}

std::vector<std::string> SplitNicknames(std::string_view text) {
  std::vector<std::string> nicks;
  size_t start = 0;
  while (!text.empty() && start <= text.size()) {
    size_t end = text.find(", ", start);
    if (end == std::string_view::npos) end = text.size();
    nicks.emplace_back(text.substr(start, end - start));
    start = end + 2;
  }
  return nicks;
}

// `base`: the column of ?v1 (ContactsQuery: 0; GroupQuery: 1, after the ID).
void ReadMain(Cursor& row, Contact& c, int base) {
  auto text = [&](int column) { return std::string(row.GetString(base + column)); };
  c.uid = text(kV1);
  c.full_name = text(kV2);
  c.name = {text(kV3), text(kV4), text(kV5), text(kV6), text(kV7)};
  c.nicknames = SplitNicknames(row.GetString(base + kV8));
  const std::string_view birth = row.GetString(base + kV9);
  c.birthday = std::string(birth.substr(0, 10));
  c.photo = text(kV10);
}

void ReadRow(Cursor& row, char kind, Contact& c, int base) {
  auto text = [&](int column) { return std::string(row.GetString(base + column)); };
  auto types = [&](int column) { return SplitTypes(row.GetString(base + column)); };
  switch (kind) {
    case 'c': ReadMain(row, c, base); break;
    case 'o':
      c.title = text(kV1);
      c.role = text(kV2);
      c.department = text(kV3);
      break;
    case 'r': c.organization = text(kV1); break;
    case 'e': c.emails.push_back({text(kV1), types(kV2)}); break;
    case 't': c.phones.push_back({text(kV1), types(kV2)}); break;
    case 'a':
      c.addresses.push_back({text(kV1), text(kV2), text(kV3), text(kV4), text(kV5), text(kV6),
                             text(kV7), types(kV8)});
      break;
    case 'i': c.ims.push_back({text(kV1), text(kV2)}); break;
    case 'u': c.urls.push_back(text(kV1)); break;
    case 'n': c.notes.push_back(text(kV1)); break;
    case 'g': c.categories.push_back(text(kV1)); break;
    default: break;
  }
}

}  // namespace

Result<std::vector<std::pair<int64_t, Contact>>> ReadContacts(Cursor& cursor, size_t expected) {
  std::vector<std::pair<int64_t, Contact>> contacts;
  std::unordered_map<int64_t, size_t> index_of;
  contacts.reserve(expected);
  index_of.reserve(expected);
  while (true) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    const int64_t id = cursor.GetInteger(kId);
    auto [found, inserted] = index_of.try_emplace(id, contacts.size());
    if (inserted) contacts.emplace_back(id, Contact{});
    const char kind = KindOf(cursor);
    if (kind == 0) return Error(Errc::kInternal, "contacts query row without a field group");
    ReadRow(cursor, kind, contacts[found->second].second, 0);
  }
  return contacts;
}

Result<void> ContactAssembler::Read(size_t group, Cursor& cursor) {
  if (group >= kGroupCount) return Error(Errc::kInternal, "no such contact field group");
  const char kind = kKinds[group];
  while (true) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    const int64_t id = cursor.GetInteger(0);
    size_t at = 0;
    if (group == 0) {
      auto [found, inserted] = index_of_.try_emplace(id, contacts_.size());
      if (inserted) contacts_.emplace_back(id, Contact{});
      at = found->second;
    } else {
      const auto found = index_of_.find(id);
      if (found == index_of_.end()) continue;
      at = found->second;
    }
    ReadRow(cursor, kind, contacts_[at].second, 1);
  }
  return {};
}

std::vector<std::pair<int64_t, Contact>> ContactAssembler::Take() && {
  index_of_.clear();
  return std::move(contacts_);
}

std::vector<std::pair<int64_t, Contact>> ContactAssembler::Take(const std::vector<int64_t>& ids) && {
  std::vector<std::pair<int64_t, Contact>> ordered;
  ordered.reserve(contacts_.size());
  for (const int64_t id : ids) {
    const auto found = index_of_.find(id);
    if (found == index_of_.end()) continue;
    ordered.push_back(std::move(contacts_[found->second]));
    index_of_.erase(found);  // each once
  }
  contacts_.clear();
  index_of_.clear();
  return ordered;
}

}  // namespace quarry::contacts
