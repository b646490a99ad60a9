// Issue 7: `quarry contacts import/export/get/find` on a temporary database — the vCard round
// trip field by field in both versions, a malformed vCard reported once with its line while
// the rest imports, lookups by UID, the four filters and their `--explain` index plans.
#include <doctest/doctest.h>

#include <algorithm>

#include "bench/phonebook/contact_generator.h"
#include "quarry/contacts.h"
#include "tests/cli/run_quarry.h"

namespace quarry::contacts {
namespace {

using testing::QuarryOk;
using testing::RunQuarry;

constexpr uint32_t kContacts = 24;

struct CliBook {
  testing::TempDir dir;
  std::string database = (dir / "db").string();

  std::vector<std::string> Contacts(std::vector<std::string> args) {
    args.insert(args.begin(), {"contacts", "--database", database});
    return args;
  }
  // Writes the generated contacts as one .vcf file and imports it.
  void ImportGenerated(VCardVersion version) {
    std::string text;
    for (uint32_t i = 0; i < kContacts; ++i) text += WriteVCard(bench::GenerateContact(i), version);
    const auto file = dir.Write("book.vcf", text);
    const testing::QuarryRun run = RunQuarry(Contacts({"import", file.string()}));
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(run.err == fmt::format("imported {} contacts, skipped 0\n", kContacts));
  }
  // The UIDs of the vCards a command prints, sorted.
  std::vector<std::string> Uids(std::vector<std::string> args) {
    const ParsedVCards parsed = ParseVCards(QuarryOk(Contacts(std::move(args))));
    CHECK(parsed.problems.empty());
    std::vector<std::string> uids;
    for (const auto& c : parsed.contacts) uids.push_back(c.uid);
    std::sort(uids.begin(), uids.end());
    return uids;
  }
};

void CheckRoundTrip(VCardVersion version, const std::string& flag) {
  CliBook book;
  book.ImportGenerated(version);
  const ParsedVCards exported =
      ParseVCards(QuarryOk(book.Contacts({"--vcard-version", flag, "export"})));
  REQUIRE(exported.problems.empty());
  REQUIRE(exported.contacts.size() == kContacts);
  for (const Contact& contact : exported.contacts) {
    const uint32_t i = static_cast<uint32_t>(std::stoul(contact.uid.substr(8)));
    CAPTURE(contact.uid);
    CHECK(Canonical(contact) == Canonical(bench::GenerateContact(i)));
  }
}

TEST_CASE("contacts import then export: equal field by field, vCard 4.0 and 3.0") {
  SUBCASE("4.0") { CheckRoundTrip(VCardVersion::k40, "4.0"); }
  SUBCASE("3.0") { CheckRoundTrip(VCardVersion::k30, "3.0"); }
}

TEST_CASE("contacts import: a malformed vCard is reported once with its line, the rest imports") {
  CliBook book;
  const std::string text =
      "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:good-1\r\nFN:Ada Lovelace\r\nEND:VCARD\r\n"  // lines 1-5
      "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:bad\r\nthis line has no colon\r\nEND:VCARD\r\n"  // 6-10
      "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:good-2\r\nFN:Grace Hopper\r\nEND:VCARD\r\n";
  const auto file = book.dir.Write("mixed.vcf", text);
  const testing::QuarryRun run = RunQuarry(book.Contacts({"import", file.string()}));
  CHECK(run.exit_code != 0);
  CHECK(run.err == fmt::format("quarry: {}:9: skipped vCard: no ':' in \"this line has no "
                               "colon\"\nimported 2 contacts, skipped 1\n",
                               file.string()));
  CHECK(book.Uids({"export"}) == std::vector<std::string>{"good-1", "good-2"});
}

TEST_CASE("contacts get and find") {
  CliBook book;
  book.ImportGenerated(VCardVersion::k40);
  CHECK(book.Uids({"get", "contact-000003", "contact-000017", "nobody"}) ==
        std::vector<std::string>{"contact-000003", "contact-000017"});
  // Contact 17: "Berg1" (family), email 17.4@example.org, phone +49 30 1000629.
  CHECK(book.Uids({"find", "--prefix", "BERG"}) ==
        std::vector<std::string>{"contact-000001", "contact-000017"});
  CHECK(book.Uids({"find", "--suffix", "erg1"}) == std::vector<std::string>{"contact-000017"});
  CHECK(book.Uids({"find", "--email", "17.4@Example.org"}) ==
        std::vector<std::string>{"contact-000017"});
  CHECK(book.Uids({"find", "--phone", "030 1000629"}) ==
        std::vector<std::string>{"contact-000017"});
  const std::string plan = QuarryOk(book.Contacts({"find", "--phone", "1000629", "--explain"}));
  CHECK(plan.find("USING COVERING INDEX nco:PersonContact_qco:reversedPhoneKey_qco:reversedPhoneKey "
                  "(qco:reversedPhoneKey>? AND qco:reversedPhoneKey<?)") != std::string::npos);
  CHECK(plan.find("qco:record") != std::string::npos);  // the found contacts' records, same statement
  // --uids: the same contacts' UIDs, one a line, from the same index.
  const auto lines = [](std::string text) {
    std::vector<std::string> out;
    for (size_t end; (end = text.find('\n')) != std::string::npos; text.erase(0, end + 1)) {
      out.push_back(text.substr(0, end));
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  CHECK(lines(QuarryOk(book.Contacts({"find", "--prefix", "BERG", "--uids"}))) ==
        std::vector<std::string>{"contact-000001", "contact-000017"});
  CHECK(QuarryOk(book.Contacts({"find", "--email", "17.4@Example.org", "--uids"})) ==
        "contact-000017\n");
  const std::string uids_plan =
      QuarryOk(book.Contacts({"find", "--phone", "1000629", "--uids", "--explain"}));
  CHECK(uids_plan.find("nco:contactUID") != std::string::npos);
  CHECK(uids_plan.find("USING COVERING INDEX nco:PersonContact_qco:reversedPhoneKey_qco:reversedPhoneKey "
                       "(qco:reversedPhoneKey>? AND qco:reversedPhoneKey<?)") != std::string::npos);
  const testing::QuarryRun two = RunQuarry(book.Contacts({"find", "--prefix", "a", "--email", "b"}));
  CHECK(two.exit_code != 0);
  CHECK(two.err.find("exactly one of --prefix, --suffix, --email, --phone") != std::string::npos);
}

}  // namespace
}  // namespace quarry::contacts
