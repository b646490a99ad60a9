#include "store/client/contacts/contact_statements.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "store/client/contacts/contact_keys.h"
#include "store/client/contacts/contact_record.h"
#include "store/client/contacts/contact_sparql.h"

namespace quarry::contacts {
namespace {

// The parameter names of the slots, made once: `prefix` + 0 … kMaxUidsPerQuery-1.
const std::vector<std::string>& SlotNames(char prefix) {
  static const auto make = [](char p) {
    std::vector<std::string> names;
    // Without fmt: 512 names made through fmt cost ~270k instructions, most of a first
    // FetchByUid's (issue 7); to_string is ~15x cheaper.
    names.reserve(kMaxUidsPerQuery);
    for (size_t i = 0; i < kMaxUidsPerQuery; ++i) names.push_back(p + std::to_string(i));
    return names;
  };
  static const std::vector<std::string> uids = make('u'), ids = make('i');
  return prefix == 'u' ? uids : ids;
}

// The group pattern binding ?c to the contacts of `slots` UIDs: one UID is a parameter in the
// triple (a typed index lookup on nco:contactUID), more a VALUES list of parameters.
// `with_uid`: ?uid is bound to the UID too (the UID lookups select it); the read of whole
// contacts has it as ?v1 already, and a second binding of one UID was one more column and two
// more conditions in every branch.
std::string UidSelector(size_t slots, bool with_uid = true) {
  std::string values = "VALUES ?uid {";
  for (size_t i = 0; i < slots; ++i) values += fmt::format(" ~u{}", i);
  if (slots == 1) return with_uid ? "?c nco:contactUID ~u0 , ?uid ." : "?c nco:contactUID ~u0 .";
  return values + " } ?c nco:contactUID ?uid .";
}

// `FILTER(tracker:id(?c) IN (~i0, ~i1, …))`: the engine compares the subject's ID column, a
// primary-key lookup per listed ID.
std::string IdRestriction(size_t slots) {
  std::string list;
  for (size_t i = 0; i < slots; ++i) list += fmt::format("{}~i{}", i == 0 ? "" : ", ", i);
  return fmt::format("FILTER(tracker:id(?c) IN ({}))", list);
}

}  // namespace

size_t UidSlots(size_t count) {
  if (count <= 1) return 1;
  size_t slots = kShortUidList;
  while (slots < count && slots < kMaxUidsPerQuery) slots *= 2;
  return slots;
}

std::string ContactBook::Statements::FetchUidsText(size_t slots) {
  return fmt::format("{}SELECT ?uid tracker:id(?c) WHERE {{ {} }}", kSparqlPrefixes,
                     UidSelector(slots));
}

std::string ContactBook::Statements::ReadUidsText(size_t slots) {
  return ContactsQuery(UidSelector(slots, /*with_uid=*/false));
}

std::string ContactBook::Statements::FindText(ContactFilter::Kind kind) {
  return fmt::format("{}SELECT tracker:id(?c) WHERE {{ {} }}", kSparqlPrefixes,
                     SearchSelector(kind));
}

std::string ContactBook::Statements::FindUidsText(ContactFilter::Kind kind) {
  return fmt::format("{}SELECT ?uid WHERE {{ {} ?c nco:contactUID ?uid }}", kSparqlPrefixes,
                     SearchSelector(kind));
}

std::string ContactBook::Statements::ReadIdsText(size_t slots) {
  return ContactsQuery(IdRestriction(slots));
}

std::string ContactBook::Statements::GroupText(size_t group) { return GroupQuery(group, ""); }

std::string ContactBook::Statements::RecordUidsText(size_t slots) {
  // ?uid last: the rows come back in index order, put in the order asked by UID.
  return fmt::format("{}SELECT tracker:id(?c) ?r ?uid WHERE {{ {} OPTIONAL {{ ?c qco:record ?r }} }}",
                     kSparqlPrefixes, UidSelector(slots));
}

std::string ContactBook::Statements::RecordIdsText(size_t slots) {
  return fmt::format("{}SELECT tracker:id(?c) ?r WHERE {{ ?c qco:record ?r {} }}", kSparqlPrefixes,
                     IdRestriction(slots));
}

std::string ContactBook::Statements::FindRecordsText(ContactFilter::Kind kind) {
  // RangeSelector: a contact found by two keys comes twice; FindRecords keeps its first row.
  return fmt::format("{}SELECT tracker:id(?c) ?r WHERE {{ {} OPTIONAL {{ ?c qco:record ?r }} }}",
                     kSparqlPrefixes, RangeSelector(kind));
}

std::string ContactBook::Statements::AllRecordsText() {
  return fmt::format(
      "{}SELECT tracker:id(?c) ?r WHERE {{ ?c a nco:PersonContact ; nco:contactUID ?uid "
      "OPTIONAL {{ ?c qco:record ?r }} }}",
      kSparqlPrefixes);
}

Result<Statement*> ContactBook::Statements::Shape(const std::string& key, const Text& sparql) {
  auto found = prepared_.find(key);
  if (found == prepared_.end()) {
    QUARRY_ASSIGN_OR_RETURN(Statement statement, connection_.Prepare(sparql()));
    found = prepared_.emplace(key, std::move(statement)).first;
  }
  return &found->second;
}

Result<Cursor> ContactBook::Statements::Run(Statement& statement) {
  ++executions_;
  return statement.Execute();
}

Result<Cursor> ContactBook::Statements::RunUids(const std::string& key, const Text& sparql,
                                                const std::vector<std::string>& uids, size_t begin,
                                                size_t end) {
  QUARRY_ASSIGN_OR_RETURN(Statement * statement, Shape(key, sparql));
  BindUids(*statement, uids, begin, end);
  return Run(*statement);
}

void ContactBook::Statements::BindUids(Statement& statement, const std::vector<std::string>& uids,
                                       size_t begin, size_t end) {
  const std::vector<std::string>& names = SlotNames('u');
  const size_t slots = UidSlots(end - begin);
  for (size_t i = 0; i < slots; ++i) {
    statement.BindString(names[i], begin + i < end ? uids[begin + i] : std::string());
  }
}

Result<IdContacts> ContactBook::Statements::ReadUids(const std::vector<std::string>& uids,
                                                     size_t begin, size_t end) {
  const size_t slots = UidSlots(end - begin);
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor,
                          RunUids(
                              fmt::format("uids/read/{}", slots),
                              [slots] { return ReadUidsText(slots); }, uids, begin, end));
  QUARRY_ASSIGN_OR_RETURN(auto rows, ReadContacts(cursor, end - begin));
  // The contact row's branch carries the UID; rows of other branches for a resource without
  // it (not an nco:PersonContact) are dropped.
  std::unordered_map<std::string_view, size_t> index_of;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].second.uid.empty()) index_of.emplace(rows[i].second.uid, i);
  }
  IdContacts contacts;
  contacts.reserve(index_of.size());
  for (size_t i = begin; i < end; ++i) {
    const auto found = index_of.find(uids[i]);
    if (found == index_of.end()) continue;
    const size_t at = found->second;
    index_of.erase(found);  // each once; erased before the move empties the key it views
    contacts.push_back(std::move(rows[at]));
  }
  return contacts;
}

Result<std::vector<int64_t>> ContactBook::Statements::UidIds(const std::vector<std::string>& uids,
                                                             size_t begin, size_t end) {
  const size_t slots = UidSlots(end - begin);
  QUARRY_ASSIGN_OR_RETURN(
      Cursor cursor, RunUids(
                         fmt::format("ids/{}", slots), [slots] { return FetchUidsText(slots); },
                         uids, begin, end));
  std::unordered_map<std::string, int64_t> id_of;
  while (true) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    id_of.emplace(cursor.GetString(0), cursor.GetInteger(1));
  }
  std::vector<int64_t> ids;
  for (size_t i = begin; i < end; ++i) {
    if (const auto found = id_of.find(uids[i]); found != id_of.end()) ids.push_back(found->second);
  }
  return ids;
}

Result<Cursor> ContactBook::Statements::ExistingUids(const std::vector<std::string>& uids,
                                                     size_t begin, size_t end) {
  const size_t slots = UidSlots(end - begin);
  return RunUids(
      fmt::format("exists/{}", slots),
      [slots] {
        return fmt::format("{}SELECT ?uid WHERE {{ {} }}", kSparqlPrefixes, UidSelector(slots));
      },
      uids, begin, end);
}

Result<Cursor> ContactBook::Statements::RunFind(const ContactFilter& filter, bool uids) {
  const KeyRange range = FilterRange(filter);
  // Shape keys made without formatting: "find/<kind>" and "find-uids/<kind>".
  std::string key = uids ? "find-uids/" : "find/";
  key += static_cast<char>('0' + static_cast<int>(filter.kind));
  QUARRY_ASSIGN_OR_RETURN(Statement * statement,
                          Shape(key, [&filter, uids] {
                            return uids ? FindUidsText(filter.kind) : FindText(filter.kind);
                          }));
  statement->BindString("low", range.low);
  if (!range.high.empty()) statement->BindString("high", range.high);
  return Run(*statement);
}

Result<std::vector<int64_t>> ContactBook::Statements::FindIds(const ContactFilter& filter) {
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, RunFind(filter, /*uids=*/false));
  std::vector<int64_t> ids;
  while (true) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    ids.push_back(cursor.GetInteger(0));
  }
  return ids;
}

Result<std::vector<std::string>> ContactBook::Statements::FindUids(const ContactFilter& filter) {
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, RunFind(filter, /*uids=*/true));
  std::vector<std::string> uids;
  while (true) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    uids.emplace_back(cursor.GetString(0));  // a view into the row: one copy, no temporary
  }
  return uids;
}

Result<void> ContactBook::Statements::ReadChunk(const std::vector<int64_t>& ids, size_t begin,
                                                size_t end, IdContacts& out) {
  const size_t slots = UidSlots(end - begin);
  QUARRY_ASSIGN_OR_RETURN(Statement * statement, Shape(fmt::format("ids/read/{}", slots),
                                                       [slots] { return ReadIdsText(slots); }));
  const std::vector<std::string>& names = SlotNames('i');
  for (size_t i = 0; i < slots; ++i) {
    // Unused slots repeat the last ID: SQLite keeps an IN list's values once, so padding costs
    // no lookup (ID 0, a lookup that finds nothing, cost one per slot and branch).
    statement->BindInteger(names[i], ids[std::min(begin + i, end - 1)]);
  }
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, Run(*statement));
  QUARRY_ASSIGN_OR_RETURN(auto rows, ReadContacts(cursor, end - begin));
  // A contact is what the contact row's branch returned (it carries the UID): rows of other
  // branches for an ID without it (not an nco:PersonContact) are dropped.
  std::unordered_map<int64_t, size_t> index_of;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].second.uid.empty()) index_of.emplace(rows[i].first, i);
  }
  for (size_t i = begin; i < end; ++i) {
    const auto found = index_of.find(ids[i]);
    if (found == index_of.end()) continue;
    out.push_back(std::move(rows[found->second]));
    index_of.erase(found);  // each once
  }
  return {};
}

Result<IdContacts> ContactBook::Statements::ReadIds(const std::vector<int64_t>& ids) {
  IdContacts contacts;
  contacts.reserve(ids.size());  // a Contact is ~20 strings and vectors: no moves on growth
  for (size_t begin = 0; begin < ids.size(); begin += kMaxUidsPerQuery) {
    QUARRY_TRY(ReadChunk(ids, begin, std::min(ids.size(), begin + kMaxUidsPerQuery), contacts));
  }
  return contacts;
}

Result<IdContacts> ContactBook::Statements::ReadAll() {
  ContactAssembler assembler;
  for (size_t group = 0; group < kGroupCount; ++group) {
    QUARRY_ASSIGN_OR_RETURN(Statement * statement, Shape(fmt::format("all/{}", group),
                                                         [group] { return GroupText(group); }));
    QUARRY_ASSIGN_OR_RETURN(Cursor cursor, Run(*statement));
    QUARRY_TRY(assembler.Read(group, cursor));
  }
  return std::move(assembler).Take();
}

Result<Statement*> ContactBook::Statements::SlotShape(std::array<Statement*, 8>& cache,
                                                      const char* kind, size_t slots,
                                                      const Text& sparql) {
  // 1, 16, 32, … kMaxUidsPerQuery: index 0 for one slot, else log2(slots) - 3.
  size_t index = 0;
  if (slots > 1) {
    for (size_t s = kShortUidList; s < slots; s *= 2) ++index;
    ++index;
  }
  if (index < cache.size() && cache[index] != nullptr) return cache[index];
  QUARRY_ASSIGN_OR_RETURN(Statement * statement,
                          Shape(fmt::format("{}/{}", kind, slots), sparql));
  if (index < cache.size()) cache[index] = statement;
  return statement;
}

Result<void> ContactBook::Statements::Buffer(Cursor& cursor, int key_column) {
  rows_.clear();
  bytes_.clear();
  while (true) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    BufferedRow& row = rows_.emplace_back();
    row.id = cursor.GetInteger(0);
    if (cursor.IsBound(1)) {
      const std::string_view record = cursor.GetString(1);
      row.has_record = true;
      row.record_at = bytes_.size();
      row.record_size = record.size();
      bytes_ += record;
    }
    if (key_column >= 0) {
      const std::string_view key = cursor.GetString(key_column);
      row.key_at = bytes_.size();
      row.key_size = key.size();
      bytes_ += key;
    }
  }
  return {};
}

void ContactBook::Statements::ReleaseBuffer() {
  if (bytes_.capacity() > kKeptBufferBytes) std::string().swap(bytes_);
  if (rows_.capacity() * sizeof(BufferedRow) > kKeptBufferBytes) {
    std::vector<BufferedRow>().swap(rows_);
  }
}

ContactBook::Statements::RecordRows ContactBook::Statements::Decode(
    const std::vector<size_t>& order) {
  RecordRows out;
  out.ids.resize(order.size());
  out.contacts.resize(order.size());  // made once, in place: no Contact moved on growth
  for (size_t i = 0; i < order.size(); ++i) {
    const BufferedRow& row = rows_[order[i]];
    Contact& contact = out.contacts[i];
    out.ids[i] = row.id;
    if (!row.has_record || !DecodeRecordInto(row.Record(bytes_), contact)) {
      contact = Contact{};  // a failed decode may have written part of it
      out.missing.push_back(i);
    }
  }
  ReleaseBuffer();
  return out;
}

ContactBook::Statements::RecordRows ContactBook::Statements::DecodeAll() {
  order_.resize(rows_.size());
  for (size_t i = 0; i < order_.size(); ++i) order_[i] = i;
  return Decode(order_);
}

Result<ContactBook::Statements::RecordRows> ContactBook::Statements::RecordsOfUids(
    const std::vector<std::string>& uids, size_t begin, size_t end) {
  const size_t slots = UidSlots(end - begin);
  QUARRY_ASSIGN_OR_RETURN(Statement * statement,
                          SlotShape(record_uids_, "uids/record", slots,
                                    [slots] { return RecordUidsText(slots); }));
  BindUids(*statement, uids, begin, end);
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, Run(*statement));
  QUARRY_TRY(Buffer(cursor, /*key_column=*/2));
  // The rows come in index order: put them in the order asked, each UID once (the first row
  // of a UID stored twice).
  order_.clear();
  if (rows_.size() <= kShortUidList) {
    std::array<bool, kShortUidList> used{};
    for (size_t i = begin; i < end; ++i) {
      for (size_t r = 0; r < rows_.size(); ++r) {
        if (rows_[r].Key(bytes_) != uids[i]) continue;
        if (!used[r]) order_.push_back(r);
        // Every row of this UID is spent: a UID asked twice gives its contact once.
        for (size_t k = r; k < rows_.size(); ++k) {
          if (rows_[k].Key(bytes_) == uids[i]) used[k] = true;
        }
        break;
      }
    }
  } else {
    std::unordered_map<std::string_view, size_t> of_uid;  // views into bytes_
    of_uid.reserve(rows_.size());
    for (size_t r = 0; r < rows_.size(); ++r) of_uid.emplace(rows_[r].Key(bytes_), r);
    for (size_t i = begin; i < end; ++i) {
      const auto found = of_uid.find(uids[i]);
      if (found == of_uid.end()) continue;
      order_.push_back(found->second);
      of_uid.erase(found);  // each once
    }
  }
  return Decode(order_);
}

Result<ContactBook::Statements::RecordRows> ContactBook::Statements::RecordsOfIds(
    const std::vector<int64_t>& ids, size_t begin, size_t end) {
  const size_t slots = UidSlots(end - begin);
  QUARRY_ASSIGN_OR_RETURN(Statement * statement,
                          SlotShape(record_ids_, "ids/record", slots,
                                    [slots] { return RecordIdsText(slots); }));
  const std::vector<std::string>& names = SlotNames('i');
  for (size_t i = 0; i < slots; ++i) {
    statement->BindInteger(names[i], ids[std::min(begin + i, end - 1)]);
  }
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, Run(*statement));
  QUARRY_TRY(Buffer(cursor, /*key_column=*/-1));
  // An ID without a row: a placeholder row without record (maybe no contact: Complete decides).
  std::unordered_map<int64_t, size_t> index_of;
  index_of.reserve(rows_.size());
  for (size_t r = 0; r < rows_.size(); ++r) index_of.emplace(rows_[r].id, r);
  order_.clear();
  for (size_t i = begin; i < end; ++i) {
    const auto at = index_of.find(ids[i]);
    if (at != index_of.end()) {
      order_.push_back(at->second);
      index_of.erase(at);  // each once: a repeated ID is read (or dropped) by Complete
      continue;
    }
    order_.push_back(rows_.size());
    BufferedRow& placeholder = rows_.emplace_back();
    placeholder.id = ids[i];
  }
  return Decode(order_);
}

Result<ContactBook::Statements::RecordRows> ContactBook::Statements::FindRecords(
    const ContactFilter& filter) {
  const KeyRange range = FilterRange(filter);
  std::string key = "find-records/";
  key += static_cast<char>('0' + static_cast<int>(filter.kind));
  QUARRY_ASSIGN_OR_RETURN(Statement * statement,
                          Shape(key, [&filter] { return FindRecordsText(filter.kind); }));
  statement->BindString("low", range.low);
  if (!range.high.empty()) statement->BindString("high", range.high);
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, Run(*statement));
  QUARRY_TRY(Buffer(cursor, /*key_column=*/-1));
  // Each contact once, at its first row (the order SQLite's DISTINCT gave): the IDs sorted
  // once to see whether any repeats (rarely: two names of one contact in the range).
  sorted_ids_.clear();
  for (const BufferedRow& row : rows_) sorted_ids_.push_back(row.id);
  std::sort(sorted_ids_.begin(), sorted_ids_.end());
  if (std::adjacent_find(sorted_ids_.begin(), sorted_ids_.end()) == sorted_ids_.end()) {
    return DecodeAll();
  }
  std::unordered_set<int64_t> seen;
  seen.reserve(rows_.size());
  order_.clear();
  for (size_t r = 0; r < rows_.size(); ++r) {
    if (seen.insert(rows_[r].id).second) order_.push_back(r);
  }
  return Decode(order_);
}

Result<ContactBook::Statements::RecordRows> ContactBook::Statements::AllRecords() {
  QUARRY_ASSIGN_OR_RETURN(Statement * statement, Shape("all/record", [] { return AllRecordsText(); }));
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, Run(*statement));
  QUARRY_TRY(Buffer(cursor, /*key_column=*/-1));
  return DecodeAll();
}

Result<ContactBook::Statements::RecordRows> ContactBook::Statements::Complete(RecordRows rows) {
  if (rows.missing.empty()) return rows;  // every row had its record
  std::vector<int64_t> missing;
  missing.reserve(rows.missing.size());
  for (const size_t at : rows.missing) missing.push_back(rows.ids[at]);
  QUARRY_ASSIGN_OR_RETURN(IdContacts natural, ReadIds(missing));
  std::unordered_map<int64_t, Contact*> read;
  read.reserve(natural.size());
  for (auto& [id, contact] : natural) read.emplace(id, &contact);
  // Missing rows filled from the nco reads, each once; the rest (no contact) dropped.
  std::vector<bool> drop(rows.contacts.size(), false);
  for (const size_t at : rows.missing) {
    const auto found = read.find(rows.ids[at]);
    if (found == read.end()) {
      drop[at] = true;
      continue;
    }
    rows.contacts[at] = std::move(*found->second);
    read.erase(found);
  }
  rows.missing.clear();
  size_t kept = 0;
  for (size_t i = 0; i < rows.contacts.size(); ++i) {
    if (drop[i]) continue;
    if (kept != i) {
      rows.ids[kept] = rows.ids[i];
      rows.contacts[kept] = std::move(rows.contacts[i]);
    }
    ++kept;
  }
  rows.ids.resize(kept);
  rows.contacts.erase(rows.contacts.begin() + static_cast<std::ptrdiff_t>(kept),
                      rows.contacts.end());
  return rows;
}

namespace {
// Appends `chunk` to `rows` (the missing positions shifted by the rows before it).
void Append(ContactBook::Statements::RecordRows& rows, ContactBook::Statements::RecordRows chunk) {
  if (rows.contacts.empty()) {
    rows = std::move(chunk);
    return;
  }
  const size_t offset = rows.contacts.size();
  for (const size_t at : chunk.missing) rows.missing.push_back(offset + at);
  rows.ids.insert(rows.ids.end(), chunk.ids.begin(), chunk.ids.end());
  std::move(chunk.contacts.begin(), chunk.contacts.end(), std::back_inserter(rows.contacts));
}

// Each contact of `rows` with its ID.
IdContacts Zip(ContactBook::Statements::RecordRows rows) {
  IdContacts out;
  out.reserve(rows.contacts.size());
  for (size_t i = 0; i < rows.contacts.size(); ++i) {
    out.emplace_back(rows.ids[i], std::move(rows.contacts[i]));
  }
  return out;
}
}  // namespace

Result<ContactBook::Statements::RecordRows> ContactBook::Statements::FetchUidsRows(
    const std::vector<std::string>& uids) {
  RecordRows rows;
  for (size_t begin = 0; begin < uids.size(); begin += kMaxUidsPerQuery) {
    QUARRY_ASSIGN_OR_RETURN(
        RecordRows chunk,
        RecordsOfUids(uids, begin, std::min(uids.size(), begin + kMaxUidsPerQuery)));
    Append(rows, std::move(chunk));
  }
  return Complete(std::move(rows));
}

Result<ContactBook::Statements::RecordRows> ContactBook::Statements::FetchIdsRows(
    const std::vector<int64_t>& ids) {
  RecordRows rows;
  for (size_t begin = 0; begin < ids.size(); begin += kMaxUidsPerQuery) {
    QUARRY_ASSIGN_OR_RETURN(RecordRows chunk,
                            RecordsOfIds(ids, begin, std::min(ids.size(), begin + kMaxUidsPerQuery)));
    Append(rows, std::move(chunk));
  }
  return Complete(std::move(rows));
}

Result<ContactBook::Statements::RecordRows> ContactBook::Statements::FindRows(
    const ContactFilter& filter) {
  QUARRY_ASSIGN_OR_RETURN(RecordRows rows, FindRecords(filter));
  return Complete(std::move(rows));
}

Result<ContactBook::Statements::RecordRows> ContactBook::Statements::FetchAllRows() {
  QUARRY_ASSIGN_OR_RETURN(RecordRows rows, AllRecords());
  return Complete(std::move(rows));
}

Result<IdContacts> ContactBook::Statements::FetchUids(const std::vector<std::string>& uids) {
  QUARRY_ASSIGN_OR_RETURN(RecordRows rows, FetchUidsRows(uids));
  return Zip(std::move(rows));
}

Result<IdContacts> ContactBook::Statements::FetchIds(const std::vector<int64_t>& ids) {
  QUARRY_ASSIGN_OR_RETURN(RecordRows rows, FetchIdsRows(ids));
  return Zip(std::move(rows));
}

Result<IdContacts> ContactBook::Statements::Find(const ContactFilter& filter) {
  QUARRY_ASSIGN_OR_RETURN(RecordRows rows, FindRows(filter));
  return Zip(std::move(rows));
}

Result<IdContacts> ContactBook::Statements::FetchAll() {
  QUARRY_ASSIGN_OR_RETURN(RecordRows rows, FetchAllRows());
  return Zip(std::move(rows));
}

}  // namespace quarry::contacts
