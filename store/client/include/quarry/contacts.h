// quarry contacts (issue 7): vCard 3.0/4.0 <-> nco, and an address book on a Connection.
//
// A Contact is the vCard fields the layer maps to the nco ontology (nco:PersonContact and its
// media, affiliation and tags). The vCard functions are pure. ContactBook stores contacts as nco
// resources plus search keys of the qco: extension (ontology/39-qco.ontology) that make every
// filter an index range: lower-cased names, reversed names (suffix search as a prefix search) and
// reversed phone digits (caller identification by the last significant digits).
// Thread-safety: ContactBook like its Connection (one thread at a time); ContactView runs its
// callback on the Notifier's thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/connection.h"
#include "quarry/notifier.h"
#include "quarry/result.h"

namespace quarry::contacts {

// A reachable address with its vCard TYPE values (lower case, e.g. {"work", "pref"}).
struct Email {
  std::string address;
  std::vector<std::string> types;
  bool operator==(const Email&) const = default;
};
struct Phone {
  std::string number;  // as written
  std::vector<std::string> types;  // "cell", "fax", "home", ... decide the nco:PhoneNumber class
  bool operator==(const Phone&) const = default;
};
struct PostalAddress {  // vCard ADR components, in order
  std::string pobox, extended, street, locality, region, postal_code, country;
  std::vector<std::string> types;
  bool operator==(const PostalAddress&) const = default;
};
struct ImAddress {  // IMPP: "<protocol>:<id>", e.g. xmpp:ada@example.org
  std::string protocol;
  std::string id;
  bool operator==(const ImAddress&) const = default;
};
struct Name {  // vCard N components, in order
  std::string family, given, additional, prefix, suffix;
  bool operator==(const Name&) const = default;
};

struct Contact {
  std::string uid;        // UID; the key of the address book (required to save)
  std::string full_name;  // FN
  Name name;
  std::vector<std::string> nicknames;
  std::string birthday;  // BDAY normalised to YYYY-MM-DD; empty when absent
  std::string organization;  // ORG first component
  std::string department;    // ORG further components, joined by ";"
  std::string title;         // TITLE
  std::string role;          // ROLE
  std::vector<Email> emails;
  std::vector<Phone> phones;
  std::vector<PostalAddress> addresses;
  std::vector<ImAddress> ims;
  std::vector<std::string> urls;
  std::vector<std::string> notes;
  std::string photo;  // a URI; inline 3.0 photos become data: URIs
  std::vector<std::string> categories;  // nao:Tag labels
  bool operator==(const Contact&) const = default;
};

// The same contact with every list sorted: vCards equal "field by field, property order aside".
Contact Canonical(Contact contact);

enum class VCardVersion { k30, k40 };

// A vCard that could not be read: where it starts and why.
struct VCardProblem {
  int line = 0;  // 1-based line of the problem in the input
  std::string message;
};
struct ParsedVCards {
  std::vector<Contact> contacts;
  std::vector<VCardProblem> problems;  // malformed vCards, each skipped
};

// Reads every vCard of `text` (3.0 or 4.0; folded lines, escapes, parameters, quoted-printable
// and base64 in 3.0). A malformed vCard is reported and skipped; the others are returned.
ParsedVCards ParseVCards(std::string_view text);
// One vCard (BEGIN..END, CRLF line ends, folded at 75 octets).
std::string WriteVCard(const Contact& contact, VCardVersion version = VCardVersion::k40);

// The digits of a phone number ("+49 (30) 123-4567" -> "49301234567").
std::string PhoneDigits(std::string_view number);
// Caller identification compares this many trailing digits (or all, if fewer).
inline constexpr size_t kPhoneMatchDigits = 7;

// One filter of ContactBook::Find. Each one is an index range over a qco: key.
struct ContactFilter {
  enum class Kind { kNamePrefix, kNameSuffix, kEmail, kPhoneSuffix };
  Kind kind = Kind::kNamePrefix;
  std::string text;  // name prefix/suffix (any of FN, given, family), email prefix, phone number
};

// records: Save writes each contact's fields in one stored value beside its nco triples
// (qco:record, store/client/contacts/contact_record.h) and reads answer whole contacts from it,
// one index lookup per contact; contacts without one (written by plain SPARQL, or an older
// version) are read from their nco data. The record is derived data of the book, like the
// qco: keys: a program that edits a saved contact's nco data by plain SPARQL must delete its
// qco:record in the same update (or save it through a book), else reads with records on answer
// the record. Off: no record written nor read (every read from the nco data).
struct ContactBookOptions {
  bool records = true;
  // A Save() of many contacts streams its requests (Connection::UpdateStream); false sends
  // them as one Batch (BatchSparqlUpdate through quarry-store: both processes hold the whole
  // batch; phonebook_bench --no-stream measures that route).
  bool stream_saves = true;
};

class ContactBook {
 public:
  // `connection` must outlive the book. Saving needs a writable connection.
  explicit ContactBook(Connection& connection, ContactBookOptions options = {});
  ~ContactBook();
  ContactBook(const ContactBook&) = delete;
  ContactBook& operator=(const ContactBook&) = delete;

  // Inserts or replaces contacts (by UID) in one transaction: all or none. A contact whose UID
  // is not stored yet costs one prepared lookup and the INSERT (no DELETE requests).
  Result<void> Save(const std::vector<Contact>& contacts);
  Result<void> Remove(const std::vector<std::string>& uids);
  Result<std::vector<Contact>> FetchAll();
  // Whole contacts of `uids` (missing ones are left out): one statement for up to 16 UIDs, two
  // per 256 beyond (UIDs to IDs, then the IDs' field groups).
  Result<std::vector<Contact>> FetchByUid(const std::vector<std::string>& uids);
  Result<std::vector<Contact>> Find(const ContactFilter& filter);
  // The UIDs of the contacts Find returns (in the order the index yields them), without reading
  // the contacts (EDS's e_book_client_get_contacts_uids): one prepared statement over the key
  // index, a string per found contact and nothing else allocated per row.
  Result<std::vector<std::string>> FindUids(const ContactFilter& filter);
  // Contacts by resource ID (what GraphUpdated carries), one query.
  Result<std::vector<std::pair<int64_t, Contact>>> FetchByResourceId(
      const std::vector<int64_t>& ids);
  // The SPARQL text of Find's statement with the key written in (for `--explain` and the
  // index tests): Find runs the same search prepared once, with the key range bound as `~low`
  // and `~high`, reading each found contact's qco:record beside it; the found contacts
  // without a record are then read from their nco data by ID (FetchByResourceId's read).
  static std::string FindQuery(const ContactFilter& filter);
  // FindUids's statement with the key written in (`--uids --explain`).
  static std::string FindUidsQuery(const ContactFilter& filter);

  class Statements;  // prepared queries, one per shape (contact_statements.h)

 private:
  Connection& connection_;
  ContactBookOptions options_;
  std::unique_ptr<Statements> statements_;
};

// The IRI the book gives the contact with `uid`.
std::string ContactIri(std::string_view uid);

// What one GraphUpdated emission changed in a view, in the order the store applied it.
struct ViewChanges {
  std::vector<Contact> added;
  std::vector<Contact> changed;
  std::vector<std::string> removed;  // UIDs
};

// A live view (the seed's EBookView): the contacts matching a filter (or all), kept current from
// nco:PersonContact GraphUpdated signals. Each signal re-reads only the contacts whose resource
// IDs it names, with one query, and reports what was added, changed or removed.
// The view owns `reader` (a Direct or Bus connection) and uses it on the Notifier's thread.
class ContactView {
 public:
  using Callback = std::function<void(const ViewChanges& changes)>;

  static Result<std::unique_ptr<ContactView>> Open(std::unique_ptr<Connection> reader,
                                                   std::optional<ContactFilter> filter,
                                                   Callback callback,
                                                   const BusOptions& bus = {});
  ~ContactView();
  ContactView(const ContactView&) = delete;
  ContactView& operator=(const ContactView&) = delete;

  // A copy of the current result set, by UID order.
  std::vector<Contact> contacts() const;

  class Impl;

 private:
  explicit ContactView(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace quarry::contacts
