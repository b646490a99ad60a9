// One file through the extractor: open it (regular files only), detect its MIME type, pick the
// module, run it and name the element. What `quarry extract FILE` and the worker both call.
// Thread-safety: any thread; the Registry is only read.
#pragma once

#include <string>
#include <string_view>

#include "extract/core/module.h"
#include "extract/core/serialize.h"

namespace quarry::extract {

// Errors name the file and the reason: kNotFound/kIo when it cannot be opened or is not a
// regular file (a FIFO is refused without blocking), kUnsupported when no module handles its
// MIME type, and the module's error (with "extractor <name>" as context) when the file is broken.
Result<FileResult> ExtractFile(const Registry& registry, std::string_view path,
                               const Limits& limits);

// ExtractFile in two steps, for the quarry-extract worker: PrepareFile opens the file, detects
// its MIME type and picks the module (the same errors as above, before any module runs), so the
// worker can tell the service which module it is about to run: a module that then crashes or
// hangs the worker is still named in the recorded failure. ExtractPrepared runs the module.
struct PreparedFile {
  std::string absolute_path;
  std::string mime_type;
  const Module* module = nullptr;  // never null on success
};
Result<PreparedFile> PrepareFile(const Registry& registry, std::string_view path);
Result<FileResult> ExtractPrepared(const PreparedFile& file, const Limits& limits);

}  // namespace quarry::extract
