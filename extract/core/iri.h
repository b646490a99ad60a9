// Deterministic IRIs for the resources a module names (artists, albums, tags, contacts,
// places), so the same artist named by many files is one resource.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace quarry::extract {

// "urn:quarry:<kind>:<key>", where the key is derived from the identifying parts (in order) by
// Unicode case folding and NFC normalisation, so "ABBA" and "abba" are one artist; the parts
// are separated unambiguously, so {"a b", "c"} and {"a", "b c"} differ. `kind` is a short
// lower-case word: "artist", "album", "tag", "contact", "location" ….
std::string DeterministicIri(std::string_view kind,
                             std::initializer_list<std::string_view> identifying_parts);

}  // namespace quarry::extract
