// The office-document module: OpenDocument text (.odt) and OOXML word processing (.docx)
// documents, read with libzip + libxml2: title, subject, description, keywords, author,
// dates, page and word counts, and the body text. Zip bombs are refused (zip_archive.h).
#pragma once

#include <memory>

#include "extract/core/module.h"

namespace quarry::extract {

std::unique_ptr<Module> MakeOfficeModule();

}  // namespace quarry::extract
