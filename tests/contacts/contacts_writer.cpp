// contacts_writer BUS_ADDRESS FIRST COUNT: saves generated contacts FIRST .. FIRST+COUNT-1
// through quarry-store, one ContactBook::Save (one transaction) each, in order. The live-view
// test runs it as the "other process" whose edits a ContactView must see (issue 7).
// Exit status 0 when every save succeeded; the first failure is printed and exits 1.
#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "bench/phonebook/contact_generator.h"
#include "quarry/connection.h"
#include "quarry/contacts.h"

int main(int argc, char** argv) {
  using namespace quarry;
  if (argc != 4) {
    std::cerr << "usage: contacts_writer BUS_ADDRESS FIRST COUNT\n";
    return 2;
  }
  const uint32_t first = static_cast<uint32_t>(std::stoul(argv[2]));
  const uint32_t count = static_cast<uint32_t>(std::stoul(argv[3]));
  auto writer = Connection::Bus({std::string(kStoreBusName), argv[1]});
  if (!writer) {
    std::cerr << "contacts_writer: " << writer.error().ToString() << "\n";
    return 1;
  }
  contacts::ContactBook book(**writer);
  for (uint32_t i = first; i < first + count; ++i) {
    if (auto saved = book.Save({bench::GenerateContact(i)}); !saved) {
      std::cerr << fmt::format("contacts_writer: contact {}: {}\n", i, saved.error().ToString());
      return 1;
    }
  }
  return 0;
}
