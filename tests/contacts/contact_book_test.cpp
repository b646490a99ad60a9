// Issue 7: ContactBook on an embedded store — batch save, fetch all / by UID, the four filters
// (each an index lookup, checked in SQLite's plan), replace and remove.
#include <doctest/doctest.h>

#include <algorithm>

#include "bench/phonebook/contact_generator.h"
#include "quarry/connection.h"
#include "quarry/contacts.h"
#include "store/client/contacts/contact_statements.h"
#include "tests/contacts/book_fixture.h"
#include "tests/support/temp_dir.h"

namespace quarry::contacts {
namespace {

std::vector<std::string> Uids(const std::vector<Contact>& contacts) {
  std::vector<std::string> uids;
  for (const auto& c : contacts) uids.push_back(c.uid);
  std::sort(uids.begin(), uids.end());
  return uids;
}

TEST_CASE("ContactBook: saved contacts read back equal, all and by UID") {
  BookFixture f;
  f.SaveGenerated(60);
  auto all = f.book->FetchAll();
  REQUIRE(all.ok());
  REQUIRE(all->size() == 60);
  for (const auto& contact : *all) {
    const uint32_t i = static_cast<uint32_t>(std::stoul(contact.uid.substr(8)));
    CAPTURE(contact.uid);
    CHECK(Canonical(contact) == Canonical(bench::GenerateContact(i)));
  }
  auto some = f.book->FetchByUid({"contact-000007", "contact-000042", "missing"});
  REQUIRE(some.ok());
  CHECK(Uids(*some) == std::vector<std::string>{"contact-000007", "contact-000042"});
}

TEST_CASE("ContactBook: saving a UID again replaces the contact, Remove deletes it") {
  BookFixture f;
  f.SaveGenerated(5);
  Contact changed = bench::GenerateContact(3);
  changed.emails = {{"new@example.org", {"work"}}};
  changed.phones.clear();
  changed.full_name = "Changed Name";
  REQUIRE(f.book->Save({changed}).ok());
  auto fetched = f.book->FetchByUid({changed.uid});
  REQUIRE(fetched.ok());
  REQUIRE(fetched->size() == 1);
  CHECK(Canonical((*fetched)[0]) == Canonical(changed));
  CHECK(f.FoundUids(ContactFilter::Kind::kEmail, "3.3@example.org").empty());
  CHECK(f.FoundUids(ContactFilter::Kind::kEmail, "NEW@example.org") ==
        std::vector<std::string>{changed.uid});

  REQUIRE(f.book->Remove({changed.uid, "contact-000001"}).ok());
  auto all = f.book->FetchAll();
  REQUIRE(all.ok());
  CHECK(Uids(*all) == std::vector<std::string>{"contact-000000", "contact-000002", "contact-000004"});
  CHECK(f.FoundUids(ContactFilter::Kind::kEmail, "new@example.org").empty());
}

TEST_CASE("ContactBook: a UID that needs escaping keeps its media apart from others") {
  // The batch text writes the contact's IRI and its media IRIs (#email-0 …) in place: the
  // escaped UID must lead to the same resources when saved, replaced and read back.
  BookFixture f;
  Contact odd = bench::GenerateContact(5);
  odd.uid = "odd uid <#5> {ü}|\"x\"";
  Contact plain = bench::GenerateContact(6);
  REQUIRE(f.book->Save({odd, plain}).ok());
  odd.emails.push_back({"second@example.org", {"home"}});
  REQUIRE(f.book->Save({odd}).ok());
  auto fetched = f.book->FetchByUid({odd.uid, plain.uid});
  REQUIRE(fetched.ok());
  REQUIRE(fetched->size() == 2);
  for (const auto& contact : *fetched) {
    CAPTURE(contact.uid);
    CHECK(Canonical(contact) == Canonical(contact.uid == odd.uid ? odd : plain));
  }
  CHECK(f.FoundUids(ContactFilter::Kind::kEmail, "second@example.org") ==
        std::vector<std::string>{odd.uid});
}

TEST_CASE("ContactBook: a contact without UID is refused and nothing is saved") {
  BookFixture f;
  Contact nameless = bench::GenerateContact(1);
  nameless.uid.clear();
  const auto saved = f.book->Save({bench::GenerateContact(0), nameless});
  REQUIRE_FALSE(saved.ok());
  CHECK(saved.error().message().find("no UID") != std::string::npos);
  auto all = f.book->FetchAll();
  REQUIRE(all.ok());
  CHECK(all->empty());
}

TEST_CASE("ContactBook filters: name prefix and suffix, email, phone suffix") {
  BookFixture f;
  f.SaveGenerated(40);
  using Kind = ContactFilter::Kind;
  SUBCASE("name prefix, case-folded, on any name, longer than the stored keys") {
    // Family names cycle every 16 contacts: 0, 16, 32 are Lovelace0, Lovelace1, Lovelace2.
    CHECK(f.FoundUids(Kind::kNamePrefix, "lovelace") ==
          std::vector<std::string>{"contact-000000", "contact-000016", "contact-000032"});
    CHECK(f.FoundUids(Kind::kNamePrefix, "LOVELACE1") == std::vector<std::string>{"contact-000016"});
    CHECK(f.FoundUids(Kind::kNamePrefix, "Müll") ==
          std::vector<std::string>{"contact-000009", "contact-000025"});
  }
  SUBCASE("name suffix") {
    CHECK(f.FoundUids(Kind::kNameSuffix, "RCÍA0") == std::vector<std::string>{"contact-000008"});
    CHECK(f.FoundUids(Kind::kNameSuffix, "garcía1") == std::vector<std::string>{"contact-000024"});
    CHECK(f.FoundUids(Kind::kNameSuffix, "ace0") == std::vector<std::string>{"contact-000000"});
  }
  SUBCASE("email, exact and case-insensitive") {
    CHECK(f.FoundUids(Kind::kEmail, "Person7@Work.Example") == std::vector<std::string>{"contact-000007"});
    CHECK(f.FoundUids(Kind::kEmail, "person7@work").empty());
  }
  SUBCASE("phone: a national number finds the international one by its last digits") {
    const std::string stored = bench::GenerateContact(12).phones[0].number;  // +49 30 1000444
    CHECK(stored == "+49 30 1000444");
    CHECK(f.FoundUids(Kind::kPhoneSuffix, "030 1000444") == std::vector<std::string>{"contact-000012"});
    CHECK(f.FoundUids(Kind::kPhoneSuffix, "0049-30-100-0444") ==
          std::vector<std::string>{"contact-000012"});
    CHECK(f.FoundUids(Kind::kPhoneSuffix, "030 1000445").empty());
  }
}

TEST_CASE("FindUids answers the UIDs of Find's contacts, for every filter, from the index") {
  BookFixture f;
  f.SaveGenerated(40);
  using Kind = ContactFilter::Kind;
  const ContactFilter filters[] = {
      {Kind::kNamePrefix, "l"},         {Kind::kNamePrefix, "LOVELACE"},
      {Kind::kNamePrefix, "Müll"},      {Kind::kNamePrefix, "zzz"},
      {Kind::kNameSuffix, "rcía0"},     {Kind::kNameSuffix, "0"},
      {Kind::kEmail, "Person7@Work.Example"}, {Kind::kEmail, "person7@work"},
      {Kind::kPhoneSuffix, "030 1000444"},    {Kind::kPhoneSuffix, "4"}};
  size_t nonempty = 0;
  for (const ContactFilter& filter : filters) {
    CAPTURE(filter.text);
    auto uids = f.book->FindUids(filter);
    REQUIRE_MESSAGE(uids.ok(), (uids ? "" : uids.error().ToString()));
    std::vector<std::string> sorted = *uids;
    std::sort(sorted.begin(), sorted.end());
    CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());  // each once
    CHECK(sorted == FoundUids(*f.book, filter));
    nonempty += sorted.empty() ? 0 : 1;
  }
  CHECK(nonempty >= 6);  // not vacuous: most of the filters find contacts
  CHECK(f.book->FindUids({Kind::kNamePrefix, "l"})->size() > 3);  // shared prefix, many names
  CHECK(!f.book->FindUids({Kind::kPhoneSuffix, "no digits"}).ok());
  // The UID statement searches the same key index, and reads the UID by the contact's ID.
  for (const Kind kind : {Kind::kNamePrefix, Kind::kNameSuffix, Kind::kEmail, Kind::kPhoneSuffix}) {
    auto plan = f.connection->Explain(ContactBook::FindUidsQuery({kind, "abc1234"}));
    REQUIRE_MESSAGE(plan.ok(), (plan ? "" : plan.error().ToString()));
    const std::string text = plan->substr(plan->find("Plan:"));
    CAPTURE(text);
    CHECK(text.find(kind == Kind::kEmail ? "(qco:emailKey=?)" : "Key<?)") != std::string::npos);
    CHECK(text.find("SCAN t") == std::string::npos);
  }
}

TEST_CASE("Every filter is an index search in SQLite's plan, never a scan of the keys") {
  BookFixture f;
  f.SaveGenerated(3);
  using Kind = ContactFilter::Kind;
  // Name prefix, name suffix and phone suffix: a range between two bounds of one index;
  // email: an equality. COVERING: the key tables are WITHOUT ROWID, so the value index holds
  // the contact's ID and no table row is read.
  const std::pair<Kind, std::string> filters[] = {
      {Kind::kNamePrefix, "USING COVERING INDEX nco:PersonContact_qco:nameKey_qco:nameKey "
                          "(qco:nameKey>? AND qco:nameKey<?)"},
      {Kind::kNameSuffix, "USING COVERING INDEX nco:PersonContact_qco:reversedNameKey_"
                          "qco:reversedNameKey (qco:reversedNameKey>? AND qco:reversedNameKey<?)"},
      {Kind::kEmail, "USING COVERING INDEX nco:PersonContact_qco:emailKey_qco:emailKey (qco:emailKey=?)"},
      {Kind::kPhoneSuffix, "USING COVERING INDEX nco:PersonContact_qco:reversedPhoneKey_"
                           "qco:reversedPhoneKey (qco:reversedPhoneKey>? AND qco:reversedPhoneKey<?)"}};
  for (const auto& [kind, search] : filters) {
    auto plan = f.connection->Explain(ContactBook::FindQuery({kind, "abc1234"}));
    REQUIRE_MESSAGE(plan.ok(), (plan ? "" : plan.error().ToString()));
    const std::string text = plan->substr(plan->find("Plan:"));
    CAPTURE(text);
    CHECK(text.find(search) != std::string::npos);
    CHECK(text.find("SCAN t") == std::string::npos);
  }
  auto by_uid = f.connection->Explain(
      "PREFIX nco: <http://tracker.api.gnome.org/ontology/v3/nco#> "
      "SELECT ?c { VALUES ?u { \"a\" \"b\" } ?c nco:contactUID ?u }");
  REQUIRE(by_uid.ok());
  CHECK(by_uid->find("INDEX nco:Contact_nco:contactUID (nco:contactUID=?)") != std::string::npos);
}

TEST_CASE("The prepared shapes look up indexes too: UIDs bound as parameters, filter keys") {
  BookFixture f;
  f.SaveGenerated(3);
  for (const size_t slots : {size_t{1}, size_t{4}, kMaxUidsPerQuery}) {
    CAPTURE(slots);
    auto plan = f.connection->Explain(ContactBook::Statements::FetchUidsText(slots));
    REQUIRE_MESSAGE(plan.ok(), (plan ? "" : plan.error().ToString()));
    CHECK(plan->find("INDEX nco:Contact_nco:contactUID (nco:contactUID=?)") != std::string::npos);
  }
  auto find = f.connection->Explain(ContactBook::Statements::FindText(ContactFilter::Kind::kEmail));
  REQUIRE(find.ok());
  CHECK(find->find("USING COVERING INDEX nco:PersonContact_qco:emailKey_qco:emailKey "
                   "(qco:emailKey=?)") != std::string::npos);
  CHECK(UidSlots(1) == 1);
  CHECK(UidSlots(3) == kShortUidList);
  CHECK(UidSlots(100) == 128);
  CHECK(UidSlots(5000) == kMaxUidsPerQuery);
}

TEST_CASE("Fetching by UID: lists longer than one query, padding and duplicates") {
  BookFixture f;
  f.SaveGenerated(300);
  std::vector<std::string> uids;
  for (uint32_t i = 0; i < 300; ++i) uids.push_back(bench::GenerateContact(299 - i).uid);
  auto all = f.book->FetchByUid(uids);  // 256 + 44 (padded to 64 slots)
  REQUIRE(all.ok());
  CHECK(all->size() == 300);
  auto three = f.book->FetchByUid({"contact-000005", "", "contact-000009"});
  REQUIRE(three.ok());
  CHECK(Uids(*three) == std::vector<std::string>{"contact-000005", "contact-000009"});
  auto twice = f.book->FetchByUid({"contact-000005", "contact-000005"});
  REQUIRE(twice.ok());
  REQUIRE(twice->size() == 1);
  CHECK(Canonical((*twice)[0]) == Canonical(bench::GenerateContact(5)));
}

}  // namespace
}  // namespace quarry::contacts
