// The SPARQL the address book sends: a contact as INSERT DATA, the removal of a stored contact
// and its media, and the one query that reads whole contacts (contact_rows.cpp decodes it).
// Resource naming: the contact is ContactIri(uid); its media, affiliation and organization are
// fragments of it (#email-0, #tel-1, #adr-0, #im-0, #aff, #org), tags are urn:quarry:tag:<label>.
// Pure; any thread.
#pragma once

#include <set>
#include <string>
#include <string_view>

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
void AppendContactTriples(const Contact& contact, std::set<std::string>& stated, std::string& out);
std::string ContactTriples(const Contact& contact);
// Deletes the stored contact `iri`, its media, affiliation and organization. Tags and photos
// stay: other contacts may share them (a photo's IRI is its URI).
std::string DeleteContactUpdate(std::string_view iri);
// The nco:PhoneNumber subclass for vCard TEL types.
std::string_view PhoneClass(const std::vector<std::string>& types);

// SELECT of whole contacts. `selector` is a group pattern binding ?c (e.g. a UID IN filter).
// Columns: ?v1 ... ?v10 tracker:id(?c), then one marker per field group (the contact's ID) of
// which the row's group alone is bound: ?k_c main, ?k_o affiliation, ?k_r organization, ?k_e email,
// ?k_t phone, ?k_a address, ?k_i IM, ?k_u URL, ?k_n note, ?k_g tag (one row per group).
std::string ContactsQuery(std::string_view selector);

// Decodes ContactsQuery rows into contacts with their resource IDs, in first-seen order.
Result<std::vector<std::pair<int64_t, Contact>>> ReadContacts(Cursor& cursor);

}  // namespace quarry::contacts
