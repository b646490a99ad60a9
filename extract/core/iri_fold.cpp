// Deterministic IRIs: case folding and NFC with ICU, then percent-encoding, so the key is a
// valid IRI whatever the tag said and two spellings of one name meet. ASCII and Latin-1 text
// (most names) is folded here (Latin1Folded); other text goes through ICU's C API, loaded with
// dlopen on first use (icu_runtime.h), so a process that meets only such names never maps ICU.
#include <dlfcn.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>

#include <optional>
#include <string>

#include "extract/core/dl_symbol.h"
#include "extract/core/icu_runtime.h"
#include "extract/core/iri.h"

namespace quarry::extract {
namespace {

// ICU's C functions as loaded (the renamed symbols, u_strFoldCase_72 …); null when ICU cannot
// be loaded.
struct Icu {
  decltype(&u_strFromUTF8WithSub) from_utf8 = nullptr;
  decltype(&u_strToUTF8WithSub) to_utf8 = nullptr;
  decltype(&u_strFoldCase) fold_case = nullptr;
  decltype(&unorm2_getNFCInstance) nfc_instance = nullptr;
  decltype(&unorm2_normalize) normalize = nullptr;
  bool ok() const { return from_utf8 && to_utf8 && fold_case && nfc_instance && normalize; }
};

const Icu& LoadIcu() {
  static const Icu icu = [] {
    Icu loaded;
    void* library = dlopen(kIcuCommonLibrary, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) return loaded;
    BindSymbol(library, QUARRY_EXTRACT_STRINGIFY(u_strFromUTF8WithSub), loaded.from_utf8);
    BindSymbol(library, QUARRY_EXTRACT_STRINGIFY(u_strToUTF8WithSub), loaded.to_utf8);
    BindSymbol(library, QUARRY_EXTRACT_STRINGIFY(u_strFoldCase), loaded.fold_case);
    BindSymbol(library, QUARRY_EXTRACT_STRINGIFY(unorm2_getNFCInstance), loaded.nfc_instance);
    BindSymbol(library, QUARRY_EXTRACT_STRINGIFY(unorm2_normalize), loaded.normalize);
    return loaded;
  }();
  return icu;
}

// Runs an ICU call that writes UTF-16 into a buffer: preflight for the length, then fill.
template <typename Call>
std::u16string Utf16Call(Call call, UErrorCode& status) {
  std::u16string out;
  int32_t length = call(nullptr, 0, status);
  if (status == U_BUFFER_OVERFLOW_ERROR) status = U_ZERO_ERROR;
  if (U_FAILURE(status)) return out;
  out.resize(static_cast<size_t>(length));
  call(out.data(), length, status);
  if (status == U_STRING_NOT_TERMINATED_WARNING) status = U_ZERO_ERROR;
  return out;
}

std::string AsciiFolded(std::string_view text) {
  std::string key(text);
  for (char& c : key) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return key;
}

// Text of code points up to U+00FF only (ASCII and Latin-1, as valid UTF-8: most names) is
// folded without ICU: Unicode's default full case folding there (CaseFolding.txt, status C and
// F) is A-Z and U+00C0..U+00DE but U+00D7 → +0x20, U+00B5 µ → U+03BC μ, U+00DF ß → "ss"; and
// such text is its own NFC (no combining marks; every precomposed letter there is NFC).
// nullopt for anything else (other scripts, combining marks, invalid UTF-8): ICU decides.
std::optional<std::string> Latin1Folded(std::string_view text) {
  std::string key;
  key.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      key.push_back(byte >= 'A' && byte <= 'Z' ? static_cast<char>(byte - 'A' + 'a') : text[i]);
      continue;
    }
    if ((byte != 0xC2 && byte != 0xC3) || i + 1 >= text.size()) return std::nullopt;
    const auto next = static_cast<unsigned char>(text[i + 1]);
    if ((next & 0xC0) != 0x80) return std::nullopt;
    ++i;
    unsigned code_point = (byte & 0x1Fu) << 6 | (next & 0x3Fu);
    if (code_point == 0xDF) {
      key += "ss";
      continue;
    }
    if (code_point == 0xB5) {
      key += "\xCE\xBC";
      continue;
    }
    if (code_point >= 0xC0 && code_point <= 0xDE && code_point != 0xD7) code_point += 0x20;
    key.push_back(static_cast<char>(0xC0 | code_point >> 6));
    key.push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  }
  return key;
}

// Case-folded NFC form of a UTF-8 string (invalid bytes become U+FFFD, as ICU reads them).
std::string FoldedKey(std::string_view part) {
  if (auto folded = Latin1Folded(part)) return *std::move(folded);
  const Icu& icu = LoadIcu();
  // Without ICU (not installed) the key is still stable: ASCII letters folded, the rest as is.
  if (!icu.ok()) return AsciiFolded(part);
  UErrorCode status = U_ZERO_ERROR;
  const std::u16string text = Utf16Call(
      [&](char16_t* out, int32_t capacity, UErrorCode& code) {
        int32_t length = 0;
        icu.from_utf8(out, capacity, &length, part.data(), static_cast<int32_t>(part.size()),
                      0xFFFD, nullptr, &code);
        return length;
      },
      status);
  if (U_FAILURE(status)) return AsciiFolded(part);
  const std::u16string folded = Utf16Call(
      [&](char16_t* out, int32_t capacity, UErrorCode& code) {
        return icu.fold_case(out, capacity, text.data(), static_cast<int32_t>(text.size()),
                             U_FOLD_CASE_DEFAULT, &code);
      },
      status);
  if (U_FAILURE(status)) return AsciiFolded(part);
  std::u16string normalized = folded;
  // ICU's NFC data ships with libicu; without it the folded text is still a stable key.
  UErrorCode nfc_status = U_ZERO_ERROR;
  const UNormalizer2* nfc = icu.nfc_instance(&nfc_status);
  if (U_SUCCESS(nfc_status)) {
    std::u16string candidate = Utf16Call(
        [&](char16_t* out, int32_t capacity, UErrorCode& code) {
          return icu.normalize(nfc, folded.data(), static_cast<int32_t>(folded.size()), out,
                               capacity, &code);
        },
        nfc_status);
    if (U_SUCCESS(nfc_status)) normalized = std::move(candidate);
  }
  std::string key;
  int32_t length = 0;
  UErrorCode utf8_status = U_ZERO_ERROR;
  icu.to_utf8(nullptr, 0, &length, normalized.data(), static_cast<int32_t>(normalized.size()),
              0xFFFD, nullptr, &utf8_status);
  if (utf8_status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(utf8_status)) return AsciiFolded(part);
  key.resize(static_cast<size_t>(length));
  utf8_status = U_ZERO_ERROR;
  icu.to_utf8(key.data(), length, &length, normalized.data(),
              static_cast<int32_t>(normalized.size()), 0xFFFD, nullptr, &utf8_status);
  return key;
}

}  // namespace

std::string DeterministicIri(std::string_view kind,
                             std::initializer_list<std::string_view> identifying_parts) {
  std::string iri = "urn:quarry:";
  iri.append(kind);
  iri.push_back(':');
  bool first = true;
  // Parts are percent-encoded without keeping '/', so the '/' separators are unambiguous.
  for (const std::string_view part : identifying_parts) {
    if (!first) iri.push_back('/');
    first = false;
    AppendIriEncoded(FoldedKey(part), /*keep=*/"", iri);
  }
  return iri;
}

}  // namespace quarry::extract
