// Issue 7: how ContactBook reads whole contacts — the selector resolved to IDs once, then the
// field groups of that ID list read by one prepared statement (contact_statements.h); fetch
// all: one query per group. The number of statements does not grow with the number of
// contacts asked for, the read over an ID list is a search in SQLite's plan, and contacts come
// back whole, in the order asked.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "bench/phonebook/contact_generator.h"
#include "quarry/connection.h"
#include "quarry/contacts.h"
#include "store/client/contacts/contact_sparql.h"
#include "store/client/contacts/contact_statements.h"
#include "store/common/sparql_quote.h"
#include "tests/contacts/book_fixture.h"
#include "tests/support/temp_dir.h"

namespace quarry::contacts {
namespace {

struct ReadFixture : BookFixture {
  explicit ReadFixture(uint32_t count) { SaveGenerated(count); }
};

// UIDs of contacts spread over the book (a prime step), `count` of them.
std::vector<std::string> SpreadUids(uint32_t count, uint32_t book_size) {
  std::vector<std::string> uids;
  for (uint32_t k = 0; k < count; ++k)
    uids.push_back(bench::GenerateContact(k * 7919 % book_size).uid);
  return uids;
}

TEST_CASE("A fetch of N UIDs runs a fixed number of statements, whatever N") {
  ReadFixture f(300);
  for (const uint32_t n : {1u, 2u, 10u, 100u, 256u}) {
    CAPTURE(n);
    ContactBook::Statements statements(*f.connection);
    const auto uids = SpreadUids(n, 300);
    auto ids = statements.UidIds(uids, 0, uids.size());
    REQUIRE(ids.ok());
    REQUIRE(ids->size() == n);
    auto read = statements.ReadIds(*ids);
    REQUIRE_MESSAGE(read.ok(), (read ? "" : read.error().ToString()));
    // One statement resolves the UIDs, one reads their field groups.
    CHECK(statements.executions() == 2);
    REQUIRE(read->size() == n);
    for (size_t k = 0; k < n; ++k) {
      CAPTURE(uids[k]);
      CHECK((*read)[k].first == (*ids)[k]);
      CHECK(Canonical((*read)[k].second) ==
            Canonical(bench::GenerateContact(static_cast<uint32_t>(k) * 7919 % 300)));
    }
  }
  // Past one chunk: a second pair of statements, not one per contact.
  ContactBook::Statements statements(*f.connection);
  std::vector<int64_t> all_ids;
  const auto uids = SpreadUids(300, 300);
  for (size_t begin = 0; begin < uids.size(); begin += kMaxUidsPerQuery) {
    auto ids = statements.UidIds(uids, begin, std::min(uids.size(), begin + kMaxUidsPerQuery));
    REQUIRE(ids.ok());
    all_ids.insert(all_ids.end(), ids->begin(), ids->end());
  }
  auto read = statements.ReadIds(all_ids);
  REQUIRE(read.ok());
  CHECK(read->size() == 300);
  CHECK(statements.executions() == 4);
}

TEST_CASE("A short UID list is read by one statement, whole and in the order asked") {
  ReadFixture f(300);
  for (const uint32_t n : {1u, 2u, 10u, 16u}) {
    CAPTURE(n);
    ContactBook::Statements statements(*f.connection);
    auto uids = SpreadUids(n, 300);
    if (n > 1) uids[n / 2] = "nobody";  // unknown: skipped
    auto read = statements.ReadUids(uids, 0, uids.size());
    REQUIRE_MESSAGE(read.ok(), (read ? "" : read.error().ToString()));
    CHECK(statements.executions() == 1);
    REQUIRE(read->size() == (n > 1 ? n - 1 : 1));
    size_t k = 0;
    for (const auto& uid : uids) {
      if (uid == "nobody") continue;
      CAPTURE(uid);
      const auto i = static_cast<uint32_t>(std::stoul(uid.substr(8)));
      CHECK((*read)[k].second.uid == uid);
      CHECK(Canonical((*read)[k].second) == Canonical(bench::GenerateContact(i)));
      ++k;
    }
  }
}

TEST_CASE("List shapes: 1 slot, then 16, 32, 64, 128, 256") {
  CHECK(UidSlots(0) == 1);
  CHECK(UidSlots(1) == 1);
  CHECK(UidSlots(2) == kShortUidList);
  CHECK(UidSlots(16) == 16);
  CHECK(UidSlots(17) == 32);
  CHECK(UidSlots(100) == 128);
  CHECK(UidSlots(256) == 256);
  CHECK(UidSlots(1000) == 256);  // callers chunk by kMaxUidsPerQuery
  // Every list length up to 60 reuses one of four compiled read shapes (1, 16, 32, 64 slots),
  // the padded slots adding no contact and no duplicate.
  ReadFixture f(60);
  ContactBook::Statements statements(*f.connection);
  std::vector<int64_t> ids;
  {
    const auto uids = SpreadUids(60, 60);
    auto found = statements.UidIds(uids, 0, uids.size());
    REQUIRE(found.ok());
    ids = *found;
  }
  for (size_t n = 1; n <= ids.size(); ++n) {
    auto read = statements.ReadIds({ids.begin(), ids.begin() + static_cast<ptrdiff_t>(n)});
    REQUIRE(read.ok());
    REQUIRE(read->size() == n);
    for (size_t k = 0; k < n; ++k) CHECK((*read)[k].first == ids[k]);
  }
  CHECK(statements.prepared() == 1 + 4);  // the UID lookup (64 slots), and the ID-list shapes
}

TEST_CASE("Fetch all reads each field group once, whatever the number of contacts") {
  ReadFixture f(120);
  ContactBook::Statements statements(*f.connection);
  auto all = statements.ReadAll();
  REQUIRE(all.ok());
  CHECK(statements.executions() == kGroupCount);
  REQUIRE(all->size() == 120);
  for (const auto& [id, contact] : *all) {
    CAPTURE(contact.uid);
    const auto i = static_cast<uint32_t>(std::stoul(contact.uid.substr(8)));
    CHECK(Canonical(contact) == Canonical(bench::GenerateContact(i)));
  }
}

// The field groups as they were read before their single-valued fields became property
// functions (contact_sparql.cpp): one `OPTIONAL { ?x p ?v }` per field. The reference for the
// test below.
std::string OptionalContactsQuery(std::string_view selector) {
  const std::vector<std::pair<std::string_view, std::string_view>> groups = {
      {"c", "?c a nco:PersonContact ; nco:contactUID ?v1 OPTIONAL { ?c nco:fullname ?v2 } "
            "OPTIONAL { ?c nco:nameFamily ?v3 } OPTIONAL { ?c nco:nameGiven ?v4 } "
            "OPTIONAL { ?c nco:nameAdditional ?v5 } OPTIONAL { ?c nco:nameHonorificPrefix ?v6 } "
            "OPTIONAL { ?c nco:nameHonorificSuffix ?v7 } OPTIONAL { ?c nco:nickname ?v8 } "
            "OPTIONAL { ?c nco:birthDate ?v9 } OPTIONAL { ?c nco:photo ?v10 }"},
      {"o", "?c nco:hasAffiliation ?m OPTIONAL { ?m nco:title ?v1 } "
            "OPTIONAL { ?m nco:role ?v2 } OPTIONAL { ?m nco:department ?v3 }"},
      {"r", "?c nco:hasAffiliation ?a . ?a nco:org ?m . ?m nco:fullname ?v1"},
      {"e", "?c nco:hasEmailAddress ?m . ?m nco:emailAddress ?v1 OPTIONAL { ?m qco:mediumTypes ?v2 }"},
      {"t", "?c nco:hasPhoneNumber ?m . ?m nco:phoneNumber ?v1 OPTIONAL { ?m qco:mediumTypes ?v2 }"},
      {"a", "?c nco:hasPostalAddress ?m OPTIONAL { ?m nco:pobox ?v1 } "
            "OPTIONAL { ?m nco:extendedAddress ?v2 } OPTIONAL { ?m nco:streetAddress ?v3 } "
            "OPTIONAL { ?m nco:locality ?v4 } OPTIONAL { ?m nco:region ?v5 } "
            "OPTIONAL { ?m nco:postalcode ?v6 } OPTIONAL { ?m nco:country ?v7 } "
            "OPTIONAL { ?m qco:mediumTypes ?v8 }"},
      {"i", "?c nco:hasIMAddress ?m . ?m nco:imProtocol ?v1 ; nco:imID ?v2"},
      {"u", "?c nco:url ?v1"},
      {"n", "?c nco:note ?v1"},
      {"g", "?c nao:hasTag ?m . ?m nao:prefLabel ?v1"},
  };
  // Each row's group in ?k, the column ReadContacts decodes (it was one marker per group).
  std::vector<std::string> branches;
  for (size_t group = 0; group < groups.size(); ++group) {
    branches.push_back(fmt::format("{{ {} {} BIND({} AS ?k) }}", selector, groups[group].second, group));
  }
  return fmt::format(
      "{}SELECT ?v1 ?v2 ?v3 ?v4 ?v5 ?v6 ?v7 ?v8 ?v9 ?v10 tracker:id(?c) ?k WHERE {{\n{}\n}}",
      kSparqlPrefixes, fmt::join(branches, "\nUNION\n"));
}

TEST_CASE("Single-valued fields read by property functions: the contacts of the OPTIONAL reads") {
  ReadFixture f(40);
  // Beside the generated ones: a contact with every field, and one with almost none.
  Contact full = bench::GenerateContact(1000);
  full.uid = "full";
  full.name = {"Family", "Given", "Additional", "Dr.", "Jr."};
  full.nicknames = {"Nick", "Nack"};
  full.birthday = "1970-01-02";
  full.organization = "Org";
  full.department = "Dept;Unit";
  full.title = "Title";
  full.role = "Role";
  full.addresses = {{"PO 1", "Ext", "Street 1", "Town", "Region", "12345", "Land", {"home"}},
                    {"", "", "Street 2", "", "", "", "", {}}};
  full.ims = {{"xmpp", "full@example.org"}};
  full.urls = {"http://example.org/full"};
  full.notes = {"a note"};
  full.photo = "file:///photos/full.jpg";
  full.categories = {"friends", "work"};
  Contact sparse;
  sparse.uid = "sparse";
  sparse.emails = {{"sparse@example.org", {}}};
  REQUIRE(f.book->Save({full, sparse}).ok());
  std::string uids = "VALUES ?uid {";
  for (uint32_t i = 0; i < 40; ++i) uids += " " + SparqlString(bench::GenerateContact(i).uid);
  uids += " \"full\" \"sparse\" } ?c nco:contactUID ?uid .";
  const auto read = [&](const std::string& sparql) {
    auto cursor = f.connection->Query(sparql);
    REQUIRE_MESSAGE(cursor.ok(), (cursor ? "" : cursor.error().ToString()));
    auto rows = ReadContacts(*cursor);
    REQUIRE_MESSAGE(rows.ok(), (rows ? "" : rows.error().ToString()));
    std::map<int64_t, Contact> by_id;
    for (auto& [id, contact] : *rows) by_id.emplace(id, Canonical(std::move(contact)));
    return by_id;
  };
  const auto expected = read(OptionalContactsQuery(uids));
  auto actual = read(ContactsQuery(uids));
  REQUIRE(expected.size() == 42);
  // And each contact read alone by the book's one-UID shape (no ?uid: the selector is
  // `?c nco:contactUID ~u0`), the contact row's fields read from its joined nco:Contact row.
  std::map<int64_t, Contact> one_by_one;
  ContactBook::Statements statements(*f.connection);
  for (const auto& [id, contact] : expected) {
    auto one = statements.ReadUids({contact.uid}, 0, 1);
    REQUIRE_MESSAGE(one.ok(), (one ? "" : one.error().ToString()));
    REQUIRE(one->size() == 1);
    one_by_one.emplace((*one)[0].first, Canonical(std::move((*one)[0].second)));
  }
  for (const auto* reads : {&actual, &one_by_one}) {
    REQUIRE(reads->size() == expected.size());
    for (const auto& [id, contact] : expected) {
      CAPTURE(contact.uid);
      CAPTURE(reads == &one_by_one);
      REQUIRE(reads->count(id) == 1);
      const Contact& got = reads->at(id);
      // Field by field, so that a difference names its field.
      CHECK(got.uid == contact.uid);
      CHECK(got.full_name == contact.full_name);
      CHECK(got.name == contact.name);
      CHECK(got.nicknames == contact.nicknames);
      CHECK(got.birthday == contact.birthday);
      CHECK(got.organization == contact.organization);
      CHECK(got.department == contact.department);
      CHECK(got.title == contact.title);
      CHECK(got.role == contact.role);
      CHECK(got.emails == contact.emails);
      CHECK(got.phones == contact.phones);
      CHECK(got.addresses == contact.addresses);
      CHECK(got.ims == contact.ims);
      CHECK(got.urls == contact.urls);
      CHECK(got.notes == contact.notes);
      CHECK(got.photo == contact.photo);
      CHECK(got.categories == contact.categories);
    }
  }
  // And both are what was saved.
  for (const Contact& saved : {full, sparse}) {
    const auto found = std::find_if(actual.begin(), actual.end(),
                                    [&](const auto& entry) { return entry.second.uid == saved.uid; });
    REQUIRE(found != actual.end());
    CHECK(found->second == Canonical(saved));
  }
  // The single-valued fields of a joined row are no LEFT JOIN (a search of that row each).
  auto plan = f.connection->Explain(ContactBook::Statements::ReadUidsText(1));
  REQUIRE(plan.ok());
  const std::string sql = plan->substr(0, plan->find("Plan:"));
  CHECK(sql.find("LEFT JOIN") == std::string::npos);
  CHECK(sql.find("\"nco:nameFamily\" FROM") == std::string::npos);   // the PersonContact row's
  CHECK(sql.find("\"nco:streetAddress\" FROM") == std::string::npos);  // the address row's
  // nco:Contact's fields of the contact read from the row its UID was found in, not by a
  // sub-query each; one UID condition per branch (no second binding of the UID as ?uid).
  for (const char* field : {"fullname", "nickname", "birthDate", "photo"}) {
    CAPTURE(field);
    CHECK(sql.find(fmt::format("\"nco:{}\" FROM", field)) == std::string::npos);
  }
  CHECK(sql.find("v_uid") == std::string::npos);
}

TEST_CASE("The read of an ID list is a search in every field group, no scan") {
  ReadFixture f(40);
  for (const size_t slots : {size_t{1}, kShortUidList, kMaxUidsPerQuery}) {
    CAPTURE(slots);
    auto plan = f.connection->Explain(ContactBook::Statements::ReadIdsText(slots));
    REQUIRE_MESSAGE(plan.ok(), (plan ? "" : plan.error().ToString()));
    const std::string text = plan->substr(plan->find("Plan:"));
    CAPTURE(text);
    // Each of the groups starts at the listed IDs (the ID column of its first table).
    size_t searches_by_id = 0;
    for (size_t at = text.find("(ID=?)"); at != std::string::npos;
         at = text.find("(ID=?)", at + 1)) {
      ++searches_by_id;
    }
    // The contact row's branch starts at the rowid of its type table.
    CHECK(searches_by_id + 1 >= kGroupCount);
    // No table scanned (the UNION's own rows are "SCAN u…").
    CHECK(text.find("SCAN t") == std::string::npos);
    CHECK(text.find("MATERIALIZE") == std::string::npos);
  }
  auto uids = f.connection->Explain(ContactBook::Statements::FetchUidsText(16));
  REQUIRE(uids.ok());
  CHECK(uids->find("INDEX nco:Contact_nco:contactUID (nco:contactUID=?)") != std::string::npos);
}

TEST_CASE("The one-statement read of a short UID list looks each UID up by index in every group") {
  ReadFixture f(40);
  for (const size_t slots : {size_t{1}, kShortUidList}) {
    CAPTURE(slots);
    auto plan = f.connection->Explain(ContactBook::Statements::ReadUidsText(slots));
    REQUIRE_MESSAGE(plan.ok(), (plan ? "" : plan.error().ToString()));
    const std::string text = plan->substr(plan->find("Plan:"));
    CAPTURE(text);
    size_t uid_lookups = 0;
    constexpr std::string_view kLookup = "INDEX nco:Contact_nco:contactUID (nco:contactUID=?)";
    for (size_t at = text.find(kLookup); at != std::string::npos; at = text.find(kLookup, at + 1)) {
      ++uid_lookups;
    }
    CHECK(uid_lookups == kGroupCount);  // one per branch
    CHECK(text.find("SCAN t") == std::string::npos);
    // The only rows materialized are the VALUES list's (16 constant rows per branch).
    const auto count = [&](std::string_view what) {
      size_t n = 0;
      for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
      return n;
    };
    CHECK(count("MATERIALIZE") == count(fmt::format("SCAN {} CONSTANT ROWS", slots)));
  }
}

TEST_CASE("Fetching by UID keeps the order asked, by resource ID only contacts") {
  ReadFixture f(30);
  ContactBook book(*f.connection);
  const std::vector<std::string> asked = {"contact-000021", "contact-000003", "nobody",
                                          "contact-000017", "contact-000003"};
  auto fetched = book.FetchByUid(asked);
  REQUIRE(fetched.ok());
  std::vector<std::string> order;
  for (const auto& contact : *fetched) order.push_back(contact.uid);
  CHECK(order == std::vector<std::string>{"contact-000021", "contact-000003", "contact-000017"});

  // The ID of a contact's email is no contact: skipped, its owner read once.
  auto ids = f.connection->Query(
      "PREFIX nco: <http://tracker.api.gnome.org/ontology/v3/nco#> SELECT "
      "tracker:id(?c) "
      "tracker:id(?m) WHERE { ?c nco:contactUID \"contact-000004\" ; "
      "nco:hasEmailAddress ?m }");
  REQUIRE(ids.ok());
  auto row = ids->Next();
  REQUIRE((row.ok() && *row));
  const int64_t contact_id = ids->GetInteger(0);
  const int64_t email_id = ids->GetInteger(1);
  auto by_id = book.FetchByResourceId({email_id, contact_id, contact_id});
  REQUIRE(by_id.ok());
  REQUIRE(by_id->size() == 1);
  CHECK((*by_id)[0].first == contact_id);
  CHECK(Canonical((*by_id)[0].second) == Canonical(bench::GenerateContact(4)));
}

}  // namespace
}  // namespace quarry::contacts
