#include "miner-fs/file_uri.h"

#include <array>

namespace quarry::miner {
namespace {

constexpr std::array<bool, 256> MakeKeepTable() {
  std::array<bool, 256> keep{};
  for (int c = 'a'; c <= 'z'; ++c) keep[c] = true;
  for (int c = 'A'; c <= 'Z'; ++c) keep[c] = true;
  for (int c = '0'; c <= '9'; ++c) keep[c] = true;
  for (const char c : std::string_view("-._~!$&'()*+,;=:@/")) keep[static_cast<unsigned char>(c)] = true;
  return keep;
}
constexpr std::array<bool, 256> kKeep = MakeKeepTable();

void AppendEncoded(std::string& out, std::string_view bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (kKeep[byte]) {
      out += c;
      continue;
    }
    out += '%';
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string FileUri(std::string_view absolute_path) {
  std::string uri = "file://";
  uri.reserve(absolute_path.size() + 16);
  AppendEncoded(uri, absolute_path);
  return uri;
}

std::string ChildUri(std::string_view folder_uri, std::string_view name) {
  std::string uri;
  uri.reserve(folder_uri.size() + name.size() + 8);
  uri += folder_uri;
  if (uri.empty() || uri.back() != '/') uri += '/';
  AppendEncoded(uri, name);
  return uri;
}

std::optional<std::string> FileUriToPath(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (!uri.starts_with(kScheme)) return std::nullopt;
  uri.remove_prefix(kScheme.size());
  if (uri.empty() || uri.front() != '/') return std::nullopt;
  std::string path;
  path.reserve(uri.size());
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      path += uri[i];
      continue;
    }
    if (i + 2 >= uri.size()) return std::nullopt;
    const int high = HexValue(uri[i + 1]);
    const int low = HexValue(uri[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    path += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return path;
}

}  // namespace quarry::miner
