// Issue 7, the EDS route: each contact saved by the book carries its fields in one stored value
// (qco:record, store/client/contacts/contact_record.h), and the book's reads answer whole
// contacts from it — one index lookup per contact — while contacts without one are read from
// their nco data.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "bench/phonebook/contact_generator.h"
#include "quarry/connection.h"
#include "quarry/contacts.h"
#include "store/client/contacts/contact_keys.h"
#include "store/client/contacts/contact_record.h"
#include "store/client/contacts/contact_sparql.h"
#include "store/client/contacts/contact_statements.h"
#include "store/common/sparql_quote.h"
#include "tests/contacts/book_fixture.h"

namespace quarry::contacts {
namespace {

// A contact with every field the vCard importer fills, through the importer itself.
Contact EveryField() {
  const ParsedVCards parsed = ParseVCards(
      "BEGIN:VCARD\r\n"
      "VERSION:3.0\r\n"
      "UID:every-1\r\n"
      "FN:Ada Lovelace\r\n"
      "N:Lovelace;Ada;Augusta;Lady;FRS\r\n"
      "NICKNAME:Countess,Ada L\r\n"
      "BDAY:18151210\r\n"
      "ORG:Analytical\\, Engines;Math;Notes\r\n"
      "TITLE:Translator\r\n"
      "ROLE:Author: of 12# notes\r\n"
      "EMAIL;TYPE=INTERNET,WORK;TYPE=pref:ada@example.org\r\n"
      "EMAIL:ada@home.example\r\n"
      "TEL;CELL:+44 20 1234567\r\n"
      "TEL;TYPE=work,fax:020 7654321\r\n"
      "ADR;TYPE=home:PO 1;Flat 2;1 St James\\; Sq.;London;Greater London;SW1;UK\r\n"
      "ADR;TYPE=work:;;;Marylebone;;;\r\n"
      "NOTE:café\\nand more\r\n"
      "NOTE:3:4#5\r\n"
      "X-JABBER:ada@jabber.example\r\n"
      "IMPP:sip:ada@voip.example\r\n"
      "URL:https://example.org/ada\r\n"
      "CATEGORIES:friends,math\r\n"
      "PHOTO;ENCODING=b;TYPE=PNG:aGVsbG8=\r\n"
      "END:VCARD\r\n");
  REQUIRE(parsed.problems.empty());
  REQUIRE(parsed.contacts.size() == 1);
  return parsed.contacts[0];
}

std::string ContactIdQuery(std::string_view uid) {
  return fmt::format("{}SELECT tracker:id(?c) WHERE {{ ?c nco:contactUID {} }}", kSparqlPrefixes,
                     SparqlString(uid));
}

int64_t IdOf(Connection& connection, std::string_view uid) {
  auto cursor = connection.Query(ContactIdQuery(uid));
  REQUIRE(cursor.ok());
  auto row = cursor->Next();
  REQUIRE((row.ok() && *row));
  return cursor->GetInteger(0);
}

// The stored qco:record of `uid` ("" when it has none).
std::string StoredRecord(Connection& connection, std::string_view uid) {
  auto cursor = connection.Query(fmt::format(
      "{}SELECT ?r WHERE {{ ?c nco:contactUID {} ; qco:record ?r }}", kSparqlPrefixes,
      SparqlString(uid)));
  REQUIRE(cursor.ok());
  auto row = cursor->Next();
  REQUIRE(row.ok());
  return *row ? std::string(cursor->GetString(0)) : std::string();
}

void Update(Connection& connection, const std::string& sparql) {
  auto done = connection.Update(sparql);
  REQUIRE_MESSAGE(done.ok(), (done ? "" : done.error().ToString()));
}

TEST_CASE("Record codec: every field round-trips, and a damaged record is refused") {
  Contact c = EveryField();
  c.nicknames.push_back("");  // empty items and separators inside values survive
  c.emails.push_back({"", {}});
  c.urls.push_back("12:34#56");
  const std::string record = EncodeRecord(c);
  CHECK(record.starts_with(kRecordMagic));
  const auto decoded = DecodeRecord(record);
  REQUIRE(decoded.has_value());
  CHECK(*decoded == c);  // exact: order kept too
  CHECK(DecodeRecord(EncodeRecord(Contact{})) == Contact{});

  CHECK_FALSE(DecodeRecord("").has_value());
  CHECK_FALSE(DecodeRecord("Q0" + record.substr(2)).has_value());        // other version
  CHECK_FALSE(DecodeRecord(record.substr(0, record.size() - 1)).has_value());  // truncated
  CHECK_FALSE(DecodeRecord(record + "1:x").has_value());                  // trailing bytes
  CHECK_FALSE(DecodeRecord("Q19999999999:a").has_value());                // length past the end
  CHECK_FALSE(DecodeRecord("Q1:").has_value());                           // no digits
}

TEST_CASE("Record codec: decoding in place overwrites every field of a used contact") {
  const Contact every = EveryField();
  const Contact small = bench::GenerateContact(3);
  Contact reused = every;  // every field set, longer lists than `small` has
  REQUIRE(DecodeRecordInto(EncodeRecord(small), reused));
  CHECK(reused == small);
  REQUIRE(DecodeRecordInto(EncodeRecord(Contact{}), reused));
  CHECK(reused == Contact{});
  CHECK_FALSE(DecodeRecordInto("Q1:", reused));
  const std::string record = EncodeRecord(every);
  CHECK_FALSE(DecodeRecordInto(record.substr(0, record.size() - 1), reused));
}

TEST_CASE("Record codec: lengths of 10 digits at most, strings across the short-string size") {
  // 15 bytes fit std::string's inline buffer, 16 do not: both, fresh and into used fields.
  Contact c;
  c.uid = std::string(15, 'u');
  c.full_name = std::string(16, 'f');
  c.name.family = "x";
  c.nicknames = {std::string(16, 'n'), "", std::string(15, 'm')};
  const std::string record = EncodeRecord(c);
  const auto fresh = DecodeRecord(record);
  REQUIRE(fresh.has_value());
  CHECK(*fresh == c);
  Contact used = c;
  used.uid = std::string(40, 'o');  // longer than the value decoded into it
  used.full_name = "o";             // shorter
  used.nicknames = {"a", std::string(30, 'b')};
  REQUIRE(DecodeRecordInto(record, used));
  CHECK(used == c);

  // A length's digits: leading zeros count, an eleventh digit is refused, digits need their mark.
  const std::string tail = record.substr(kRecordMagic.size() + 3 + 15);  // after the UID
  CHECK(DecodeRecord(std::string(kRecordMagic) + "0000000015:" + c.uid + tail) == c);
  CHECK_FALSE(DecodeRecord(std::string(kRecordMagic) + "00000000015:" + c.uid + tail).has_value());
  CHECK_FALSE(DecodeRecord(std::string(kRecordMagic) + "15#" + c.uid + tail).has_value());
  CHECK_FALSE(DecodeRecord(std::string(kRecordMagic) + "15").has_value());  // digits, then the end
  CHECK_FALSE(DecodeRecord(std::string(kRecordMagic) + "1a:").has_value());
}

TEST_CASE("Record reads by UID: order asked, each UID once, unknown skipped, bad records from nco") {
  BookFixture f;
  f.SaveGenerated(40);
  // Contact 7's record damaged (as by another writer): read from its nco data, in its place.
  Update(*f.connection,
         fmt::format("{}DELETE {{ ?c qco:record ?r }} INSERT {{ ?c qco:record \"Q1garbage\" }} "
                     "WHERE {{ ?c nco:contactUID \"contact-000007\" ; qco:record ?r }}",
                     kSparqlPrefixes));
  CHECK(StoredRecord(*f.connection, "contact-000007") == "Q1garbage");
  ContactBook::Statements statements(*f.connection);
  const auto uid = [](uint32_t i) { return bench::GenerateContact(i).uid; };
  // Short lists (one statement of 1 or 16 slots) and long ones (32, 64 slots), the UIDs asked
  // twice and unknown ones among them: the statement sees them as they are (the book removes
  // repeats before; Statements must not depend on it).
  for (const size_t n : {size_t{1}, size_t{5}, size_t{16}, size_t{30}, size_t{40}}) {
    CAPTURE(n);
    std::vector<std::string> asked;
    std::vector<uint32_t> expected;
    std::set<uint32_t> seen;
    for (uint32_t k = 0; asked.size() < n; ++k) {
      const uint32_t i = (k * 13 + 7) % 40;
      if (k % 4 == 3) {
        asked.push_back(fmt::format("unknown-{}", k));
        continue;
      }
      asked.push_back(uid(i));
      if (seen.insert(i).second) expected.push_back(i);
      if (k % 5 == 1 && asked.size() < n) asked.push_back(uid(i));  // asked again at once
    }
    auto read = statements.FetchUids(asked);
    REQUIRE(read.ok());
    REQUIRE(read->size() == expected.size());
    for (size_t k = 0; k < expected.size(); ++k) {
      CAPTURE(expected[k]);
      CHECK(Canonical((*read)[k].second) == Canonical(bench::GenerateContact(expected[k])));
      CHECK((*read)[k].first == IdOf(*f.connection, uid(expected[k])));
    }
  }
  // By ID and by filter: the damaged record's contact comes whole, in its place.
  const std::vector<int64_t> ids = {IdOf(*f.connection, uid(8)), IdOf(*f.connection, uid(7)),
                                    IdOf(*f.connection, uid(6))};
  auto by_id = statements.FetchIds(ids);
  REQUIRE(by_id.ok());
  REQUIRE(by_id->size() == 3);
  for (size_t k = 0; k < 3; ++k) {
    CHECK((*by_id)[k].first == ids[k]);
    const auto number = static_cast<uint32_t>(8 - k);
    CHECK(Canonical((*by_id)[k].second) == Canonical(bench::GenerateContact(number)));
  }
  auto all = statements.FetchAll();
  REQUIRE(all.ok());
  REQUIRE(all->size() == 40);
  for (const auto& [id, contact] : *all) {
    const auto i = static_cast<uint32_t>(std::stoul(contact.uid.substr(8)));
    CHECK(Canonical(contact) == Canonical(bench::GenerateContact(i)));
  }
}

// The record route keeps the IDs beside the contacts (RecordRows: two vectors, so the book
// returns the contacts without moving them): they must stay aligned through the nco fallback
// of a damaged record, an ID that is no contact (dropped) and an ID asked twice.
TEST_CASE("Record rows: the IDs stay beside their contacts through the fallback and dropped IDs") {
  BookFixture f;
  f.SaveGenerated(40);
  Update(*f.connection,
         fmt::format("{}DELETE {{ ?c qco:record ?r }} INSERT {{ ?c qco:record \"Q1garbage\" }} "
                     "WHERE {{ ?c nco:contactUID \"contact-000007\" ; qco:record ?r }}",
                     kSparqlPrefixes));
  ContactBook::Statements statements(*f.connection);
  const auto uid = [](uint32_t i) { return bench::GenerateContact(i).uid; };
  const auto aligned = [&](const ContactBook::Statements::RecordRows& rows) {
    CHECK(rows.missing.empty());
    REQUIRE(rows.ids.size() == rows.contacts.size());
    for (size_t k = 0; k < rows.ids.size(); ++k) {
      CAPTURE(k);
      const Contact& contact = rows.contacts[k];
      CHECK(rows.ids[k] == IdOf(*f.connection, contact.uid));
      const auto i = static_cast<uint32_t>(std::stoul(contact.uid.substr(8)));
      CHECK(Canonical(contact) == Canonical(bench::GenerateContact(i)));
    }
  };
  // By ID: 9, the damaged 7, an ID that is no contact (dropped), 7 again (dropped: each once
  // from the fallback), 3.
  const std::vector<int64_t> ids = {IdOf(*f.connection, uid(9)), IdOf(*f.connection, uid(7)),
                                    int64_t{987654321}, IdOf(*f.connection, uid(7)),
                                    IdOf(*f.connection, uid(3))};
  auto by_id = statements.FetchIdsRows(ids);
  REQUIRE(by_id.ok());
  aligned(*by_id);
  REQUIRE(by_id->contacts.size() == 3);
  CHECK(by_id->contacts[0].uid == uid(9));
  CHECK(by_id->contacts[1].uid == uid(7));
  CHECK(by_id->contacts[2].uid == uid(3));
  // By UID, the damaged one between recorded ones.
  auto by_uid = statements.FetchUidsRows({uid(5), uid(7), "unknown", uid(1)});
  REQUIRE(by_uid.ok());
  aligned(*by_uid);
  REQUIRE(by_uid->contacts.size() == 3);
  CHECK(by_uid->contacts[1].uid == uid(7));
  // A filter and fetch all, 7 among them.
  auto found = statements.FindRows({ContactFilter::Kind::kNamePrefix,
                                    FirstCodePoints(bench::GenerateContact(7).name.family, 1)});
  REQUIRE(found.ok());
  aligned(*found);
  CHECK(std::ranges::count(found->contacts, uid(7), &Contact::uid) == 1);
  auto all = statements.FetchAllRows();
  REQUIRE(all.ok());
  aligned(*all);
  CHECK(all->contacts.size() == 40);
  // The book returns the same contacts, in the same order.
  ContactBook book(*f.connection);
  auto fetched = book.FetchByUid({uid(5), uid(7), "unknown", uid(1)});
  REQUIRE(fetched.ok());
  CHECK(*fetched == by_uid->contacts);
}

TEST_CASE("A saved contact is stored with its record and read back from it, every field") {
  BookFixture f;
  const Contact every = EveryField();
  f.SaveGenerated(20);
  REQUIRE(f.book->Save({every}).ok());
  CHECK(StoredRecord(*f.connection, every.uid) == EncodeRecord(every));

  auto by_uid = f.book->FetchByUid({every.uid});
  REQUIRE(by_uid.ok());
  REQUIRE(by_uid->size() == 1);
  CHECK((*by_uid)[0] == every);  // exact, media in the order saved

  auto found = f.book->Find({ContactFilter::Kind::kEmail, "ada@home.example"});
  REQUIRE(found.ok());
  REQUIRE(found->size() == 1);
  CHECK((*found)[0] == every);
  auto by_phone = f.book->Find({ContactFilter::Kind::kPhoneSuffix, "+44 20 7654321"});
  REQUIRE(by_phone.ok());
  REQUIRE(by_phone->size() == 1);
  CHECK((*by_phone)[0] == every);

  auto all = f.book->FetchAll();
  REQUIRE(all.ok());
  CHECK(all->size() == 21);
  CHECK(std::count(all->begin(), all->end(), every) == 1);

  const int64_t id = IdOf(*f.connection, every.uid);
  auto by_id = f.book->FetchByResourceId({id});
  REQUIRE(by_id.ok());
  REQUIRE(by_id->size() == 1);
  CHECK((*by_id)[0].second == every);

  // The reads answer the record: a record changed behind the book's back is what they return
  // (this is what proves the nco data was not read).
  Contact other = every;
  other.full_name = "From the record";
  Update(*f.connection,
         fmt::format("{0}DELETE {{ ?c qco:record ?r }} INSERT {{ ?c qco:record {1} }} WHERE {{ "
                     "?c nco:contactUID {2} ; qco:record ?r }}",
                     kSparqlPrefixes, SparqlString(EncodeRecord(other)), SparqlString(every.uid)));
  auto again = f.book->FetchByUid({every.uid, "contact-000003"});
  REQUIRE(again.ok());
  REQUIRE(again->size() == 2);
  CHECK((*again)[0].full_name == "From the record");
  CHECK(Canonical((*again)[1]) == Canonical(bench::GenerateContact(3)));
}

TEST_CASE("Record reads: one statement per UID list, ID list, filter and fetch all") {
  BookFixture f;
  f.SaveGenerated(300);
  ContactBook::Statements statements(*f.connection);
  std::vector<std::string> uids;
  for (uint32_t k = 0; k < 300; ++k) uids.push_back(bench::GenerateContact(k * 7919 % 300).uid);
  for (const size_t n : {size_t{1}, size_t{10}, size_t{100}, size_t{256}}) {
    CAPTURE(n);
    const size_t before = statements.executions();
    auto read = statements.FetchUids({uids.begin(), uids.begin() + static_cast<ptrdiff_t>(n)});
    REQUIRE(read.ok());
    CHECK(statements.executions() - before == 1);  // no fallback: every contact had a record
    REQUIRE(read->size() == n);
    for (size_t k = 0; k < n; ++k) CHECK((*read)[k].second.uid == uids[k]);
  }
  size_t before = statements.executions();
  auto found = statements.Find({ContactFilter::Kind::kNamePrefix, "a"});
  REQUIRE(found.ok());
  CHECK_FALSE(found->empty());
  CHECK(statements.executions() - before == 1);
  before = statements.executions();
  auto all = statements.FetchAll();
  REQUIRE(all.ok());
  CHECK(all->size() == 300);
  CHECK(statements.executions() - before == 1);
}

TEST_CASE("Contacts without a record are read from their nco data, mixed with recorded ones") {
  BookFixture f;
  f.SaveGenerated(40);
  // Contacts 40..59 written by plain SPARQL (the nco triples and keys, no record), and by a book
  // with records off.
  std::string update = fmt::format("{}INSERT DATA {{\n", kSparqlPrefixes);
  std::set<std::string> stated;
  for (uint32_t i = 40; i < 50; ++i) {
    AppendContactTriples(bench::GenerateContact(i), stated, update, /*record=*/false);
  }
  update += "}";
  Update(*f.connection, update);
  ContactBook plain(*f.connection, {.records = false});
  std::vector<Contact> more;
  for (uint32_t i = 50; i < 60; ++i) more.push_back(bench::GenerateContact(i));
  REQUIRE(plain.Save(more).ok());
  CHECK(StoredRecord(*f.connection, "contact-000045").empty());
  CHECK(StoredRecord(*f.connection, "contact-000055").empty());
  CHECK_FALSE(StoredRecord(*f.connection, "contact-000005").empty());

  // By UID, in the order asked, recorded and record-less interleaved.
  std::vector<std::string> asked;
  std::vector<uint32_t> numbers;
  for (uint32_t k = 0; k < 60; ++k) {
    const uint32_t i = k * 37 % 60;
    numbers.push_back(i);
    asked.push_back(bench::GenerateContact(i).uid);
  }
  for (const size_t n : {size_t{1}, size_t{2}, size_t{60}}) {
    CAPTURE(n);
    auto fetched = f.book->FetchByUid({asked.begin(), asked.begin() + static_cast<ptrdiff_t>(n)});
    REQUIRE(fetched.ok());
    REQUIRE(fetched->size() == n);
    for (size_t k = 0; k < n; ++k) {
      CAPTURE(asked[k]);
      CHECK(Canonical((*fetched)[k]) == Canonical(bench::GenerateContact(numbers[k])));
    }
  }
  auto record_less = f.book->FetchByUid({"contact-000047"});
  REQUIRE(record_less.ok());
  REQUIRE(record_less->size() == 1);
  CHECK(Canonical((*record_less)[0]) == Canonical(bench::GenerateContact(47)));

  auto all = f.book->FetchAll();
  REQUIRE(all.ok());
  REQUIRE(all->size() == 60);
  for (const auto& contact : *all) {
    const auto i = static_cast<uint32_t>(std::stoul(contact.uid.substr(8)));
    CHECK(Canonical(contact) == Canonical(bench::GenerateContact(i)));
  }
  // A filter finds both kinds, the same as the book without records.
  for (const auto& text : {"a", "e", "l"}) {
    const ContactFilter filter{ContactFilter::Kind::kNamePrefix, text};
    CHECK(FoundUids(*f.book, filter) == FoundUids(plain, filter));
  }
  // By resource ID: a medium's ID is no contact and is dropped, as without records.
  auto media = f.connection->Query(fmt::format(
      "{}SELECT tracker:id(?m) WHERE {{ ?c nco:contactUID \"contact-000052\" ; "
      "nco:hasEmailAddress ?m }}",
      kSparqlPrefixes));
  REQUIRE(media.ok());
  auto row = media->Next();
  REQUIRE((row.ok() && *row));
  const int64_t medium = media->GetInteger(0);
  const std::vector<int64_t> ids = {IdOf(*f.connection, "contact-000052"), medium,
                                    IdOf(*f.connection, "contact-000002")};
  auto by_id = f.book->FetchByResourceId(ids);
  REQUIRE(by_id.ok());
  REQUIRE(by_id->size() == 2);
  CHECK((*by_id)[0].second.uid == "contact-000052");
  CHECK((*by_id)[1].second.uid == "contact-000002");
  CHECK(Canonical((*by_id)[0].second) == Canonical(bench::GenerateContact(52)));
}

TEST_CASE("Saving again replaces the record, and an edit that drops it is read from nco") {
  BookFixture f;
  f.SaveGenerated(5);
  Contact c = bench::GenerateContact(2);
  c.emails[0].address = "changed@example.org";
  c.notes = {"a new note"};
  REQUIRE(f.book->Save({c}).ok());
  CHECK(StoredRecord(*f.connection, c.uid) == EncodeRecord(c));
  auto fetched = f.book->FetchByUid({c.uid});
  REQUIRE(fetched.ok());
  REQUIRE(fetched->size() == 1);
  CHECK((*fetched)[0] == c);

  // A plain SPARQL edit of an email that deletes the record beside it (the record is derived
  // data, like the keys: quarry/contacts.h): the next read answers the nco data.
  Update(*f.connection,
         fmt::format("{0}DELETE {{ ?m nco:emailAddress ?old . ?c qco:record ?r }} "
                     "INSERT {{ ?m nco:emailAddress \"edited@example.org\" }} "
                     "WHERE {{ ?c nco:contactUID {1} ; nco:hasEmailAddress ?m ; qco:record ?r . "
                     "?m nco:emailAddress \"changed@example.org\" , ?old }}",
                     kSparqlPrefixes, SparqlString(c.uid)));
  auto edited = f.book->FetchByUid({c.uid});
  REQUIRE(edited.ok());
  REQUIRE(edited->size() == 1);
  CHECK((*edited)[0].emails[0].address == "edited@example.org");
  Contact expected = c;
  expected.emails[0].address = "edited@example.org";
  CHECK(Canonical((*edited)[0]) == Canonical(expected));
}

// Find's record statement has no DISTINCT (RangeSelector): a contact two of whose names lie in
// the range comes in two rows, and FindRecords keeps its first. The answer must be the
// DISTINCT search's: the same contacts, each once, in the same order, whole.
TEST_CASE("Record find: a contact matched by several names comes once, in the DISTINCT order") {
  BookFixture f;
  f.SaveGenerated(40);
  ContactBook::Statements statements(*f.connection);
  // "ad": contact 0 by its nickname "Ad0", its given name "Ada" and its full name "Ada …".
  for (const std::string text : {"ad", "a", "lovelace", "zz"}) {
    CAPTURE(text);
    const ContactFilter filter{ContactFilter::Kind::kNamePrefix, text};
    const KeyRange range = FilterRange(filter);
    // The rows of the statement itself, repeats included.
    auto raw = f.connection->Prepare(ContactBook::Statements::FindRecordsText(filter.kind));
    REQUIRE(raw.ok());
    raw->BindString("low", range.low);
    raw->BindString("high", range.high);
    auto cursor = raw->Execute();
    REQUIRE(cursor.ok());
    std::vector<int64_t> rows;
    while (true) {
      auto has_row = cursor->Next();
      REQUIRE(has_row.ok());
      if (!*has_row) break;
      rows.push_back(cursor->GetInteger(0));
    }
    auto distinct = statements.FindIds(filter);
    REQUIRE(distinct.ok());
    if (text == "ad" || text == "a") CHECK(rows.size() > distinct->size());  // repeats exist
    auto found = statements.Find(filter);
    REQUIRE(found.ok());
    REQUIRE(found->size() == distinct->size());
    for (size_t k = 0; k < found->size(); ++k) {
      CHECK((*found)[k].first == (*distinct)[k]);
      const auto i = static_cast<uint32_t>(std::stoul((*found)[k].second.uid.substr(8)));
      CHECK((*found)[k].first == IdOf(*f.connection, bench::GenerateContact(i).uid));
      CHECK(Canonical((*found)[k].second) == Canonical(bench::GenerateContact(i)));
    }
    auto book_found = f.book->Find(filter);
    REQUIRE(book_found.ok());
    CHECK(book_found->size() == distinct->size());
  }
}

TEST_CASE("--explain of the record reads: the UID index, the row by ID, the key index") {
  BookFixture f;
  f.SaveGenerated(3);
  for (const size_t slots : {size_t{1}, kShortUidList, kMaxUidsPerQuery}) {
    CAPTURE(slots);
    auto plan = f.connection->Explain(ContactBook::Statements::RecordUidsText(slots));
    REQUIRE_MESSAGE(plan.ok(), (plan ? "" : plan.error().ToString()));
    const std::string text = plan->substr(plan->find("Plan:"));
    CAPTURE(text);
    CHECK(text.find("INDEX nco:Contact_nco:contactUID (nco:contactUID=?)") != std::string::npos);
    CHECK(text.find("SCAN t") == std::string::npos);

    auto by_id = f.connection->Explain(ContactBook::Statements::RecordIdsText(slots));
    REQUIRE_MESSAGE(by_id.ok(), (by_id ? "" : by_id.error().ToString()));
    const std::string id_text = by_id->substr(by_id->find("Plan:"));
    CAPTURE(id_text);
    CHECK(id_text.find("SCAN t") == std::string::npos);
    CHECK(id_text.find("SEARCH") != std::string::npos);
  }
  auto find = f.connection->Explain(
      ContactBook::Statements::FindRecordsText(ContactFilter::Kind::kNamePrefix));
  REQUIRE(find.ok());
  CHECK(find->find("USING COVERING INDEX nco:PersonContact_qco:nameKey_qco:nameKey "
                   "(qco:nameKey>? AND qco:nameKey<?)") != std::string::npos);
  CHECK(find->substr(find->find("Plan:")).find("SCAN t") == std::string::npos);
}

}  // namespace
}  // namespace quarry::contacts
