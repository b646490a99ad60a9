// The stored record of a contact (issue 7, the EDS route): every field of a Contact in one
// string, written by ContactBook::Save as qco:record (ontology/39-qco.ontology) in the same
// INSERT as the contact's nco triples and qco: keys, and read back by one index lookup (UID or
// key -> contact row -> record column) instead of one UNION branch per field group.
//
// Format: "Q1" then the fields in Contact's order, each string as `<decimal length>:<bytes>`
// and each list as `<decimal count>#` then its items (an Email is its address then its type
// list, a PostalAddress its seven components then its types, an ImAddress protocol then ID).
// Plain UTF-8 text (the lengths are digits), so it is an ordinary xsd:string literal; decoding
// is one pass with no search for separators or escapes.
// Pure; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "quarry/contacts.h"

namespace quarry::contacts {

inline constexpr std::string_view kRecordMagic = "Q1";

std::string EncodeRecord(const Contact& contact);
// The contact of `record`; nullopt when it is not a record of this version (the reader then
// falls back to the nco data).
std::optional<Contact> DecodeRecord(std::string_view record);
// The same, decoded into `contact` in place (no Contact moved; the readers decode straight into
// the vector they return). False as DecodeRecord's nullopt, `contact` then partly written.
// Every field of `contact` is assigned (lists resized), so a reused Contact needs no clearing.
bool DecodeRecordInto(std::string_view record, Contact& contact);

}  // namespace quarry::contacts
