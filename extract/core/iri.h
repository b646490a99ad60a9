// Deterministic IRIs for the resources a module names (artists, albums, tags, contacts,
// places), so the same artist named by many files is one resource.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace quarry::extract {

// "urn:quarry:<kind>:<key>", where the key is derived from the identifying parts (in order) by
// Unicode case folding and NFC normalisation, so "ABBA" and "abba" are one artist; the parts
// are separated unambiguously, so {"a b", "c"} and {"a", "b c"} differ. `kind` is a short
// lower-case word: "artist", "album", "tag", "contact", "location" ….
std::string DeterministicIri(std::string_view kind,
                             std::initializer_list<std::string_view> identifying_parts);

// "file:///a%20b.pdf" for an absolute path, encoded as GLib's g_filename_to_uri() (and
// miner-fs) does: RFC 3986's unreserved characters and !$&'()*+,;=:@/ stay, every other byte is
// percent-encoded, so any file name (spaces, '#', non-UTF-8 bytes) gives a valid IRI.
// The IRI of the file's nie:DataObject (Tracker 3's layout: the file resource is its URL).
std::string FileUrl(std::string_view absolute_path);

// The path bytes of a file:// URL (any percent-encoding decoded): "file:///a%20b" -> "/a b";
// nullopt when `url` is not a file:// URL with an absolute path or holds a bad escape.
std::optional<std::string> FileUrlToPath(std::string_view url);

// The IRI of the information element a file holds: "urn:quarry:ie:" + the file URL. Derived
// from the URL alone (never case-folded: "A.pdf" and "a.pdf" are two files), so re-extracting
// a file replaces the same element.
std::string ElementIri(std::string_view file_url);

// Appends `bytes` percent-encoded, RFC 3986's unreserved characters and those in `keep` left as
// they are (FileUrl's and DeterministicIri's encoding; iri_fold.cpp uses it).
void AppendIriEncoded(std::string_view bytes, std::string_view keep, std::string& out);

}  // namespace quarry::extract
