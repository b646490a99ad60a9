#include "store/client/contacts/contact_sparql.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>

#include "store/client/contacts/contact_keys.h"
#include "store/client/contacts/contact_record.h"

namespace quarry::contacts {
namespace {

constexpr std::string_view kTagPrefix = "urn:quarry:tag:";

// The text of a batch is appended in place: formatting each piece into a temporary string
// first was a malloc per triple (issue 7, batch save profile).

// Appends `; <predicate> "value"` when the value is not empty.
void Literal(std::string& out, std::string_view predicate, std::string_view value) {
  if (value.empty()) return;
  out += " ; ";
  out += predicate;
  out += ' ';
  out += SparqlString(value);
}

// Appends `<iri>` (IriRef) without a temporary.
void AppendIriRef(std::string& out, std::string_view iri) {
  out += '<';
  for (const char c : iri) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || std::string_view("<>\"{}|^`\\").find(c) != std::string_view::npos) {
      fmt::format_to(std::back_inserter(out), "%{:02X}", byte);
    } else {
      out += c;
    }
  }
  out += '>';
}

// Appends `<iri#fragment-index>`: the contact IRI is escaped already, the rest needs none.
void AppendMediumRef(std::string& out, std::string_view iri, std::string_view fragment, size_t index) {
  AppendIriRef(out, iri);
  out.pop_back();
  fmt::format_to(std::back_inserter(out), "#{}-{}>", fragment, index);
}

std::string PercentEncode(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || std::string_view("-._~@+").find(c) != std::string_view::npos) {
      out += c;
    } else {
      out += fmt::format("%{:02X}", byte);
    }
  }
  return out;
}

std::string TypesText(const std::vector<std::string>& types) {
  return fmt::format("{}", fmt::join(types, ","));
}

void MediaTriples(const Contact& contact, const std::string& iri, std::string& out) {
  for (size_t i = 0; i < contact.emails.size(); ++i) {
    AppendMediumRef(out, iri, "email", i);
    out += " a nco:EmailAddress";
    Literal(out, "nco:emailAddress", contact.emails[i].address);
    Literal(out, "qco:mediumTypes", TypesText(contact.emails[i].types));
    out += " .\n";
  }
  for (size_t i = 0; i < contact.phones.size(); ++i) {
    AppendMediumRef(out, iri, "tel", i);
    out += " a ";
    out += PhoneClass(contact.phones[i].types);
    Literal(out, "nco:phoneNumber", contact.phones[i].number);
    Literal(out, "qco:mediumTypes", TypesText(contact.phones[i].types));
    out += " .\n";
  }
  for (size_t i = 0; i < contact.addresses.size(); ++i) {
    const PostalAddress& a = contact.addresses[i];
    AppendMediumRef(out, iri, "adr", i);
    out += " a nco:PostalAddress";
    Literal(out, "nco:pobox", a.pobox);
    Literal(out, "nco:extendedAddress", a.extended);
    Literal(out, "nco:streetAddress", a.street);
    Literal(out, "nco:locality", a.locality);
    Literal(out, "nco:region", a.region);
    Literal(out, "nco:postalcode", a.postal_code);
    Literal(out, "nco:country", a.country);
    Literal(out, "qco:mediumTypes", TypesText(a.types));
    out += " .\n";
  }
  for (size_t i = 0; i < contact.ims.size(); ++i) {
    AppendMediumRef(out, iri, "im", i);
    out += " a nco:IMAddress";
    Literal(out, "nco:imProtocol", contact.ims[i].protocol);
    Literal(out, "nco:imID", contact.ims[i].id);
    out += " .\n";
  }
}

void AffiliationTriples(const Contact& contact, const std::string& iri, std::string& out) {
  const std::string affiliation = IriRef(iri + "#aff");
  out += fmt::format("{} a nco:Affiliation", affiliation);
  Literal(out, "nco:title", contact.title);
  Literal(out, "nco:role", contact.role);
  Literal(out, "nco:department", contact.department);
  if (!contact.organization.empty()) {
    out += fmt::format(" ; nco:org {0} .\n{0} a nco:OrganizationContact", IriRef(iri + "#org"));
    Literal(out, "nco:fullname", contact.organization);
  }
  out += " .\n";
}

bool HasAffiliation(const Contact& c) {
  return !c.organization.empty() || !c.department.empty() || !c.title.empty() || !c.role.empty();
}

void Links(const Contact& contact, const std::string& iri, std::string& out) {
  auto link = [&](std::string_view predicate, std::string_view fragment, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      out += " ; ";
      out += predicate;
      out += ' ';
      AppendMediumRef(out, iri, fragment, i);
    }
  };
  link("nco:hasEmailAddress", "email", contact.emails.size());
  link("nco:hasPhoneNumber", "tel", contact.phones.size());
  link("nco:hasPostalAddress", "adr", contact.addresses.size());
  link("nco:hasIMAddress", "im", contact.ims.size());
  if (HasAffiliation(contact)) out += fmt::format(" ; nco:hasAffiliation {}", IriRef(iri + "#aff"));
  for (const auto& url : contact.urls) out += fmt::format(" ; nco:url {}", IriRef(url));
  for (const auto& note : contact.notes) Literal(out, "nco:note", note);
  for (const auto& tag : contact.categories) {
    out += fmt::format(" ; nao:hasTag {}", IriRef(std::string(kTagPrefix) + PercentEncode(tag)));
  }
  if (!contact.photo.empty()) out += fmt::format(" ; nco:photo {}", IriRef(contact.photo));
}

void KeyTriples(const Contact& contact, std::string& out) {
  const ContactKeys keys = KeysOf(contact);
  auto add = [&](std::string_view predicate, const std::vector<std::string>& values) {
    for (const auto& value : values) Literal(out, predicate, value);
  };
  add("qco:nameKey", keys.names);
  add("qco:reversedNameKey", keys.reversed_names);
  add("qco:emailKey", keys.emails);
  add("qco:reversedPhoneKey", keys.reversed_phones);
}

}  // namespace

std::string ContactIri(std::string_view uid) { return "urn:quarry:contact:" + PercentEncode(uid); }

std::string IriRef(std::string_view iri) {
  std::string out;
  AppendIriRef(out, iri);
  return out;
}

std::string_view PhoneClass(const std::vector<std::string>& types) {
  static constexpr std::pair<std::string_view, std::string_view> kClasses[] = {
      {"cell", "nco:CellPhoneNumber"},  {"fax", "nco:FaxNumber"},
      {"pager", "nco:PagerNumber"},     {"car", "nco:CarPhoneNumber"},
      {"video", "nco:VideoTelephoneNumber"}, {"isdn", "nco:IsdnNumber"},
      {"pcs", "nco:PcsNumber"},         {"bbs", "nco:BbsNumber"},
      {"modem", "nco:ModemNumber"},     {"msg", "nco:MessagingNumber"},
      {"text", "nco:MessagingNumber"},  {"voice", "nco:VoicePhoneNumber"}};
  for (const auto& [type, name] : kClasses) {
    if (std::find(types.begin(), types.end(), type) != types.end()) return name;
  }
  return "nco:PhoneNumber";
}

std::string ContactTriples(const Contact& contact) {
  std::set<std::string> stated;
  std::string out;
  AppendContactTriples(contact, stated, out);
  return out;
}

void AppendContactTriples(const Contact& contact, std::set<std::string>& stated, std::string& out,
                          bool record) {
  const std::string iri = ContactIri(contact.uid);
  MediaTriples(contact, iri, out);
  if (HasAffiliation(contact)) AffiliationTriples(contact, iri, out);
  for (const auto& tag : contact.categories) {
    std::string tag_iri = IriRef(std::string(kTagPrefix) + PercentEncode(tag));
    if (!stated.insert(tag_iri).second) continue;
    out += fmt::format("{} a nao:Tag ; nao:prefLabel {} .\n", tag_iri, SparqlString(tag));
  }
  if (!contact.photo.empty()) {
    std::string photo_iri = IriRef(contact.photo);
    if (stated.insert(photo_iri).second) out += fmt::format("{} a nie:InformationElement .\n", photo_iri);
  }
  AppendIriRef(out, iri);
  out += " a nco:PersonContact";
  Literal(out, "nco:contactUID", contact.uid);
  Literal(out, "nco:fullname", contact.full_name);
  Literal(out, "nco:nameFamily", contact.name.family);
  Literal(out, "nco:nameGiven", contact.name.given);
  Literal(out, "nco:nameAdditional", contact.name.additional);
  Literal(out, "nco:nameHonorificPrefix", contact.name.prefix);
  Literal(out, "nco:nameHonorificSuffix", contact.name.suffix);
  Literal(out, "nco:nickname", fmt::format("{}", fmt::join(contact.nicknames, ", ")));
  if (!contact.birthday.empty()) {
    out += fmt::format(" ; nco:birthDate \"{}T00:00:00Z\"^^xsd:dateTime", contact.birthday);
  }
  Links(contact, iri, out);
  KeyTriples(contact, out);
  // The whole contact in one value (contact_record.h), replaced with the triples on each save.
  if (record) Literal(out, "qco:record", EncodeRecord(contact));
  out += " .\n";
}

std::string DeleteContactUpdate(std::string_view iri) {
  const std::string c = IriRef(iri);
  return fmt::format(
      "{0}DELETE {{ ?o a rdfs:Resource }} WHERE {{ {1} nco:hasAffiliation/nco:org ?o }} ;\n"
      "DELETE {{ ?m a rdfs:Resource }} WHERE {{ {1} nco:hasEmailAddress|nco:hasPhoneNumber|"
      "nco:hasPostalAddress|nco:hasIMAddress|nco:hasAffiliation ?m }} ;\n"
      "DELETE {{ {1} a rdfs:Resource }} WHERE {{ {1} a rdfs:Resource }}",
      kSparqlPrefixes, c);
}

namespace {

// The field groups' patterns, binding ?c and the group's ?v1 … (ContactsQuery and GroupQuery).
// Single-valued fields are property functions (`BIND(nco:fullname(?c) AS ?v2)`), not
// `OPTIONAL { ?c nco:fullname ?v2 }`: of a subject whose class row the group joins (`?c a
// nco:PersonContact`, `?m a nco:PostalAddress`), the function reads that row's column, where each
// OPTIONAL was a LEFT JOIN searching the same row again (one b-tree search per field: 9 in the
// contact row, 8 in an address, 3 in an affiliation). Other functions are a correlated
// sub-query, one search as the LEFT JOIN was. Unbound when the value is absent, as the OPTIONAL.
// Issue 7: 13 % fewer instructions of SQLite per contact read by UID (callgrind). The photo is
// its IRI's text (STR) in its own branch: an IRI column of the UNION was resolved in Resource
// by the SELECT over it, once per row of every branch.
struct Group {
  int columns;
  std::string_view body;
};
constexpr Group kGroups[kGroupCount] = {
    {10, "?c a nco:PersonContact ; nco:contactUID ?v1 BIND(nco:fullname(?c) AS ?v2) "
         "BIND(nco:nameFamily(?c) AS ?v3) BIND(nco:nameGiven(?c) AS ?v4) "
         "BIND(nco:nameAdditional(?c) AS ?v5) BIND(nco:nameHonorificPrefix(?c) AS ?v6) "
         "BIND(nco:nameHonorificSuffix(?c) AS ?v7) BIND(nco:nickname(?c) AS ?v8) "
         "BIND(nco:birthDate(?c) AS ?v9) BIND(STR(nco:photo(?c)) AS ?v10)"},
    {3, "?c nco:hasAffiliation ?m . ?m a nco:Affiliation BIND(nco:title(?m) AS ?v1) "
        "BIND(nco:role(?m) AS ?v2) BIND(nco:department(?m) AS ?v3)"},
    // Its own group: inside an OPTIONAL, the two-step path became a scan of every affiliation.
    {1, "?c nco:hasAffiliation ?a . ?a nco:org ?m . ?m nco:fullname ?v1"},
    {2, "?c nco:hasEmailAddress ?m . ?m nco:emailAddress ?v1 BIND(qco:mediumTypes(?m) AS ?v2)"},
    {2, "?c nco:hasPhoneNumber ?m . ?m nco:phoneNumber ?v1 BIND(qco:mediumTypes(?m) AS ?v2)"},
    {8, "?c nco:hasPostalAddress ?m . ?m a nco:PostalAddress BIND(nco:pobox(?m) AS ?v1) "
        "BIND(nco:extendedAddress(?m) AS ?v2) BIND(nco:streetAddress(?m) AS ?v3) "
        "BIND(nco:locality(?m) AS ?v4) BIND(nco:region(?m) AS ?v5) "
        "BIND(nco:postalcode(?m) AS ?v6) BIND(nco:country(?m) AS ?v7) "
        "BIND(qco:mediumTypes(?m) AS ?v8)"},
    {2, "?c nco:hasIMAddress ?m . ?m nco:imProtocol ?v1 ; nco:imID ?v2"},
    {1, "?c nco:url ?v1"},
    {1, "?c nco:note ?v1"},
    {1, "?c nao:hasTag ?m . ?m nao:prefLabel ?v1"},
};
}  // namespace

std::string ContactsQuery(std::string_view selector) {
  // The selector is repeated in every branch: SQLite does not push a join into a UNION ALL,
  // so a selector outside would read every contact's media. A branch marks its rows with its
  // group's number in ?k (a constant): one column, where a marker variable per group bound to
  // the contact's ID was ten columns in every branch and in the SELECT, copied per row through
  // the UNION's derived table and tested one by one by the decoder (issue 7: with the contact
  // row's fields read from its joined rows and the photo's text in its branch, SQLite runs 470
  // VM steps per contact read by UID instead of 735).
  // The ID column is an integer (tracker:id), not an IRI: an IRI column costs a lookup in
  // Resource per row.
  std::vector<std::string> branches;
  for (size_t group = 0; group < kGroupCount; ++group) {
    branches.push_back(
        fmt::format("{{ {} {} BIND({} AS ?k) }}", selector, kGroups[group].body, group));
  }
  return fmt::format(
      "{}SELECT ?v1 ?v2 ?v3 ?v4 ?v5 ?v6 ?v7 ?v8 ?v9 ?v10 tracker:id(?c) ?k WHERE {{\n{}\n}}",
      kSparqlPrefixes, fmt::join(branches, "\nUNION\n"));
}

std::string GroupQuery(size_t group, std::string_view restriction) {
  // The bodies of ContactsQuery's branches, each with its own ?c: one lookup per contact ID.
  const auto& [columns, body] = kGroups[group];
  std::string select = "SELECT tracker:id(?c)";
  for (int i = 1; i <= columns; ++i) select += fmt::format(" ?v{}", i);
  return fmt::format("{}{} WHERE {{ {} {} }}", kSparqlPrefixes, select, body, restriction);
}

}  // namespace quarry::contacts
