// BookFixture: a ContactBook on a new embedded database (the real ontology), with helpers to
// fill it from the phonebook generator and to list the UIDs a filter finds. Shared by the
// contacts test files.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/phonebook/contact_generator.h"
#include "quarry/connection.h"
#include "quarry/contacts.h"
#include "tests/support/temp_dir.h"

namespace quarry::contacts {

// The sorted UIDs of what `filter` finds in `book`.
inline std::vector<std::string> FoundUids(ContactBook& book, const ContactFilter& filter) {
  auto found = book.Find(filter);
  REQUIRE_MESSAGE(found.ok(), (found ? "" : found.error().ToString()));
  std::vector<std::string> uids;
  for (const auto& c : *found) uids.push_back(c.uid);
  std::sort(uids.begin(), uids.end());
  return uids;
}

struct BookFixture {
  testing::TempDir dir;
  std::unique_ptr<Connection> connection;
  std::unique_ptr<ContactBook> book;

  BookFixture() {
    auto opened = Connection::Open({.database = dir.path(), .ontology = QUARRY_ONTOLOGY_DIR});
    REQUIRE_MESSAGE(opened.ok(), (opened ? "" : opened.error().ToString()));
    connection = std::move(*opened);
    book = std::make_unique<ContactBook>(*connection);
  }
  // Saves generated contacts 0 .. count-1 in one batch.
  void SaveGenerated(uint32_t count) {
    std::vector<Contact> contacts;
    for (uint32_t i = 0; i < count; ++i) contacts.push_back(bench::GenerateContact(i));
    const auto saved = book->Save(contacts);
    REQUIRE_MESSAGE(saved.ok(), (saved ? "" : saved.error().ToString()));
  }
  std::vector<std::string> FoundUids(ContactFilter::Kind kind, std::string text) {
    return contacts::FoundUids(*book, {kind, std::move(text)});
  }
};

}  // namespace quarry::contacts
