// The text module: plain text, Markdown, source code and data files (CSV, JSON, XML …).
// Encoding detected and converted to UTF-8 (text_reader.h), capped at Limits::max_text_bytes;
// classes as Tracker 3 gives them (nfo:PlainTextDocument, nfo:SourceCode), but unlike Tracker
// 3.4 the text of code and data files is stored too.
#pragma once

#include <memory>

#include "extract/core/module.h"

namespace quarry::extract {

std::unique_ptr<Module> MakeTextModule();

}  // namespace quarry::extract
