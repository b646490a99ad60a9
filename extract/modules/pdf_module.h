// The PDF module (poppler-cpp, text output only: pages are never rendered): document info,
// page count and size, and the text of every page up to Limits::max_text_bytes.
// Thread-safety: Extract() is reentrant; it may run its own threads for the page text.
#pragma once

#include <memory>

#include "extract/core/module.h"

namespace quarry::extract {

std::unique_ptr<Module> MakePdfModule();

}  // namespace quarry::extract
