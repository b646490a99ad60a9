// The SPARQL text miner-fs sends: one function per kind of write, pure, so the exact updates
// are unit-tested without a store. Resources get IRIs of their own (urn:quarry:file:<hex>)
// rather than their URL, so a moved or renamed file keeps its resource, and with it what the
// extractor found, when only nie:url changes (issue 5 "Moves keep their data").
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "miner-fs/folder_diff.h"
#include "quarry/result.h"

namespace quarry::miner {

// The basic facts of one file or folder (issue 5 "Writes the file's basic facts").
struct FileFacts {
  std::string iri;
  std::string uri;
  std::string name;
  EntryKind kind = EntryKind::kFile;
  int64_t size = 0;
  int64_t mtime_us = 0;
  int64_t created_us = 0;  // 0: not known, no nfo:fileCreated
  std::string mime_type;   // files only
  std::string parent_iri;  // empty for an index root
};

// A fresh resource IRI.
std::string NewResourceIri();
// xsd:dateTime lexical form of a Unix time in microseconds (UTC).
std::string DateTimeLiteral(int64_t micros);
// Microseconds of an xsd:dateTime lexical form; nullopt-like error when it does not parse.
Result<int64_t> ParseDateTime(std::string_view lexical);

std::string InsertResource(const FileFacts& facts);
// A changed file or folder: size, mtime and MIME type replaced; the resource stays.
std::string UpdateResource(const FileFacts& facts);
// The resource and, for a folder, everything under its URI, in one request.
std::string DeleteResource(std::string_view iri, std::string_view uri, EntryKind kind);
// A moved or renamed file or folder: its URL, name and container, and for a folder the URL of
// every descendant rewritten in the same request.
std::string MoveResource(std::string_view iri, std::string_view old_uri, const FileFacts& to);

// The crawl's one query for a batch of up to `slots` folders, prepared once per slot count and
// run with the folders bound to the parameters ~f0 ... (ChildrenSlotName): the children the
// store knows under each, as rows (the folder's slot, name, the resource's IRI — with
// `file_iris` false only a folder's, "" for a file —, mtime, size or unbound, whether it is an
// nfo:Folder). A slot bound to an IRI no resource has gives no rows.
inline constexpr size_t kMaxChildrenSlots = 256;
std::string KnownChildrenQuery(size_t slots, bool file_iris);
const std::string& ChildrenSlotName(size_t slot);  // "f0", "f1", ...
// The resource and facts stored for one URL: rows (resource, mtime, size, whether an nfo:Folder).
std::string LookupQuery(std::string_view uri);

}  // namespace quarry::miner
