// Issue 7: the vCard codec — lines, escapes, encodings, errors, and the round trip.
#include <doctest/doctest.h>

#include "bench/phonebook/contact_generator.h"
#include "quarry/contacts.h"
#include "store/client/contacts/vcard_lines.h"

namespace quarry::contacts {
namespace {

TEST_CASE("vCard 3.0: folding, escapes, parameters and quoted-printable") {
  const std::string text =
      "BEGIN:VCARD\r\n"
      "VERSION:3.0\r\n"
      "UID:abc-1\r\n"
      "FN:Ada Lo\r\n"
      " velace\r\n"
      "N:Lovelace;Ada;Augusta;Lady;\r\n"
      "NICKNAME:Countess,Ada L\r\n"
      "BDAY:18151210\r\n"
      "ORG:Analytical\\, Engines;Math\r\n"
      "item1.EMAIL;TYPE=INTERNET,WORK;TYPE=pref:ada@example.org\r\n"
      "TEL;CELL:+44 20 1234567\r\n"
      "ADR;TYPE=home:;;1 St James\\; Sq.;London;;SW1;UK\r\n"
      "NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:caf=C3=A9 =\r\n"
      "and more\r\n"
      "X-JABBER:ada@jabber.example\r\n"
      "CATEGORIES:friends,math\r\n"
      "PHOTO;ENCODING=b;TYPE=PNG:aGVsbG8=\r\n"
      "END:VCARD\r\n";
  const ParsedVCards parsed = ParseVCards(text);
  REQUIRE(parsed.problems.empty());
  REQUIRE(parsed.contacts.size() == 1);
  const Contact& c = parsed.contacts[0];
  CHECK(c.uid == "abc-1");
  CHECK(c.full_name == "Ada Lovelace");
  CHECK(c.name == Name{"Lovelace", "Ada", "Augusta", "Lady", ""});
  CHECK(c.nicknames == std::vector<std::string>{"Countess", "Ada L"});
  CHECK(c.birthday == "1815-12-10");
  CHECK(c.organization == "Analytical, Engines");
  CHECK(c.department == "Math");
  REQUIRE(c.emails.size() == 1);
  CHECK(c.emails[0].types == std::vector<std::string>{"internet", "work", "pref"});
  CHECK(c.phones == std::vector<Phone>{{"+44 20 1234567", {"cell"}}});
  CHECK(c.addresses[0].street == "1 St James; Sq.");
  CHECK(c.addresses[0].country == "UK");
  CHECK(c.notes == std::vector<std::string>{"café and more"});
  CHECK(c.ims == std::vector<ImAddress>{{"xmpp", "ada@jabber.example"}});
  CHECK(c.categories == std::vector<std::string>{"friends", "math"});
  CHECK(c.photo == "data:image/png;base64,aGVsbG8=");
}

TEST_CASE("vCard 4.0: PREF, IMPP, tel: URIs and quoted parameter values") {
  const ParsedVCards parsed = ParseVCards(
      "BEGIN:VCARD\nVERSION:4.0\nUID:u\nFN:Bo\nEMAIL;PREF=1;TYPE=\"work,home\":bo@x.org\n"
      "TEL;VALUE=uri;TYPE=voice:tel:+1-555-0100\nIMPP:xmpp:bo@chat\nEND:VCARD\n");
  REQUIRE(parsed.problems.empty());
  REQUIRE(parsed.contacts.size() == 1);
  const Contact& c = parsed.contacts[0];
  CHECK(c.emails[0].types == std::vector<std::string>{"work", "home", "pref"});
  CHECK(c.phones[0].number == "+1-555-0100");
  CHECK(c.ims[0] == ImAddress{"xmpp", "bo@chat"});
}

TEST_CASE("A malformed vCard is reported with its line and skipped, the others import") {
  const std::string text =
      "BEGIN:VCARD\nVERSION:3.0\nUID:good-1\nFN:One\nEND:VCARD\n"
      "BEGIN:VCARD\nVERSION:3.0\nUID:bad\nFN:Two\nthis line has no colon\nEND:VCARD\n"
      "BEGIN:VCARD\nVERSION:3.0\nUID:bad-date\nBDAY:next tuesday\nEND:VCARD\n"
      "BEGIN:VCARD\nVERSION:3.0\nUID:bad-qp\nNOTE;ENCODING=QUOTED-PRINTABLE:=ZZ\nEND:VCARD\n"
      "BEGIN:VCARD\nVERSION:3.0\nUID:good-2\nFN:Three\nEND:VCARD\n"
      "BEGIN:VCARD\nVERSION:3.0\nUID:unterminated\n";
  const ParsedVCards parsed = ParseVCards(text);
  REQUIRE(parsed.contacts.size() == 2);
  CHECK(parsed.contacts[0].uid == "good-1");
  CHECK(parsed.contacts[1].uid == "good-2");
  REQUIRE(parsed.problems.size() == 4);
  CHECK(parsed.problems[0].line == 10);
  CHECK(parsed.problems[0].message.find("no ':'") != std::string::npos);
  CHECK(parsed.problems[1].line == 15);
  CHECK(parsed.problems[1].message.find("BDAY") != std::string::npos);
  CHECK(parsed.problems[2].line == 20);
  CHECK(parsed.problems[2].message.find("quoted-printable") != std::string::npos);
  CHECK(parsed.problems[3].line == 27);
  CHECK(parsed.problems[3].message.find("without END") != std::string::npos);
}

TEST_CASE("Folded lines stay within 75 octets and never split a UTF-8 character") {
  const std::string long_name(40, 'a');
  const std::string folded = FoldLine("FN:" + long_name + std::string(30, 'b') + "éééééé");
  size_t start = 0;
  while (start < folded.size()) {
    const size_t end = folded.find("\r\n", start);
    CHECK(end - start <= 75);
    CHECK((static_cast<unsigned char>(folded[start == 0 ? 0 : start + 1]) & 0xC0) != 0x80);
    start = end + 2;
  }
  const auto unfolded = UnfoldLines(folded);
  REQUIRE(unfolded.size() == 1);
  CHECK(unfolded[0].second == "FN:" + long_name + std::string(30, 'b') + "éééééé");
}

TEST_CASE("Round trip: generated vCards parse back equal, field by field") {
  for (const VCardVersion version : {VCardVersion::k30, VCardVersion::k40}) {
    CAPTURE(static_cast<int>(version));
    std::string text;
    std::vector<Contact> originals;
    for (uint32_t i = 0; i < 200; ++i) {
      originals.push_back(bench::GenerateContact(i));
      text += WriteVCard(originals.back(), version);
    }
    const ParsedVCards parsed = ParseVCards(text);
    CHECK(parsed.problems.empty());
    REQUIRE(parsed.contacts.size() == originals.size());
    for (size_t i = 0; i < originals.size(); ++i) {
      CAPTURE(i);
      CHECK(Canonical(parsed.contacts[i]) == Canonical(originals[i]));
    }
  }
}

}  // namespace
}  // namespace quarry::contacts
