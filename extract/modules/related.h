// The shared resources modules name (contacts, tags) with their deterministic IRIs, built the
// same way by every module so an author named by a page and by a photo is one contact.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string_view>

#include "extract/core/extraction.h"

namespace quarry::extract {

// An nco:Contact with nco:fullname `name`, IRI DeterministicIri("contact", {name}).
Description MakeContact(std::string_view name);
// An nao:Tag with nao:prefLabel `label`, IRI DeterministicIri("tag", {label}).
Description MakeTag(std::string_view label);

// Links `element` to `related` through `property` and keeps `related` in `out`; a resource
// already in `out` (same IRI) is not added twice.
void AddRelated(Extraction& out, std::string property, Description related);

// `lexical` when it is a valid xsd:dateTime (store/common/datetime.h rules), else nullopt:
// a broken date in a file drops that value, not the whole extraction.
std::optional<DateTime> CheckedDateTime(std::string_view lexical);

}  // namespace quarry::extract
