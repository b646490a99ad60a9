// Issue 7: the name, email and phone filters through quarry-store (the range bounds travel as
// D-Bus strings, which must be valid for D-Bus: no noncharacter such as U+10FFFF), by FD
// stream and plain D-Bus, find what the embedded book finds.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>

#include "bench/phonebook/contact_generator.h"
#include "quarry/contacts.h"
#include "tests/contacts/book_fixture.h"
#include "tests/support/bus_fixture.h"

namespace quarry::contacts {
namespace {

// A quarry-store on a private bus and a book on a bus connection to it.
struct StoreBook {
  testing::BusFixture bus;
  testing::TempDir dir;
  std::unique_ptr<Connection> connection;
  std::unique_ptr<ContactBook> book;
  StoreBook() {
    bus.StartStore(dir.path(), QUARRY_ONTOLOGY_DIR);
    auto opened = Connection::Bus(bus.options());
    REQUIRE(opened.ok());
    connection = std::move(*opened);
    book = std::make_unique<ContactBook>(*connection);
  }
};

std::vector<Contact> Generated(uint32_t count) {
  std::vector<Contact> contacts;
  for (uint32_t i = 0; i < count; ++i) contacts.push_back(bench::GenerateContact(i));
  return contacts;
}

TEST_CASE("Filters through quarry-store: name prefix and suffix, email, phone suffix") {
  StoreBook store;
  ContactBook& book = *store.book;
  const auto saved = book.Save(Generated(40));
  REQUIRE_MESSAGE(saved.ok(), (saved ? "" : saved.error().ToString()));
  using Kind = ContactFilter::Kind;
  for (const QueryTransport transport : {QueryTransport::kFdStream, QueryTransport::kPlainDBus}) {
    CAPTURE(static_cast<int>(transport));
    store.connection->SetQueryTransport(transport);
    CHECK(FoundUids(book, {Kind::kNamePrefix, "LOVELACE1"}) == std::vector<std::string>{"contact-000016"});
    CHECK(FoundUids(book, {Kind::kNamePrefix, "Müll"}) ==
          std::vector<std::string>{"contact-000009", "contact-000025"});
    CHECK(FoundUids(book, {Kind::kNameSuffix, "RCÍA1"}) == std::vector<std::string>{"contact-000024"});
    CHECK(FoundUids(book, {Kind::kEmail, "Person7@Work.Example"}) == std::vector<std::string>{"contact-000007"});
    CHECK(FoundUids(book, {Kind::kPhoneSuffix, "030 1000444"}) == std::vector<std::string>{"contact-000012"});
  }
}

TEST_CASE("A large save through quarry-store streams: every contact, replaced on a second save") {
  StoreBook store;
  ContactBook& book = *store.book;
  std::vector<Contact> contacts = Generated(450);
  auto saved = book.Save(contacts);  // 3 INSERT DATA requests through Resources.UpdateStream
  REQUIRE_MESSAGE(saved.ok(), (saved ? "" : saved.error().ToString()));
  auto all = book.FetchAll();
  REQUIRE(all.ok());
  CHECK(all->size() == 450);
  // Again with other names: 450 deletes, then the inserts, in the one streamed transaction.
  for (Contact& contact : contacts) contact.full_name += " Second";
  saved = book.Save(contacts);
  REQUIRE_MESSAGE(saved.ok(), (saved ? "" : saved.error().ToString()));
  auto again = book.FetchByUid({"contact-000000", "contact-000449"});
  REQUIRE(again.ok());
  REQUIRE(again->size() == 2);
  CHECK((*again)[0].full_name == contacts[0].full_name);
  CHECK((*again)[1].full_name == contacts[449].full_name);
  all = book.FetchAll();
  REQUIRE(all.ok());
  CHECK(all->size() == 450);
  // A contact without a UID fails the save before anything is sent: nothing changes.
  contacts.push_back(bench::GenerateContact(450));
  contacts.back().uid.clear();
  CHECK_FALSE(book.Save(contacts).ok());
  all = book.FetchAll();
  REQUIRE(all.ok());
  CHECK(all->size() == 450);
}

}  // namespace
}  // namespace quarry::contacts
