#include "extract/modules/playlist_module.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "extract/core/iri.h"
#include "extract/core/vocab.h"
#include "extract/modules/text_reader.h"

namespace quarry::extract {
namespace {

// A playlist of 100,000 entries is ~10 MiB; beyond this it is not a playlist.
constexpr size_t kMaxPlaylistBytes = 16 << 20;

struct Entry {
  std::string location;              // as written in the file
  std::optional<int64_t> seconds;    // #EXTINF / LengthN, when given and not -1
};

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(Trim(text.substr(start, end - start)));
    start = end + 1;
  }
  return lines;
}

std::optional<int64_t> ParseSeconds(std::string_view text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data() || value < 0) return std::nullopt;
  return value;
}

// #EXTM3U, then optional "#EXTINF:<seconds>,<title>" before each location; other # lines are
// comments.
std::vector<Entry> ParseM3u(std::string_view text) {
  std::vector<Entry> entries;
  std::optional<int64_t> pending_seconds;
  for (const std::string_view line : Lines(text)) {
    if (line.empty()) continue;
    if (line.starts_with("#EXTINF:")) {
      pending_seconds = ParseSeconds(line.substr(8));
    } else if (line.front() != '#') {
      entries.push_back({std::string(line), pending_seconds});
      pending_seconds.reset();
    }
  }
  return entries;
}

// [playlist] FileN=…, LengthN=…; N orders the entries, whatever order the lines come in.
std::vector<Entry> ParsePls(std::string_view text) {
  std::map<int64_t, Entry> by_number;
  for (const std::string_view line : Lines(text)) {
    const size_t equals = line.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string key = [&] {
      std::string lower(Trim(line.substr(0, equals)));
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      return lower;
    }();
    const std::string_view value = Trim(line.substr(equals + 1));
    const bool is_file = key.starts_with("file");
    const bool is_length = key.starts_with("length");
    if (!is_file && !is_length) continue;
    const auto number = ParseSeconds(std::string_view(key).substr(is_file ? 4 : 6));
    if (!number) continue;
    if (is_file && !value.empty()) by_number[*number].location = value;
    if (is_length) by_number[*number].seconds = ParseSeconds(value);
  }
  std::vector<Entry> entries;
  for (auto& [number, entry] : by_number) {
    if (!entry.location.empty()) entries.push_back(std::move(entry));
  }
  return entries;
}

bool HasScheme(std::string_view location) {
  const size_t colon = location.find(':');
  if (colon == std::string_view::npos || colon < 2) return false;  // "C:\…" is a drive
  return std::all_of(location.begin(), location.begin() + static_cast<ptrdiff_t>(colon),
                     [](unsigned char c) {
                       return std::isalnum(c) || c == '+' || c == '-' || c == '.';
                     }) &&
         std::isalpha(static_cast<unsigned char>(location.front()));
}

std::string EntryUrl(std::string_view location, std::string_view playlist_path) {
  if (HasScheme(location)) return std::string(location);
  std::string path(location);
  std::replace(path.begin(), path.end(), '\\', '/');
  if (!path.starts_with('/')) {
    const size_t slash = playlist_path.rfind('/');
    const std::string_view folder =
        slash == std::string_view::npos ? std::string_view(".") : playlist_path.substr(0, slash);
    path = fmt::format("{}/{}", folder, path);
  }
  return FileUrl(path);
}

bool IsPls(const FileInput& file, std::string_view text) {
  if (file.mime_type == "audio/x-scpls") return true;
  std::string_view start = Trim(text.substr(0, text.find('\n')));
  if (start.starts_with("\xEF\xBB\xBF")) start.remove_prefix(3);
  return start == "[playlist]" || start == "[Playlist]";
}

void AddEntries(const std::vector<Entry>& entries, const FileInput& file, Extraction& out) {
  Description& playlist = out.element;
  playlist.AddType(vocab::Nmm("Playlist"));
  int64_t total_seconds = 0;
  bool all_timed = !entries.empty();
  for (size_t index = 0; index < entries.size(); ++index) {
    const Entry& entry = entries[index];
    // Named after the playlist's own element and the position (FileUrl encodes '#', so no
    // file's element can look like this), so extracting the playlist again rewrites the same
    // entries instead of leaving orphans.
    Description item;
    item.iri = fmt::format("{}#entry-{}", ElementIri(FileUrl(file.path)), index);
    item.AddType(vocab::Nfo("MediaFileListEntry"));
    item.Add(vocab::Nfo("entryUrl"), EntryUrl(entry.location, file.path));
    item.Add(vocab::Nfo("listPosition"), static_cast<double>(index));
    playlist.Add(vocab::Nfo("hasMediaFileListEntry"), Iri{item.iri});
    out.related.push_back(std::move(item));
    if (entry.seconds) total_seconds += *entry.seconds;
    all_timed = all_timed && entry.seconds.has_value();
  }
  playlist.Add(vocab::Nfo("entryCounter"), static_cast<int64_t>(entries.size()));
  if (all_timed) playlist.Add(vocab::Nfo("listDuration"), total_seconds);
}

class PlaylistModule final : public Module {
 public:
  std::string_view name() const override { return "playlist"; }
  std::vector<std::string> mime_types() const override {
    return {"audio/x-mpegurl", "audio/mpegurl", "application/vnd.apple.mpegurl",
            "application/x-mpegurl", "audio/x-scpls"};
  }
  std::vector<std::string> extensions() const override { return {"m3u", "m3u8", "pls"}; }

  Result<void> Extract(const FileInput& file, const Limits&, Extraction& out) const override {
    QUARRY_ASSIGN_OR_RETURN(const DecodedText text,
                            ReadTextFile(file.path, kMaxPlaylistBytes));
    if (!text.is_complete) {
      return Error(Errc::kUnsupported, fmt::format("{}: playlist larger than {} bytes refused",
                                                   file.path, kMaxPlaylistBytes));
    }
    const std::vector<Entry> entries = IsPls(file, text.utf8) ? ParsePls(text.utf8)
                                                               : ParseM3u(text.utf8);
    AddEntries(entries, file, out);
    return Ok();
  }
};

}  // namespace

std::unique_ptr<Module> MakePlaylistModule() { return std::make_unique<PlaylistModule>(); }

}  // namespace quarry::extract
