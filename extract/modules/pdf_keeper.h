// The smallest PDF poppler opens without repairs: one empty 1x1 page (offsets checked). Held
// open for a process's life, it keeps poppler-cpp's global tables, which poppler frees when its
// last document closes and rebuilds for the next (~0.8 ms a file: bench/extract/README.md).
// Data only, so bench/extract's library-only floor can hold the same document.
#pragma once

#include <string_view>

namespace quarry::extract {

inline constexpr std::string_view kKeeperPdf =
    "%PDF-1.4\n1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n"
    "2 0 obj\n<</Type/Pages/Kids[3 0 R]/Count 1>>\nendobj\n"
    "3 0 obj\n<</Type/Page/Parent 2 0 R/MediaBox[0 0 1 1]>>\nendobj\n"
    "xref\n0 4\n0000000000 65535 f \n0000000009 00000 n \n0000000054 00000 n \n"
    "0000000105 00000 n \ntrailer\n<</Size 4/Root 1 0 R>>\nstartxref\n166\n%%EOF\n";

}  // namespace quarry::extract
