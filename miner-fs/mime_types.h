// MIME types at crawl time, cheaply (issue 5): the file name's extension decides for the types
// a desktop holds; only a name without a known extension costs a libmagic look at the first
// bytes. Extraction refines nothing here: a file's nie:mimeType is the miner's.
// Thread-safety: GuessMimeType is pure; a MimeDetector belongs to one thread (libmagic's
// handle is not thread-safe).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct magic_set;

namespace quarry::miner {

// By extension, case-insensitively; nullopt when the extension is unknown or missing.
std::optional<std::string_view> GuessMimeType(std::string_view name);

class MimeDetector {
 public:
  MimeDetector();
  ~MimeDetector();
  MimeDetector(const MimeDetector&) = delete;
  MimeDetector& operator=(const MimeDetector&) = delete;
  // The extension's type, else libmagic's on folder/name, else application/octet-stream. The
  // path is only built for libmagic.
  std::string Detect(std::string_view name, std::string_view folder);

 private:
  struct MagicCloser {
    void operator()(magic_set* cookie) const noexcept;
  };
  std::unique_ptr<magic_set, MagicCloser> magic_;
};

}  // namespace quarry::miner
