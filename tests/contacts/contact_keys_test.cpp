// Issue 7: the search keys (contact_keys.h) — one key row per distinct name, email and phone
// number; name prefix, name suffix and phone suffix searched as index ranges that hold only
// matching contacts (no longer keys truncated to 8 characters that the book re-checks).
#include <doctest/doctest.h>

#include <algorithm>

#include "bench/phonebook/contact_generator.h"
#include "quarry/connection.h"
#include "quarry/contacts.h"
#include "store/client/contacts/contact_keys.h"
#include "store/client/contacts/contact_sparql.h"
#include "tests/contacts/book_fixture.h"
#include "tests/support/temp_dir.h"

namespace quarry::contacts {
namespace {

using Kind = ContactFilter::Kind;

TEST_CASE("KeysOf: folded names, reversed names, emails, reversed digits, none covered by another") {
  Contact c;
  c.full_name = "Jürgen Müller";
  c.name.given = "Jürgen";
  c.name.family = "MÜLLER";
  c.nicknames = {"jürgen", "Jü"};  // the first folds to the given name: one key
  c.emails = {{"A@Example.org", {}}, {"a@example.org", {"work"}}};
  c.phones = {{"+49 (30) 123-4567", {}}, {"0049 30 1234567", {}}};
  const ContactKeys keys = KeysOf(c);
  // "jürgen" and "jü" start "jürgen müller": a prefix search for them finds the full name.
  CHECK(keys.names == std::vector<std::string>{"jürgen müller", "müller"});
  // "rellüm" (müller reversed) starts "rellüm negrüj": a suffix search finds the full name.
  CHECK(keys.reversed_names == std::vector<std::string>{"rellüm negrüj", "negrüj", "üj"});
  CHECK(keys.emails == std::vector<std::string>{"a@example.org"});
  // The first number's digits end the second's.
  CHECK(keys.reversed_phones == std::vector<std::string>{"7654321039400"});
  CHECK(ReverseCodePoints("añb€") == "€bña");
  CHECK(ReverseCodePoints("") == "");
}

TEST_CASE("FilterRange: prefix ranges end above every character, email is an equality") {
  const KeyRange prefix = FilterRange({Kind::kNamePrefix, "MÜ"});
  CHECK(prefix.predicate == "qco:nameKey");
  CHECK(prefix.low == "mü");
  CHECK(prefix.high == "mü\U0010FFFD");
  const KeyRange suffix = FilterRange({Kind::kNameSuffix, "CÍA0"});
  CHECK(suffix.predicate == "qco:reversedNameKey");
  CHECK(suffix.low == "0aíc");
  const KeyRange phone = FilterRange({Kind::kPhoneSuffix, "030 1234567"});
  CHECK(phone.predicate == "qco:reversedPhoneKey");
  CHECK(phone.low == "7654321");  // the last 7 digits, reversed
  const KeyRange email = FilterRange({Kind::kEmail, "Ada@Example.org"});
  CHECK(email.low == "ada@example.org");
  CHECK(email.high.empty());
  CHECK(FilterRange({Kind::kPhoneSuffix, "no digits"}).low.empty());
}

struct Book : BookFixture {
  // The UIDs the search alone finds (the selector of Find, no check of the contacts after it).
  std::vector<std::string> Searched(const ContactFilter& filter) {
    std::string text = fmt::format("{}SELECT ?uid WHERE {{ {} ?c nco:contactUID ?uid }} ORDER BY ?uid",
                                   kSparqlPrefixes, SearchSelector(filter.kind));
    auto statement = connection->Prepare(text);
    REQUIRE_MESSAGE(statement.ok(), (statement ? "" : statement.error().ToString()));
    const KeyRange range = FilterRange(filter);
    statement->BindString("low", range.low);
    if (!range.high.empty()) statement->BindString("high", range.high);
    auto cursor = statement->Execute();
    REQUIRE_MESSAGE(cursor.ok(), (cursor ? "" : cursor.error().ToString()));
    std::vector<std::string> uids;
    while (*cursor->Next()) uids.emplace_back(cursor->GetString(0));
    return uids;
  }
};

TEST_CASE("The key search alone finds exactly the matching contacts, each once") {
  Book b;
  std::vector<Contact> contacts;
  for (uint32_t i = 0; i < 40; ++i) contacts.push_back(bench::GenerateContact(i));
  Contact lena;  // FN, given and family all start with "l": still one row, one contact
  lena.uid = "lena";
  lena.full_name = "Lena Lovelace";
  lena.name = {"Lovelace", "Lena", "", "", ""};
  lena.emails = {{"lena@example.org", {}}};
  contacts.push_back(lena);
  REQUIRE(b.book->Save(contacts).ok());
  // Longer than the 8-character keys of before: the range holds Lovelace1 only, not every
  // Lovelace (0, 16, 32 and "lena").
  CHECK(b.Searched({Kind::kNamePrefix, "LOVELACE1"}) == std::vector<std::string>{"contact-000016"});
  CHECK(b.Searched({Kind::kNamePrefix, "lovelace"}) ==
        std::vector<std::string>{"contact-000000", "contact-000016", "contact-000032", "lena"});
  CHECK(b.Searched({Kind::kNamePrefix, "müll"}) ==
        std::vector<std::string>{"contact-000009", "contact-000025"});
  CHECK(b.Searched({Kind::kNameSuffix, "ovelace"}) == std::vector<std::string>{"lena"});
  CHECK(b.Searched({Kind::kNameSuffix, "rcía1"}) == std::vector<std::string>{"contact-000024"});
  // +49 30 1000444 (contact 12); a short number matches by its digits too.
  CHECK(b.Searched({Kind::kPhoneSuffix, "030 1000444"}) == std::vector<std::string>{"contact-000012"});
  CHECK(b.Searched({Kind::kPhoneSuffix, "0444"}) == std::vector<std::string>{"contact-000012"});
  CHECK(b.Searched({Kind::kEmail, "LENA@example.org"}) == std::vector<std::string>{"lena"});

  auto found = b.book->Find({Kind::kNamePrefix, "l"});
  REQUIRE(found.ok());
  const auto it = std::find_if(found->begin(), found->end(), [](const Contact& c) { return c.uid == "lena"; });
  REQUIRE(it != found->end());
  CHECK(it->emails.size() == 1);  // not one copy per matching name
  CHECK(std::count_if(found->begin(), found->end(), [](const Contact& c) { return c.uid == "lena"; }) == 1);
}

TEST_CASE("Saving a contact again replaces its keys") {
  Book b;
  Contact c = bench::GenerateContact(3);
  REQUIRE(b.book->Save({c}).ok());
  c.name.family = "Renamed";
  c.full_name = "Dmitri Renamed";
  c.phones = {{"+1 555 0101", {}}};
  REQUIRE(b.book->Save({c}).ok());
  CHECK(b.Searched({Kind::kNamePrefix, "ivanov"}).empty());
  CHECK(b.Searched({Kind::kNamePrefix, "renam"}) == std::vector<std::string>{c.uid});
  CHECK(b.Searched({Kind::kNameSuffix, "named"}) == std::vector<std::string>{c.uid});
  CHECK(b.Searched({Kind::kPhoneSuffix, "5550101"}) == std::vector<std::string>{c.uid});
  CHECK(b.Searched({Kind::kPhoneSuffix, "1000111"}).empty());
}

TEST_CASE("Retired keys of an older address book stay declared and go on the next save") {
  // Before the range keys, a save wrote qco:namePrefixKey, qco:nameSuffixKey and
  // qco:phoneSuffixKey. A database holding them must still open (the migration refuses to
  // drop a property with values), and saving the contact again must remove them.
  Book b;
  Contact c = bench::GenerateContact(5);
  REQUIRE(b.book->Save({c}).ok());
  const std::string iri = "<" + ContactIri(c.uid) + ">";
  auto old = b.connection->Update(fmt::format(
      "{}INSERT DATA {{ {} qco:namePrefixKey \"iv\" ; qco:nameSuffixKey \"ov\" ; "
      "qco:phoneSuffixKey \"4567\" }}",
      kSparqlPrefixes, iri));
  REQUIRE_MESSAGE(old.ok(), (old ? "" : old.error().ToString()));
  const auto count_old = [&] {
    auto cursor = b.connection->Query(fmt::format(
        "{}SELECT (COUNT(*) AS ?n) WHERE {{ {} qco:namePrefixKey|qco:nameSuffixKey|qco:phoneSuffixKey ?k }}",
        kSparqlPrefixes, iri));
    REQUIRE_MESSAGE(cursor.ok(), (cursor ? "" : cursor.error().ToString()));
    REQUIRE(*cursor->Next());
    return cursor->GetString(0);
  };
  CHECK(count_old() == "3");
  b.connection.reset();
  auto reopened = Connection::Open({.database = b.dir.path(), .ontology = QUARRY_ONTOLOGY_DIR});
  REQUIRE_MESSAGE(reopened.ok(), (reopened ? "" : reopened.error().ToString()));
  b.connection = std::move(*reopened);
  b.book = std::make_unique<ContactBook>(*b.connection);
  REQUIRE(b.book->Save({c}).ok());
  CHECK(count_old() == "0");
}

}  // namespace
}  // namespace quarry::contacts
