// shared-mime-info's globs first (mime.h); libmagic only when the name does not decide, behind
// one RAII handle per thread: magic_load() costs about a millisecond, too much to repeat for
// each of thousands of files, and a magic_t must not be shared across threads. libmagic itself
// (and its libbz2) is loaded with dlopen on first use, so a process whose files all have a
// telling name never maps it (its text rules cost ~1.4 ms a file).
#include "extract/core/mime.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <magic.h>
#include <unistd.h>

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "extract/core/dl_symbol.h"

namespace quarry::extract {
namespace {

// libmagic's soname has been libmagic.so.1 since file 4.x.
constexpr char kLibmagic[] = "libmagic.so.1";

struct Libmagic {
  decltype(&magic_open) open = nullptr;
  decltype(&magic_load) load = nullptr;
  decltype(&magic_descriptor) descriptor = nullptr;
  decltype(&magic_error) error = nullptr;
  decltype(&magic_close) close = nullptr;
  std::string load_error;  // why it could not be loaded; empty when loaded
};

const Libmagic& LoadLibmagic() {
  static const Libmagic libmagic = [] {
    Libmagic loaded;
    void* library = dlopen(kLibmagic, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      const char* reason = dlerror();
      loaded.load_error = fmt::format("libmagic: cannot load {}: {}", kLibmagic,
                                      reason ? reason : "dlopen failed");
      return loaded;
    }
    BindSymbol(library, "magic_open", loaded.open);
    BindSymbol(library, "magic_load", loaded.load);
    BindSymbol(library, "magic_descriptor", loaded.descriptor);
    BindSymbol(library, "magic_error", loaded.error);
    BindSymbol(library, "magic_close", loaded.close);
    if (!loaded.open || !loaded.load || !loaded.descriptor || !loaded.error || !loaded.close) {
      loaded.load_error = fmt::format("libmagic: {} lacks the magic_* functions", kLibmagic);
    }
    return loaded;
  }();
  return libmagic;
}

struct MagicCloser {
  void operator()(magic_t handle) const noexcept { LoadLibmagic().close(handle); }
};
using MagicHandle = std::unique_ptr<std::remove_pointer_t<magic_t>, MagicCloser>;

Result<magic_t> ThreadMagic() {
  thread_local MagicHandle handle;
  if (handle) return handle.get();
  const Libmagic& libmagic = LoadLibmagic();
  if (!libmagic.load_error.empty()) return Error(Errc::kUnsupported, libmagic.load_error);
  MagicHandle opened(libmagic.open(MAGIC_MIME_TYPE | MAGIC_ERROR));
  if (!opened) return Error(Errc::kInternal, "libmagic: magic_open failed");
  if (libmagic.load(opened.get(), nullptr) != 0) {
    return Error(Errc::kNotFound, fmt::format("libmagic: cannot load its database: {}",
                                              libmagic.error(opened.get())));
  }
  handle = std::move(opened);
  return handle.get();
}

// Without shared-mime-info: the extension's type where libmagic is vague (GuessMimeType).
struct ExtensionMime {
  std::string_view extension;
  std::string_view mime_type;
};
constexpr ExtensionMime kExtensionMimes[] = {
    {"pdf", "application/pdf"},
    {"mp3", "audio/mpeg"},
    {"flac", "audio/flac"},
    {"ogg", "audio/ogg"},
    {"oga", "audio/ogg"},
    {"opus", "audio/ogg"},
    {"m4a", "audio/mp4"},
    {"wav", "audio/x-wav"},
    {"jpg", "image/jpeg"},
    {"jpeg", "image/jpeg"},
    {"png", "image/png"},
    {"txt", "text/plain"},
    {"md", "text/markdown"},
    {"markdown", "text/markdown"},
    {"html", "text/html"},
    {"htm", "text/html"},
    {"csv", "text/csv"},
    {"json", "application/json"},
    {"xml", "application/xml"},
    {"odt", "application/vnd.oasis.opendocument.text"},
    {"docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"},
    {"m3u", "audio/x-mpegurl"},
    {"m3u8", "audio/x-mpegurl"},
    {"pls", "audio/x-scpls"},
};

// Whether the extension may make libmagic's vague answer precise: text stays text (Markdown,
// CSV, playlists), a zip only becomes an office document, unknown bytes take the extension.
// An empty file keeps inode/x-empty (the registry still picks a module by extension).
bool ExtensionRefines(std::string_view detected, std::string_view by_extension) {
  if (by_extension.empty()) return false;
  if (detected == "application/octet-stream") return true;
  if (detected == "application/zip") return by_extension.substr(0, 16) == "application/vnd.";
  if (detected == "text/plain") {
    return by_extension.substr(0, 5) == "text/" || by_extension == "application/json" ||
           by_extension == "application/xml" || by_extension.substr(0, 8) == "audio/x-";
  }
  return false;
}

std::string_view MimeTypeForExtension(std::string_view lower_extension) {
  for (const ExtensionMime& entry : kExtensionMimes) {
    if (entry.extension == lower_extension) return entry.mime_type;
  }
  return {};
}

Result<std::string> LibmagicTypeImpl(int fd, std::string_view path) {
  QUARRY_ASSIGN_OR_RETURN(magic_t magic, ThreadMagic());
  // magic_descriptor() reads from the current offset and moves it; start at 0 and put it back.
  if (lseek(fd, 0, SEEK_SET) < 0) {
    return Error(Errc::kIo, fmt::format("{}: cannot seek: not a regular file", path));
  }
  const Libmagic& libmagic = LoadLibmagic();
  const char* detected = libmagic.descriptor(magic, fd);
  const off_t rewound = lseek(fd, 0, SEEK_SET);
  if (detected == nullptr || rewound < 0) {
    const char* reason = libmagic.error(magic);
    return Error(Errc::kIo, fmt::format("{}: cannot read its type: {}", path,
                                        reason ? reason : "unknown libmagic error"));
  }
  std::string mime_type(detected);
  // libmagic names an empty file application/x-empty through a descriptor and inode/x-empty
  // through a path; keep the shared-mime-info name.
  if (mime_type == "application/x-empty") mime_type = "inode/x-empty";
  return mime_type;
}

// libmagic names that shared-mime-info's aliases do not know, and their canonical names.
struct Rename {
  std::string_view libmagic;
  std::string_view shared_mime_info;
};
constexpr Rename kLibmagicNames[] = {
    {"application/x-empty", "application/x-zerosize"},
    {"inode/x-empty", "application/x-zerosize"},
    {"text/x-c++", "text/x-c++src"},
    {"text/x-script.python", "text/x-python3"},
    {"text/x-shellscript", "application/x-shellscript"},
    {"application/x-bytecode.python", "application/x-python-bytecode"},
    {"application/x-dosexec", "application/x-ms-dos-executable"},
    {"application/x-pie-executable", "application/x-executable"},
    {"text/x-ruby", "application/x-ruby"},
    {"text/x-php", "application/x-php"},
    {"text/x-msdos-batch", "application/x-bat"},
};

// Whether `head` is UTF-8 text without NUL or control bytes (tab, newline, carriage return,
// form feed and escape allowed). `truncated`: `head` stops inside the file, so a multi-byte
// sequence cut at its end is fine.
bool IsCleanText(std::string_view head, bool truncated) {
  size_t i = 0;
  while (i < head.size()) {
    const auto c = static_cast<unsigned char>(head[i]);
    if (c < 0x80) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b) return false;
      if (c == 0x7f) return false;
      ++i;
      continue;
    }
    size_t length = 0;
    unsigned min = 0;
    if ((c & 0xe0) == 0xc0) { length = 2; min = 0x80; }
    else if ((c & 0xf0) == 0xe0) { length = 3; min = 0x800; }
    else if ((c & 0xf8) == 0xf0) { length = 4; min = 0x10000; }
    else return false;
    if (i + length > head.size()) return truncated;
    unsigned code = c & (0x7fu >> length);
    for (size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(head[i + k]);
      if ((next & 0xc0) != 0x80) return false;
      code = (code << 6) | (next & 0x3fu);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    i += length;
  }
  return true;
}

// Ogg streams: the codec of the first page's packet (offset 28), as shared-mime-info's magic
// tells them apart (libmagic says audio/ogg for all).
struct OggCodec {
  std::string_view id;
  std::string_view mime_type;
};
constexpr OggCodec kOggCodecs[] = {
    {"\x01vorbis", "audio/x-vorbis+ogg"}, {"OpusHead", "audio/x-opus+ogg"},
    {"\x7f" "FLAC", "audio/x-flac+ogg"},   {"Speex   ", "audio/x-speex+ogg"},
    {"\x80theora", "video/x-theora+ogg"},
};

// What the leading bytes alone tell for conflicting globs, before libmagic: an Ogg codec; text
// when a glob is text (GIO's looks_like_text, which then picks the first text glob: .json,
// .ts, .m3u); "" otherwise.
std::string_view QuickSniff(const MimeDatabase& database,
                            const std::vector<std::string_view>& candidates,
                            std::string_view head, bool truncated) {
  if (head.starts_with("OggS") && head.size() > 28) {
    for (const OggCodec& codec : kOggCodecs) {
      if (head.substr(28).starts_with(codec.id)) return codec.mime_type;
    }
  }
  const bool text_glob = std::any_of(candidates.begin(), candidates.end(), [&](auto type) {
    return database.IsA(type, "text/plain");
  });
  if (text_glob && !head.empty() && IsCleanText(head, truncated)) return "text/plain";
  return {};
}

// Types GIO's highest-priority magic would name over conflicting globs: anything that is not
// text (text sniffing is weak evidence next to a name).
bool SniffOutranksGlobs(const MimeDatabase& database, std::string_view sniffed) {
  return sniffed != "application/octet-stream" && sniffed != "application/x-zerosize" &&
         !database.IsA(sniffed, "text/plain");
}

void AsciiLower(std::string& text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
}

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool ReadFile(const std::string& path, std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "re");
  if (file == nullptr) return false;
  char buffer[16384];
  size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, got);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  return !failed;
}

// Calls `line_fn` for each line of `text` that is neither empty nor a # comment.
template <typename LineFn>
void ForEachLine(std::string_view text, LineFn line_fn) {
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.front() != '#') line_fn(line);
  }
}

// Calls `pair_fn(first, second)` for each "first second" line of the file at `path` (the
// format of shared-mime-info's aliases and subclasses); a missing file has no pairs.
template <typename PairFn>
void ForEachPair(const std::string& path, PairFn pair_fn) {
  std::string text;
  if (!ReadFile(path, text)) return;
  ForEachLine(text, [&](std::string_view line) {
    const size_t space = line.find(' ');
    if (space != std::string_view::npos) pair_fn(line.substr(0, space), line.substr(space + 1));
  });
}

std::vector<std::string_view> BestOf(const std::vector<std::string_view>& types,
                                     const std::vector<int>& weights) {
  int best = 0;
  for (int weight : weights) best = std::max(best, weight);
  std::vector<std::string_view> chosen;
  for (size_t i = 0; i < types.size(); ++i) {
    if (weights[i] == best && std::find(chosen.begin(), chosen.end(), types[i]) == chosen.end()) {
      chosen.push_back(types[i]);
    }
  }
  return chosen;
}

}  // namespace

Result<std::string> LibmagicMimeType(int fd, std::string_view path) {
  return LibmagicTypeImpl(fd, path);
}

Result<MimeDatabase> MimeDatabase::Load(const std::string& mime_dir) {
  MimeDatabase database;
  const std::string globs_path = mime_dir + "/globs2";
  std::string text;
  if (!ReadFile(globs_path, text)) {
    return Error(Errc::kNotFound, fmt::format("{}: cannot read: {}", globs_path,
                                              std::strerror(errno ? errno : ENOENT)));
  }
  // weight:type:glob[:flags[,flag...]]
  ForEachLine(text, [&](std::string_view line) {
    const size_t first = line.find(':');
    const size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second == std::string_view::npos) return;
    int weight = 0;
    for (char c : line.substr(0, first)) {
      if (c < '0' || c > '9') return;
      weight = weight * 10 + (c - '0');
    }
    const std::string_view type = line.substr(first + 1, second - first - 1);
    std::string_view glob = line.substr(second + 1);
    bool case_sensitive = false;
    if (const size_t flags = glob.find(':'); flags != std::string_view::npos) {
      case_sensitive = glob.substr(flags + 1).find("cs") != std::string_view::npos;
      glob = glob.substr(0, flags);
    }
    if (type.empty() || glob.empty()) return;
    database.AddGlob(weight, type, glob, case_sensitive);
  });
  if (database.globs_ == 0) {
    return Error(Errc::kInvalidArgument, fmt::format("{}: no globs in it", globs_path));
  }
  ForEachPair(mime_dir + "/aliases", [&](std::string_view alias, std::string_view type) {
    database.aliases_.emplace(std::string(alias), std::string(type));
  });
  ForEachPair(mime_dir + "/subclasses", [&](std::string_view type, std::string_view parent) {
    database.parents_.emplace(std::string(type), std::string(parent));
  });
  return database;
}

void MimeDatabase::AddGlob(int weight, std::string_view type, std::string_view glob,
                           bool case_sensitive) {
  ++globs_;
  std::string key(glob);
  if (!case_sensitive) AsciiLower(key);
  const bool has_wildcard = key.find_first_of("*?[") != std::string::npos;
  if (!has_wildcard) {
    (case_sensitive ? literal_cs_ : literal_)[key].push_back({std::string(type), weight});
    return;
  }
  // "*<literal>": a suffix, looked up by hash ("*.tar.gz" -> ".tar.gz").
  if (key.size() > 1 && key[0] == '*' && key.find_first_of("*?[", 1) == std::string::npos) {
    key.erase(0, 1);
    (case_sensitive ? suffix_cs_starts_ : suffix_starts_)[static_cast<unsigned char>(key[0])] =
        true;
    (case_sensitive ? suffix_cs_ : suffix_)[key].push_back({std::string(type), weight});
    return;
  }
  complex_.push_back({std::move(key), std::string(type), weight, case_sensitive});
}

const std::vector<MimeDatabase::Match>* MimeDatabase::LongestSuffix(const Table& table,
                                                                    const bool (&starts)[256],
                                                                    std::string_view name) {
  if (table.empty()) return nullptr;
  for (size_t i = 0; i < name.size(); ++i) {
    if (!starts[static_cast<unsigned char>(name[i])]) continue;
    const auto found = table.find(name.substr(i));
    if (found != table.end()) return &found->second;
  }
  return nullptr;
}

std::vector<std::string_view> MimeDatabase::MatchName(std::string_view path) const {
  const std::string_view name = BaseName(path);
  std::vector<std::string_view> types;
  std::vector<int> weights;
  if (name.empty() || globs_ == 0) return types;
  const auto take = [&](const std::vector<Match>& matches) {
    for (const Match& match : matches) {
      types.push_back(match.type);
      weights.push_back(match.weight);
    }
  };
  std::string lower(name);
  AsciiLower(lower);
  // Literal names, then the longest suffix (case-sensitive globs first), then the patterns.
  if (const auto found = literal_cs_.find(name); found != literal_cs_.end()) take(found->second);
  if (const auto found = literal_.find(lower); found != literal_.end()) take(found->second);
  if (types.empty()) {
    if (const auto* matches = LongestSuffix(suffix_cs_, suffix_cs_starts_, name)) {
      take(*matches);
    } else if (const auto* lower_matches = LongestSuffix(suffix_, suffix_starts_, lower)) {
      take(*lower_matches);
    }
  }
  if (types.empty()) {
    const std::string exact(name);
    for (const Pattern& pattern : complex_) {
      const std::string& subject = pattern.case_sensitive ? exact : lower;
      if (fnmatch(pattern.pattern.c_str(), subject.c_str(), 0) == 0) {
        types.push_back(pattern.type);
        weights.push_back(pattern.weight);
      }
    }
  }
  return BestOf(types, weights);
}

std::string_view MimeDatabase::Canonical(std::string_view type) const {
  for (const Rename& rename : kLibmagicNames) {
    if (rename.libmagic == type) type = rename.shared_mime_info;
  }
  const auto found = aliases_.find(type);
  return found == aliases_.end() ? type : std::string_view(found->second);
}

std::vector<std::string_view> MimeDatabase::Parents(std::string_view type) const {
  std::vector<std::string_view> parents;
  const auto [begin, end] = parents_.equal_range(type);
  for (auto it = begin; it != end; ++it) parents.push_back(it->second);
  if (parents.empty() && type.starts_with("text/") && type != "text/plain") {
    parents.push_back("text/plain");
  }
  return parents;
}

bool MimeDatabase::IsA(std::string_view type, std::string_view ancestor) const {
  if (type == ancestor) return true;
  if (ancestor == "application/octet-stream") return !type.starts_with("inode/");
  // A breadth-first walk, bounded: subclasses is a small DAG, but a broken file must not loop.
  std::vector<std::string_view> frontier{type};
  for (int depth = 0; depth < 8 && !frontier.empty(); ++depth) {
    std::vector<std::string_view> next;
    for (std::string_view current : frontier) {
      for (std::string_view parent : Parents(current)) {
        if (parent == ancestor) return true;
        next.push_back(parent);
      }
    }
    frontier = std::move(next);
  }
  return false;
}

std::string MimeDatabase::Resolve(const std::vector<std::string_view>& candidates,
                                  std::string_view sniffed) const {
  const std::string_view content = Canonical(sniffed);
  if (candidates.empty()) return std::string(content);
  for (std::string_view candidate : candidates) {
    if (IsA(candidate, content)) return std::string(candidate);  // the name refines the content
  }
  for (std::string_view candidate : candidates) {
    if (IsA(content, candidate)) return std::string(content);  // the content refines a name
  }
  if (SniffOutranksGlobs(*this, content)) return std::string(content);
  return std::string(candidates.front());
}

const MimeDatabase& MimeInfo() {
  static const MimeDatabase database = [] {
    const char* configured = std::getenv("QUARRY_MIME_DIR");
    const std::string dir = configured && *configured ? configured : "/usr/share/mime";
    auto loaded = MimeDatabase::Load(dir);
    if (!loaded) {
      fmt::print(stderr,
                 "quarry: warning: shared-mime-info: {}; MIME types come from libmagic alone\n",
                 loaded.error().ToString());
      return MimeDatabase();
    }
    return std::move(*loaded);
  }();
  return database;
}

std::string_view MimeTypeFromName(std::string_view path) {
  const auto types = MimeInfo().MatchName(path);
  return types.size() == 1 ? types.front() : std::string_view();
}

Result<std::string> GuessMimeType(const MimeDatabase& database, std::string_view path,
                                  const MimeSniffer& sniff) {
  if (database.empty()) {
    QUARRY_ASSIGN_OR_RETURN(std::string mime_type, sniff({}));
    if (IsGenericMime(mime_type)) {
      const std::string_view by_extension = MimeTypeForExtension(LowerExtension(path));
      if (ExtensionRefines(mime_type, by_extension)) mime_type = by_extension;
    }
    return mime_type;
  }
  const std::vector<std::string_view> candidates = database.MatchName(path);
  if (candidates.size() == 1) return std::string(candidates.front());
  auto sniffed = sniff(candidates);
  if (!sniffed) {
    // Unreadable content: the name's first type if it has one (GIO's answer without data).
    if (!candidates.empty()) return std::string(candidates.front());
    return std::move(sniffed).error();
  }
  return database.Resolve(candidates, *sniffed);
}

Result<std::string> DetectMimeType(int fd, std::string_view path) {
  const MimeDatabase& database = MimeInfo();
  return GuessMimeType(database, path, [&](const std::vector<std::string_view>& candidates) {
    if (!candidates.empty()) {
      char head[kMimeHeadBytes];
      const ssize_t got = pread(fd, head, sizeof head, 0);
      if (got > 0) {
        const std::string_view quick =
            QuickSniff(database, candidates, std::string_view(head, static_cast<size_t>(got)),
                       static_cast<size_t>(got) == sizeof head);
        if (!quick.empty()) return Result<std::string>(std::string(quick));
      }
    }
    return LibmagicMimeType(fd, path);
  });
}

Result<void> LoadMimeDetection() {
  (void)MimeInfo();
  const Libmagic& libmagic = LoadLibmagic();
  if (!libmagic.load_error.empty()) return Error(Errc::kUnsupported, libmagic.load_error);
  return {};
}

std::string LowerExtension(std::string_view path) {
  const std::string_view base = BaseName(path);
  const size_t dot = base.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return {};
  std::string extension(base.substr(dot + 1));
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

bool IsGenericMime(std::string_view mime_type) {
  return mime_type == "application/octet-stream" || mime_type == "text/plain" ||
         mime_type == "application/zip" || mime_type == "inode/x-empty" ||
         mime_type == "application/x-zerosize";
}

}  // namespace quarry::extract
