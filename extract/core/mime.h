// MIME types as the desktop names them: nie:mimeType follows freedesktop.org shared-mime-info
// (text/x-csrc, audio/flac, application/x-shellscript), typed the way GIO's
// g_content_type_guess does it, so Tracker-style queries and GNOME/KDE applications see the
// names they expect.
// 1. The file name against /usr/share/mime/globs2: literal names first ("Makefile"), then the
//    longest suffix ("*.tar.gz" before "*.gz"; case-sensitive globs before the others, which
//    match case-insensitively), then the other patterns ("README*"); of the matches only the
//    highest weight counts. One type left: that is the answer, and nothing is read.
// 2. No glob, or several types (".ogg", ".json", ".ts"): the leading bytes decide. For
//    conflicting globs two cheap checks come first: an Ogg stream's codec (as shared-mime-info's
//    magic reads it: audio/x-vorbis+ogg, audio/x-opus+ogg) and, when a glob is a text type,
//    clean UTF-8 text (GIO's looks_like_text: the first text glob wins, so a .json is
//    application/json without libmagic's ~1.4 ms of text rules). Otherwise libmagic reads them
//    (loaded with dlopen on first use, one handle per thread) and its answer is renamed to
//    shared-mime-info's canonical name (aliases, plus the few libmagic names it lacks). Among
//    conflicting globs the first type that is, or derives from (subclasses), the sniffed type
//    wins; a sniffed non-text type the globs do not derive from wins over them (GIO's
//    high-priority magic: a PDF named .ts); otherwise the first glob.
// So a PDF named .txt is text/plain, as GIO says; a file without a name match gets its content
// type. The database is loaded once per process (MimeInfo); a missing or unreadable globs2 is
// not fatal: one warning naming the file, then libmagic alone with the extension breaking
// its vague answers (the pre-shared-mime-info behaviour).
// Thread-safety: any thread (the database is immutable once loaded; each thread keeps its
// own libmagic handle).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/common/result.h"

namespace quarry::extract {

// One directory of shared-mime-info's generated files (globs2, aliases, subclasses).
class MimeDatabase {
 public:
  MimeDatabase() = default;  // empty: no globs, no aliases
  // Reads <mime_dir>/globs2 (required) and <mime_dir>/aliases and subclasses (optional).
  static Result<MimeDatabase> Load(const std::string& mime_dir);

  bool empty() const { return globs_ == 0; }
  size_t glob_count() const { return globs_; }

  // The types the best globs give the base name of `path` (see the file comment), in globs2
  // order, without repeats; empty when no glob matches. One entry: the name decides.
  std::vector<std::string_view> MatchName(std::string_view path) const;
  // shared-mime-info's canonical name for `type` (an alias, or a libmagic name such as
  // text/x-c++ or inode/x-empty); `type` itself when it is canonical or unknown.
  std::string_view Canonical(std::string_view type) const;
  // Whether `type` is `ancestor` or derives from it: subclasses, every text/* from text/plain,
  // everything but inode/* from application/octet-stream.
  bool IsA(std::string_view type, std::string_view ancestor) const;
  // The direct parents of `type` in subclasses (text/* without one: text/plain).
  std::vector<std::string_view> Parents(std::string_view type) const;
  // Step 2 of the file comment: the answer for conflicting (or no) glob `candidates` and the
  // type libmagic `sniffed` (any name; canonicalised here).
  std::string Resolve(const std::vector<std::string_view>& candidates,
                      std::string_view sniffed) const;

 private:
  struct Match {
    std::string type;
    int weight = 0;
  };
  struct Pattern {
    std::string pattern;
    std::string type;
    int weight = 0;
    bool case_sensitive = false;
  };
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>()(text); }
  };
  using Table = std::unordered_map<std::string, std::vector<Match>, Hash, std::equal_to<>>;

  void AddGlob(int weight, std::string_view type, std::string_view glob, bool case_sensitive);
  static const std::vector<Match>* LongestSuffix(const Table& table, const bool (&starts)[256],
                                                 std::string_view name);

  size_t globs_ = 0;
  Table literal_cs_;   // "Makefile" spelled exactly
  Table literal_;      // "makefile", lower case
  Table suffix_cs_;    // "*.C": key ".C"
  Table suffix_;       // "*.tar.gz": key ".tar.gz", lower case
  bool suffix_cs_starts_[256] = {};  // first bytes of suffix_cs_'s keys
  bool suffix_starts_[256] = {};
  std::vector<Pattern> complex_;  // fnmatch patterns ("*.[1-9]", "readme*")
  std::unordered_map<std::string, std::string, Hash, std::equal_to<>> aliases_;
  std::unordered_multimap<std::string, std::string, Hash, std::equal_to<>> parents_;
};

// The process's database: $QUARRY_MIME_DIR, else /usr/share/mime, loaded on first use. Empty
// (after one warning on stderr naming the file) when globs2 cannot be read.
const MimeDatabase& MimeInfo();

// The type `path`'s name alone gives when it is certain (one best glob), else "".
std::string_view MimeTypeFromName(std::string_view path);

// Types a file's content (any name, libmagic's included), told the conflicting glob types
// (empty: no glob matched, or no database).
using MimeSniffer =
    std::function<Result<std::string>(const std::vector<std::string_view>& candidates)>;

// GIO's guess with `database` for a file named `path` whose content `sniff` types (called only
// when the name does not decide). An empty database: `sniff`'s answer, made precise by the
// extension when vague (text/plain for a .md, a zip for a .docx).
Result<std::string> GuessMimeType(const MimeDatabase& database, std::string_view path,
                                  const MimeSniffer& sniff);

// The MIME type of the open regular file `fd` named `path` (used for the name and in errors),
// with MimeInfo(). Never empty on success.
Result<std::string> DetectMimeType(int fd, std::string_view path);

// libmagic's own name for the content of `fd` (read from offset 0, offset restored).
Result<std::string> LibmagicMimeType(int fd, std::string_view path);

// How many leading bytes the quick checks before libmagic read (an Ogg codec, clean text).
inline constexpr size_t kMimeHeadBytes = 4096;

// Loads the MIME database and libmagic now (otherwise loaded on first use); the quarry-extract
// worker does, before its seccomp filter.
Result<void> LoadMimeDetection();

// The lower-case extension of the last path segment, without the dot; "" for none or a
// dot file (".bashrc").
std::string LowerExtension(std::string_view path);

// A type that says little about the format (octet-stream, text/plain, zip, empty): the
// registry may then choose a module by the file's extension.
bool IsGenericMime(std::string_view mime_type);

}  // namespace quarry::extract
