// The interface every extractor module implements (one module per format, one file each in
// extract/modules/), and the registry that picks a module by MIME type, then by extension.
//
// Modules are pure with respect to the store: they read one file and fill an Extraction. They
// run inside sandboxed worker processes (quarry-extract) or in `quarry extract FILE`; they
// must not write anywhere, open sockets or keep state between files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "extract/core/extraction.h"
#include "store/common/result.h"

namespace quarry::extract {

struct Limits {
  size_t max_text_bytes = 1 << 20;  // cap on nie:plainTextContent (default 1 MiB, config)
  uint64_t max_unpacked_bytes = 256ull << 20;  // zip-based documents: refuse bombs beyond this
  unsigned max_threads = 2;  // threads one file may use (PDF pages extracted in parallel)
  // Globs on the file's name (fnmatch, case-insensitive) whose text the text module stores as
  // nie:plainTextContent (issue 5; Tracker's text-allowlist); {"*"}: every text file, {}: none.
  // quarry-extract takes the config's extract.text_allowlist (miner-fs/config.h); this default
  // (`quarry extract`, tests) keeps the text of every file.
  std::vector<std::string> text_allowlist{"*"};
};

struct FileInput {
  std::string path;       // a path the worker can open
  std::string mime_type;  // from libmagic (with the extension as a tie-breaker), never empty
};

class Module {
 public:
  virtual ~Module() = default;
  // Short stable name recorded with results and failures: "pdf", "audio", "image", "text" ….
  virtual std::string_view name() const = 0;
  // MIME types handled (exact, or a "type/*" prefix such as "text/*").
  virtual std::vector<std::string> mime_types() const = 0;
  // Lower-case extensions without the dot, used when libmagic says only
  // application/octet-stream or text/plain.
  virtual std::vector<std::string> extensions() const = 0;
  // Fills `out` (whose `extractor` is already set). A broken file is an Error naming the file
  // and the reason (Errc::kInvalidArgument or the like); it never throws or crashes on purpose.
  virtual Result<void> Extract(const FileInput& file, const Limits& limits,
                               Extraction& out) const = 0;
};

class Registry {
 public:
  void Register(std::unique_ptr<Module> module);
  // Best module for a MIME type and a file name: an exact MIME match first, then a "type/*"
  // match, then the extension; nullptr when no module applies (the file keeps only its file facts).
  const Module* Find(std::string_view mime_type, std::string_view file_name) const;
  const std::vector<std::unique_ptr<Module>>& modules() const { return modules_; }

 private:
  std::vector<std::unique_ptr<Module>> modules_;
};

// Every built-in module, registered once (defined in extract/modules/all_modules.cpp).
Registry BuiltinRegistry();

}  // namespace quarry::extract
