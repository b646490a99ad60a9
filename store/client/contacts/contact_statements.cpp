#include "store/client/contacts/contact_statements.h"

#include <fmt/format.h>

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

}  // namespace

size_t UidSlots(size_t count) {
  size_t slots = 1;
  while (slots < count && slots < kMaxUidsPerQuery) slots *= 2;
  return slots;
}

std::string ContactBook::Statements::FetchUidsText(size_t slots) {
  // One UID: a parameter in the triple is a typed index lookup on nco:contactUID.
  if (slots == 1) return ContactsQuery("?c nco:contactUID ~u0 .");
  return ContactsQuery(UidSlotsValues(slots) + " ?c nco:contactUID ?uid .");
}

std::string ContactBook::Statements::FindText(ContactFilter::Kind kind) {
  return ContactsQuery(SearchSelector(kind));
}

Result<Statement*> ContactBook::Statements::Shape(const std::string& key,
                                                  const std::string& sparql) {
  auto found = prepared_.find(key);
  if (found == prepared_.end()) {
    QUARRY_ASSIGN_OR_RETURN(Statement statement, connection_.Prepare(sparql));
    found = prepared_.emplace(key, std::move(statement)).first;
  }
  return &found->second;
}

Result<Cursor> ContactBook::Statements::RunUids(const std::string& key, const std::string& sparql,
                                                const std::vector<std::string>& uids,
                                                size_t begin, size_t end) {
  const size_t slots = UidSlots(end - begin);
  QUARRY_ASSIGN_OR_RETURN(Statement * statement, Shape(key, sparql));
  for (size_t i = 0; i < slots; ++i) {
    statement->BindString(fmt::format("u{}", i), begin + i < end ? uids[begin + i] : std::string());
  }
  return statement->Execute();
}

Result<Cursor> ContactBook::Statements::FetchUids(const std::vector<std::string>& uids,
                                                  size_t begin, size_t end) {
  const size_t slots = UidSlots(end - begin);
  return RunUids(fmt::format("fetch/{}", slots), FetchUidsText(slots), uids, begin, end);
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

Result<Cursor> ContactBook::Statements::Find(const ContactFilter& filter) {
  const KeyRange range = FilterRange(filter);
  QUARRY_ASSIGN_OR_RETURN(Statement * statement, Shape(fmt::format("find/{}", static_cast<int>(filter.kind)),
                                                       FindText(filter.kind)));
  statement->BindString("low", range.low);
  if (!range.high.empty()) statement->BindString("high", range.high);
  return statement->Execute();
}

}  // namespace quarry::contacts
