#include "store/client/contacts/contact_statements.h"

#include <fmt/format.h>

#include <unordered_map>

#include "store/client/contacts/contact_keys.h"
#include "store/client/contacts/contact_sparql.h"

namespace quarry::contacts {
namespace {

// `VALUES ?uid { ~u0 ~u1 … }`: parameters where a list of literals would go.
std::string UidSlotsValues(size_t slots) {
  std::string values = "VALUES ?uid {";
  for (size_t i = 0; i < slots; ++i) values += fmt::format(" ~u{}", i);
  return values + " }";
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
  size_t slots = 1;
  while (slots < count && slots < kMaxUidsPerQuery) slots *= 2;
  return slots;
}

std::string ContactBook::Statements::FetchUidsText(size_t slots) {
  // One UID: a parameter in the triple is a typed index lookup on nco:contactUID.
  const std::string selector = slots == 1 ? "?c nco:contactUID ~u0 , ?uid ."
                                          : UidSlotsValues(slots) + " ?c nco:contactUID ?uid .";
  return fmt::format("{}SELECT ?uid tracker:id(?c) WHERE {{ {} }}", kSparqlPrefixes, selector);
}

std::string ContactBook::Statements::FindText(ContactFilter::Kind kind) {
  return fmt::format("{}SELECT tracker:id(?c) WHERE {{ {} }}", kSparqlPrefixes,
                     SearchSelector(kind));
}

std::string ContactBook::Statements::ReadIdsText(size_t slots) {
  return ContactsQuery(IdRestriction(slots));
}

std::string ContactBook::Statements::GroupText(size_t group) { return GroupQuery(group, ""); }

Result<Statement*> ContactBook::Statements::Shape(const std::string& key,
                                                  const std::string& sparql) {
  auto found = prepared_.find(key);
  if (found == prepared_.end()) {
    QUARRY_ASSIGN_OR_RETURN(Statement statement, connection_.Prepare(sparql));
    found = prepared_.emplace(key, std::move(statement)).first;
  }
  return &found->second;
}

Result<Cursor> ContactBook::Statements::Run(Statement& statement) {
  ++executions_;
  return statement.Execute();
}

Result<Cursor> ContactBook::Statements::RunUids(const std::string& key, const std::string& sparql,
                                                const std::vector<std::string>& uids, size_t begin,
                                                size_t end) {
  const size_t slots = UidSlots(end - begin);
  QUARRY_ASSIGN_OR_RETURN(Statement * statement, Shape(key, sparql));
  for (size_t i = 0; i < slots; ++i) {
    statement->BindString(fmt::format("u{}", i), begin + i < end ? uids[begin + i] : std::string());
  }
  return Run(*statement);
}

Result<std::vector<int64_t>> ContactBook::Statements::UidIds(const std::vector<std::string>& uids,
                                                             size_t begin, size_t end) {
  const size_t slots = UidSlots(end - begin);
  QUARRY_ASSIGN_OR_RETURN(
      Cursor cursor, RunUids(fmt::format("ids/{}", slots), FetchUidsText(slots), uids, begin, end));
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
  const std::string selector = slots == 1 ? "?c nco:contactUID ~u0 , ?uid"
                                          : UidSlotsValues(slots) + " ?c nco:contactUID ?uid";
  return RunUids(fmt::format("exists/{}", slots),
                 fmt::format("{}SELECT ?uid WHERE {{ {} }}", kSparqlPrefixes, selector), uids,
                 begin, end);
}

Result<std::vector<int64_t>> ContactBook::Statements::FindIds(const ContactFilter& filter) {
  const KeyRange range = FilterRange(filter);
  QUARRY_ASSIGN_OR_RETURN(
      Statement * statement,
      Shape(fmt::format("find/{}", static_cast<int>(filter.kind)), FindText(filter.kind)));
  statement->BindString("low", range.low);
  if (!range.high.empty()) statement->BindString("high", range.high);
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, Run(*statement));
  std::vector<int64_t> ids;
  while (true) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, cursor.Next());
    if (!has_row) break;
    ids.push_back(cursor.GetInteger(0));
  }
  return ids;
}

Result<void> ContactBook::Statements::ReadChunk(const std::vector<int64_t>& ids, size_t begin,
                                                size_t end, IdContacts& out) {
  const size_t slots = UidSlots(end - begin);
  QUARRY_ASSIGN_OR_RETURN(Statement * statement,
                          Shape(fmt::format("ids/read/{}", slots), ReadIdsText(slots)));
  for (size_t i = 0; i < slots; ++i) {
    statement->BindInteger(fmt::format("i{}", i), begin + i < end ? ids[begin + i] : 0);
  }
  QUARRY_ASSIGN_OR_RETURN(Cursor cursor, Run(*statement));
  QUARRY_ASSIGN_OR_RETURN(auto rows, ReadContacts(cursor));
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
  for (size_t begin = 0; begin < ids.size(); begin += kMaxUidsPerQuery) {
    QUARRY_TRY(ReadChunk(ids, begin, std::min(ids.size(), begin + kMaxUidsPerQuery), contacts));
  }
  return contacts;
}

Result<IdContacts> ContactBook::Statements::ReadAll() {
  ContactAssembler assembler;
  for (size_t group = 0; group < kGroupCount; ++group) {
    QUARRY_ASSIGN_OR_RETURN(Statement * statement,
                            Shape(fmt::format("all/{}", group), GroupText(group)));
    QUARRY_ASSIGN_OR_RETURN(Cursor cursor, Run(*statement));
    QUARRY_TRY(assembler.Read(group, cursor));
  }
  return std::move(assembler).Take();
}

}  // namespace quarry::contacts
