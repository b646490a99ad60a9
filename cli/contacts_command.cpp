// `quarry contacts import FILE.vcf | export | get UID... | find --prefix/--suffix/--email/--phone`
// (issue 7): the address book of quarry/contacts.h, embedded with --database DIR or through the
// running quarry-store. Contacts print as vCards (4.0 unless --vcard-version 3.0).
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "quarry/connection.h"
#include "quarry/contacts.h"

namespace quarry::cli {
namespace {

using contacts::ContactFilter;

Result<std::unique_ptr<Connection>> OpenConnection(const ContactsArgs& args) {
  if (args.store.database.empty()) {
    QUARRY_ASSIGN_OR_RETURN(auto connection, Connection::Bus());
    connection->SetQueryTransport(args.force_fd      ? QueryTransport::kFdStream
                                  : args.force_plain ? QueryTransport::kPlainDBus
                                                     : QueryTransport::kAuto);
    return connection;
  }
  return Connection::Open({.database = args.store.database, .ontology = args.store.ontology});
}

void PrintContacts(const std::vector<contacts::Contact>& found, const ContactsArgs& args) {
  const auto version =
      args.vcard_version == "3.0" ? contacts::VCardVersion::k30 : contacts::VCardVersion::k40;
  for (const auto& contact : found) std::cout << contacts::WriteVCard(contact, version);
}

// Contacts without a UID get one from their position and name, so a re-import replaces them.
void FillMissingUids(std::vector<contacts::Contact>& found, const std::string& file) {
  for (size_t i = 0; i < found.size(); ++i) {
    if (found[i].uid.empty()) {
      found[i].uid = fmt::format("import:{}:{}:{}", file, i, found[i].full_name);
    }
  }
}

int RunImportContacts(contacts::ContactBook& book, const ContactsArgs& args) {
  auto text = ReadTextFile(args.file);
  if (!text) return ReportError(args.file, text.error());
  auto parsed = contacts::ParseVCards(*text);
  for (const auto& problem : parsed.problems) {
    std::cerr << fmt::format("quarry: {}:{}: skipped vCard: {}\n", args.file, problem.line,
                             problem.message);
  }
  FillMissingUids(parsed.contacts, args.file);
  if (const auto saved = book.Save(parsed.contacts); !saved) {
    return ReportError(args.file, saved.error());
  }
  std::cerr << fmt::format("imported {} contacts, skipped {}\n", parsed.contacts.size(),
                           parsed.problems.size());
  return parsed.problems.empty() ? 0 : kExitFailure;
}

Result<ContactFilter> FilterOf(const ContactsArgs& args) {
  std::vector<ContactFilter> filters;
  if (!args.prefix.empty()) filters.push_back({ContactFilter::Kind::kNamePrefix, args.prefix});
  if (!args.suffix.empty()) filters.push_back({ContactFilter::Kind::kNameSuffix, args.suffix});
  if (!args.email.empty()) filters.push_back({ContactFilter::Kind::kEmail, args.email});
  if (!args.phone.empty()) filters.push_back({ContactFilter::Kind::kPhoneSuffix, args.phone});
  if (filters.size() != 1) {
    return Error(Errc::kInvalidArgument,
                 "find needs exactly one of --prefix, --suffix, --email, --phone");
  }
  return filters[0];
}

int RunFind(Connection& connection, contacts::ContactBook& book, const ContactsArgs& args) {
  auto filter = FilterOf(args);
  if (!filter) return ReportError("contacts find", filter.error());
  if (args.explain) {
    auto plan = connection.Explain(args.uids_only ? contacts::ContactBook::FindUidsQuery(*filter)
                                                  : contacts::ContactBook::FindQuery(*filter));
    if (!plan) return ReportError("contacts find --explain", plan.error());
    std::cout << *plan << "\n";
    return 0;
  }
  if (args.uids_only) {
    auto uids = book.FindUids(*filter);
    if (!uids) return ReportError("contacts find", uids.error());
    for (const auto& uid : *uids) std::cout << uid << "\n";
    return 0;
  }
  auto found = book.Find(*filter);
  if (!found) return ReportError("contacts find", found.error());
  PrintContacts(*found, args);
  return 0;
}

}  // namespace

CLI::App* AddContactsCommand(CLI::App& app, ContactsArgs& args) {
  CLI::App* command = app.add_subcommand("contacts", "Address book: vCard import/export, lookups");
  AddStoreOptions(*command, args.store);
  command->get_option("--database")
      ->required(false)
      ->description("Database directory, opened in this process (default: the running "
                    "quarry-store over D-Bus)");
  CLI::Option* fd = command->add_flag("--fd", args.force_fd,
                                      "Without --database: rows through a pipe (the default "
                                      "where the bus can pass descriptors)");
  command->add_flag("--no-fd", args.force_plain,
                    "Without --database: rows as plain D-Bus replies (text only)")
      ->excludes(fd);
  command->add_option("--vcard-version", args.vcard_version, "vCard version written: 4.0 or 3.0")
      ->check(CLI::IsMember({"3.0", "4.0"}));
  command->require_subcommand(1);
  command->add_subcommand("import", "Import every vCard of a file (one transaction)")
      ->add_option("file", args.file, "A .vcf file, or - for standard input")
      ->required();
  command->add_subcommand("export", "Print every contact as a vCard");
  command->add_subcommand("get", "Print the contacts with these UIDs")
      ->add_option("uid", args.uids, "UIDs")
      ->required();
  CLI::App* find = command->add_subcommand("find", "Contacts matching one filter");
  find->add_option("--prefix", args.prefix, "Name prefix (full, given, family or nick name)");
  find->add_option("--suffix", args.suffix, "Name suffix");
  find->add_option("--email", args.email, "Email address (case-insensitive)");
  find->add_option("--phone", args.phone, "Phone number, matched by its last 7 digits");
  find->add_flag("--uids", args.uids_only,
                 "Print the matching contacts' UIDs, one a line (the contacts are not read)");
  find->add_flag("--explain", args.explain, "Print the SQL and SQLite's plan instead");
  return command;
}

int RunContacts(CLI::App& command, const ContactsArgs& args) {
  auto connection = OpenConnection(args);
  if (!connection) return ReportError("contacts", connection.error());
  contacts::ContactBook book(**connection);
  if (command.got_subcommand("import")) return RunImportContacts(book, args);
  if (command.got_subcommand("find")) return RunFind(**connection, book, args);
  auto found = command.got_subcommand("get") ? book.FetchByUid(args.uids) : book.FetchAll();
  if (!found) return ReportError("contacts", found.error());
  PrintContacts(*found, args);
  return 0;
}

}  // namespace quarry::cli
