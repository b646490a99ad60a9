#include "extract/modules/related.h"

#include <algorithm>
#include <string>

#include "extract/core/iri.h"
#include "extract/core/vocab.h"
#include "store/common/datetime.h"

namespace quarry::extract {

Description MakeContact(std::string_view name) {
  Description contact;
  contact.iri = DeterministicIri("contact", {name});
  contact.AddType(vocab::Nco("Contact"));
  contact.Add(vocab::Nco("fullname"), std::string(name));
  return contact;
}

Description MakeTag(std::string_view label) {
  Description tag;
  tag.iri = DeterministicIri("tag", {label});
  tag.AddType(vocab::Nao("Tag"));
  tag.Add(vocab::Nao("prefLabel"), std::string(label));
  return tag;
}

void AddRelated(Extraction& out, std::string property, Description related) {
  out.element.Add(std::move(property), Iri{related.iri});
  const bool is_known =
      std::any_of(out.related.begin(), out.related.end(),
                  [&](const Description& known) { return known.iri == related.iri; });
  if (!is_known) out.related.push_back(std::move(related));
}

std::optional<DateTime> CheckedDateTime(std::string_view lexical) {
  if (!EncodeDateTime(lexical).ok()) return std::nullopt;
  return DateTime{std::string(lexical)};
}

}  // namespace quarry::extract
