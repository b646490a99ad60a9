// The HTML module: title, author, keywords, description and the visible text of a page, with
// libxml2's HTML parser (no network, no entity loading; script and style dropped).
#pragma once

#include <memory>

#include "extract/core/module.h"

namespace quarry::extract {

std::unique_ptr<Module> MakeHtmlModule();

}  // namespace quarry::extract
