// ICU's common library, loaded at run time by DeterministicIri (iri_fold.cpp) only when a name
// is not ASCII or Latin-1: a PDF or MP3 whose names are never maps ICU (its load and
// relocation cost ~3 ms of a one-shot process). Header-only: the name comes from ICU's
// version macros, the symbols carry ICU's version suffix (u_strFoldCase_72).
#pragma once

#include <unicode/uversion.h>

#define QUARRY_EXTRACT_STRINGIFY2(x) #x
#define QUARRY_EXTRACT_STRINGIFY(x) QUARRY_EXTRACT_STRINGIFY2(x)

namespace quarry::extract {

inline constexpr char kIcuCommonLibrary[] =
    "libicuuc.so." QUARRY_EXTRACT_STRINGIFY(U_ICU_VERSION_MAJOR_NUM);

}  // namespace quarry::extract
