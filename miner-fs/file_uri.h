// file:// URIs for any path bytes (issue 5: "a correct file:// URI, percent-encoded, any bytes
// in names"). The encoding is GLib's g_filename_to_uri(): unreserved characters and
// !$&'()*+,;=:@/ stay, every other byte (spaces, %, #, ?, non-ASCII UTF-8, invalid UTF-8)
// becomes %XX, so a URI Quarry stores equals the one a GNOME application computes.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "store/common/sparql_quote.h"

namespace quarry::miner {

// "/home/a b/é" -> "file:///home/a%20b/%C3%A9". `path` must be absolute.
std::string FileUri(std::string_view absolute_path);
// Appends the encoded `name` (one path segment, '/' not allowed in it) to `uri` after a '/'.
std::string ChildUri(std::string_view folder_uri, std::string_view name);
// The path bytes of a file:// URI; nullopt when it is not one or holds a bad escape.
std::optional<std::string> FileUriToPath(std::string_view uri);
// SPARQL string literals: quarry::SparqlString (store/common/sparql_quote.h).
using quarry::SparqlString;

}  // namespace quarry::miner
