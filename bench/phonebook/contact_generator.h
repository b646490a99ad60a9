// Deterministic contacts for the phonebook benchmark and the contacts tests (issue 7): contact
// i is always the same, so runs and systems compare on equal data. Field values exercise the
// vCard codec: commas, semicolons and newlines in text, non-ASCII names, several emails and
// numbers with TYPE values, an address, IM, URL, tags, and an inline photo on every 7th contact.
// Header-only; pure.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "quarry/contacts.h"

namespace quarry::bench {

inline constexpr std::array<std::string_view, 16> kGivenNames = {
    "Ada", "Björn", "Chloé", "Dmitri", "Eve", "Farid", "Grace", "Hiro",
    "Ines", "Jürgen", "Kofi", "Lena", "Mateo", "Noor", "Olga", "Pablo"};
inline constexpr std::array<std::string_view, 16> kFamilyNames = {
    "Lovelace", "Berg", "Dubois", "Ivanov", "Smith", "Haddad", "Hopper", "Tanaka",
    "García", "Müller", "Mensah", "Novak", "Rossi", "Khan", "Petrova", "Ortiz"};
inline constexpr std::array<std::string_view, 6> kCities = {"Berlin", "Paris", "Tokyo",
                                                            "Lagos", "Lima", "Oslo"};

// The surname of contact i: cycles through kFamilyNames with a number so it is unique.
inline std::string FamilyName(uint32_t i) {
  return fmt::format("{}{}", kFamilyNames[i % kFamilyNames.size()], i / kFamilyNames.size());
}

inline contacts::Contact GenerateContact(uint32_t i) {
  contacts::Contact c;
  const std::string given(kGivenNames[(i * 7) % kGivenNames.size()]);
  const std::string family = FamilyName(i);
  c.uid = fmt::format("contact-{:06}", i);
  c.full_name = given + " " + family;
  c.name = {family, given, i % 3 == 0 ? "Maria" : "", i % 5 == 0 ? "Dr." : "", i % 11 == 0 ? "Jr." : ""};
  if (i % 4 == 0) c.nicknames = {fmt::format("{}{}", given.substr(0, 2), i % 100)};
  if (i % 2 == 0) c.birthday = fmt::format("19{:02}-{:02}-{:02}", 50 + i % 50, 1 + i % 12, 1 + i % 28);
  c.organization = fmt::format("Firm {}, Ltd.", i % 97);
  c.department = i % 3 == 0 ? "R&D;Lab 2" : "";
  c.title = i % 2 == 0 ? "Engineer" : "";
  c.role = i % 6 == 0 ? "Lead; backend" : "";
  c.emails.push_back({fmt::format("{}.{}@example.org", i, i % 13), {"home"}});
  if (i % 2 == 1) c.emails.push_back({fmt::format("person{}@work.example", i), {"pref", "work"}});
  c.phones.push_back({fmt::format("+49 30 {:07}", 1000000 + i * 37 % 9000000), {"cell"}});
  if (i % 3 == 1) c.phones.push_back({fmt::format("(0{}) {:06}", 40 + i % 50, i), {"work", "voice"}});
  if (i % 5 == 2) c.phones.push_back({fmt::format("+1-555-{:04}", i % 10000), {"fax"}});
  c.addresses.push_back({"", i % 4 == 0 ? "Floor 3" : "", fmt::format("{} Main St.", i % 300),
                         std::string(kCities[i % kCities.size()]), "", fmt::format("{:05}", i % 99999),
                         "Elsewhere", {"home"}});
  if (i % 3 == 2) c.ims.push_back({"xmpp", fmt::format("u{}@chat.example", i)});
  if (i % 4 == 1) c.urls.push_back(fmt::format("https://example.org/~u{}", i));
  if (i % 5 == 3) c.notes.push_back(fmt::format("Met at conf {}, talk on a; b\nsecond line", i % 20));
  c.categories.push_back(i % 2 == 0 ? "friends" : "work");
  if (i % 9 == 0) c.categories.push_back("vip");
  if (i % 7 == 0) c.photo = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
  return c;
}

}  // namespace quarry::bench
