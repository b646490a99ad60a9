// The SPARQL the address book sends: a contact as INSERT DATA, the removal of a stored contact
// and its media, and the queries that read whole contacts (contact_rows.cpp decodes them).
// Resource naming: the contact is ContactIri(uid); its media, affiliation and organization are
// fragments of it (#email-0, #tel-1, #adr-0, #im-0, #aff, #org), tags are urn:quarry:tag:<label>.
// Pure; any thread.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "quarry/contacts.h"

namespace quarry::contacts {

inline constexpr std::string_view kSparqlPrefixes =
    "PREFIX nco: <http://tracker.api.gnome.org/ontology/v3/nco#>\n"
    "PREFIX nao: <http://tracker.api.gnome.org/ontology/v3/nao#>\n"
    "PREFIX nie: <http://tracker.api.gnome.org/ontology/v3/nie#>\n"
    "PREFIX qco: <http://quarry.gnome.invalid/ontology/v1/qco#>\n"
    "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
    "PREFIX tracker: <http://tracker.api.gnome.org/ontology/v3/tracker#>\n"
    "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n";

// `<iri>` with characters IRIREF forbids percent-encoded.
std::string IriRef(std::string_view iri);
// The triples of one contact (no prefixes, no INSERT DATA around them), appended to `out`.
// Tags and photos are shared resources: their type (and a tag's label) is written only when
// `stated` (the shared IRIs already written in the same request) lacks them, and added to it.
// `record`: with the contact's qco:record (contact_record.h).
void AppendContactTriples(const Contact& contact, std::set<std::string>& stated, std::string& out,
                          bool record = true);
std::string ContactTriples(const Contact& contact);
// Deletes the stored contact `iri`, its media, affiliation and organization. Tags and photos
// stay: other contacts may share them (a photo's IRI is its URI).
std::string DeleteContactUpdate(std::string_view iri);
// The nco:PhoneNumber subclass for vCard TEL types.
std::string_view PhoneClass(const std::vector<std::string>& types);

// SELECT of whole contacts (nco:PersonContact with a UID). `selector` is a group pattern binding
// ?c (e.g. a UID IN filter) or a FILTER on ?c, repeated in every branch.
// Columns: ?v1 ... ?v10 tracker:id(?c), then ?k: the row's field group, an integer (0 main,
// 1 affiliation, 2 organization, 3 email, 4 phone, 5 address, 6 IM, 7 URL, 8 note, 9 tag; the
// group numbers of GroupQuery and ContactAssembler::Read).
std::string ContactsQuery(std::string_view selector);

// Decodes ContactsQuery rows into contacts with their resource IDs, in first-seen order.
// `expected`: how many contacts the query can return at most (room reserved for them).
Result<std::vector<std::pair<int64_t, Contact>>> ReadContacts(Cursor& cursor, size_t expected = 0);

// The read ContactBook runs (issue 7): the contacts' IDs first, then one query per field group
// over those IDs, assembled here by ID. Group 0 is the contact row (nco:PersonContact with its
// UID, names, birthday, photo) and decides which IDs are contacts; groups 1..kGroupCount-1 are
// affiliation, organization, emails, phones, addresses, IMs, URLs, notes, tags.
inline constexpr size_t kGroupCount = 10;
// SELECT tracker:id(?c) ?v1 … of `group`, restricted by `restriction` (a FILTER on ?c, e.g.
// `FILTER(tracker:id(?c) IN (…))`, which is a primary-key lookup; empty: every contact).
std::string GroupQuery(size_t group, std::string_view restriction);

// Contacts assembled from GroupQuery rows. Read group 0 first: rows of the other groups whose
// ID it did not return are dropped (media of non-contacts, or of a contact removed meanwhile).
class ContactAssembler {
 public:
  Result<void> Read(size_t group, Cursor& cursor);
  // The contacts in group 0's order.
  std::vector<std::pair<int64_t, Contact>> Take() &&;
  // The contacts in the order of `ids` (each once; IDs that are no contact skipped).
  std::vector<std::pair<int64_t, Contact>> Take(const std::vector<int64_t>& ids) &&;

 private:
  std::vector<std::pair<int64_t, Contact>> contacts_;
  std::unordered_map<int64_t, size_t> index_of_;
};

}  // namespace quarry::contacts
