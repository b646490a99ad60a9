// The text module: plain text, Markdown, source code and data files (CSV, JSON, XML …).
// Encoding detected and converted to UTF-8 (text_reader.h), capped at Limits::max_text_bytes;
// classes as Tracker 3 gives them (nfo:PlainTextDocument, nfo:SourceCode). The text itself
// (nie:plainTextContent) is stored only for a file whose name matches Limits::text_allowlist
// (Tracker 3.4's text-allowlist policy, issue 5); every other fact is stored for every file.
#pragma once

#include <memory>

#include "extract/core/module.h"

namespace quarry::extract {

std::unique_ptr<Module> MakeTextModule();

}  // namespace quarry::extract
