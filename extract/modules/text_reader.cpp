#include "extract/modules/text_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <uchardet.h>
#include <unicode/ucnv.h>
#include <unicode/ustring.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "store/common/unique_fd.h"

namespace quarry::extract {
namespace {

// uchardet needs far less than this to decide; more only costs time.
constexpr size_t kDetectionSampleBytes = 256 * 1024;

struct UchardetDeleter {
  void operator()(uchardet* detector) const noexcept { uchardet_delete(detector); }
};
struct ConverterDeleter {
  void operator()(UConverter* converter) const noexcept { ucnv_close(converter); }
};

// Length of the UTF-8 sequence starting with `lead`, or 0 for a byte that cannot start one.
size_t Utf8SequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

// True when `bytes` is well-formed UTF-8; a sequence cut by the end counts as valid when the
// data is only a prefix of the file. Overlong 3/4-byte forms and surrogates are rejected.
bool IsValidUtf8(std::string_view bytes, bool is_complete) {
  size_t i = 0;
  while (i < bytes.size()) {
    const auto lead = static_cast<unsigned char>(bytes[i]);
    const size_t length = Utf8SequenceLength(lead);
    if (length == 0) return false;
    if (i + length > bytes.size()) return !is_complete;
    for (size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(bytes[i + k]) & 0xC0) != 0x80) return false;
    }
    if (length >= 3) {
      const auto second = static_cast<unsigned char>(bytes[i + 1]);
      if (lead == 0xE0 && second < 0xA0) return false;
      if (lead == 0xED && second >= 0xA0) return false;
      if (lead == 0xF0 && second < 0x90) return false;
      if (lead == 0xF4 && second >= 0x90) return false;
    }
    i += length;
  }
  return true;
}

struct Bom {
  std::string_view charset;
  size_t length = 0;
};
Bom DetectBom(std::string_view bytes) {
  if (bytes.starts_with("\xEF\xBB\xBF")) return {"UTF-8", 3};
  if (bytes.starts_with(std::string_view("\xFF\xFE\0\0", 4))) return {"UTF-32LE", 4};
  if (bytes.starts_with(std::string_view("\0\0\xFE\xFF", 4))) return {"UTF-32BE", 4};
  if (bytes.starts_with("\xFF\xFE")) return {"UTF-16LE", 2};
  if (bytes.starts_with("\xFE\xFF")) return {"UTF-16BE", 2};
  return {};
}

Result<std::string> GuessCharset(std::string_view bytes, std::string_view what) {
  std::unique_ptr<uchardet, UchardetDeleter> detector(uchardet_new());
  if (!detector) return Error(Errc::kInternal, "uchardet_new failed");
  const std::string_view sample = bytes.substr(0, kDetectionSampleBytes);
  if (uchardet_handle_data(detector.get(), sample.data(), sample.size()) != 0) {
    return Error(Errc::kInternal, fmt::format("{}: uchardet ran out of memory", what));
  }
  uchardet_data_end(detector.get());
  const char* charset = uchardet_get_charset(detector.get());
  if (charset == nullptr || *charset == '\0') {
    return Error(Errc::kUnsupported, fmt::format("{}: cannot tell the text encoding", what));
  }
  return std::string(charset);
}

// Converts with ICU; malformed input becomes U+FFFD. A cut multi-byte character at the end of
// an incomplete prefix stays in the converter (flush=false) instead of becoming garbage.
Result<std::string> ConvertToUtf8(std::string_view bytes, const std::string& charset,
                                  bool is_complete, std::string_view what) {
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<UConverter, ConverterDeleter> converter(ucnv_open(charset.c_str(), &status));
  if (U_FAILURE(status)) {
    return Error(Errc::kUnsupported,
                 fmt::format("{}: unsupported text encoding {}: {}", what, charset,
                             u_errorName(status)));
  }
  // Every byte yields at most one UTF-16 unit (plus a surrogate for 4-byte UTF-8 sequences,
  // which also consumed 4 bytes), so bytes.size() + 1 units always suffice.
  std::vector<UChar> units(bytes.size() + 1);
  UChar* target = units.data();
  const char* source = bytes.data();
  ucnv_toUnicode(converter.get(), &target, units.data() + units.size(), &source,
                 bytes.data() + bytes.size(), nullptr, is_complete, &status);
  if (U_FAILURE(status)) {
    return Error(Errc::kInvalidArgument, fmt::format("{}: cannot convert from {}: {}", what,
                                                     charset, u_errorName(status)));
  }
  const auto unit_count = static_cast<int32_t>(target - units.data());
  std::string utf8(static_cast<size_t>(unit_count) * 3, '\0');
  int32_t utf8_length = 0;
  u_strToUTF8WithSub(utf8.data(), static_cast<int32_t>(utf8.size()), &utf8_length, units.data(),
                     unit_count, 0xFFFD, nullptr, &status);
  if (U_FAILURE(status)) {
    return Error(Errc::kInternal,
                 fmt::format("{}: UTF-16 to UTF-8 failed: {}", what, u_errorName(status)));
  }
  utf8.resize(static_cast<size_t>(utf8_length));
  return utf8;
}

// Removes a UTF-8 sequence cut short by the end of the string.
void DropPartialTail(std::string& utf8) {
  size_t start = utf8.size();
  while (start > 0 && utf8.size() - start < 4 &&
         (static_cast<unsigned char>(utf8[start - 1]) & 0xC0) == 0x80) {
    --start;
  }
  if (start == 0) return;
  const size_t lead = start - 1;
  if (lead + Utf8SequenceLength(static_cast<unsigned char>(utf8[lead])) > utf8.size()) {
    utf8.resize(lead);
  }
}

bool IsWideUnicode(std::string_view charset) {
  return charset.starts_with("UTF-16") || charset.starts_with("UTF-32");
}

}  // namespace

Result<FilePrefix> ReadFilePrefix(const std::string& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (!fd) {
    const int error = errno;
    return Error(error == ENOENT ? Errc::kNotFound : Errc::kIo,
                 fmt::format("{}: cannot open: {}", path, std::strerror(error)));
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    return Error(Errc::kIo, fmt::format("{}: cannot stat: {}", path, std::strerror(errno)));
  }
  if (!S_ISREG(info.st_mode)) {
    return Error(Errc::kUnsupported, fmt::format("{}: not a regular file", path));
  }
  FilePrefix prefix;
  const size_t wanted = std::min<uint64_t>(max_bytes, static_cast<uint64_t>(info.st_size));
  prefix.bytes.resize(wanted);
  size_t filled = 0;
  while (filled < wanted) {
    const ssize_t got = ::read(fd.get(), prefix.bytes.data() + filled, wanted - filled);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      return Error(Errc::kIo, fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
    }
    if (got == 0) break;  // the file shrank while we read it
    filled += static_cast<size_t>(got);
  }
  prefix.bytes.resize(filled);
  prefix.is_complete = static_cast<uint64_t>(info.st_size) <= max_bytes;
  return prefix;
}

Result<DecodedText> DecodeText(std::string_view bytes, bool is_complete, size_t max_bytes,
                               std::string_view what) {
  DecodedText text;
  text.is_complete = is_complete;
  const Bom bom = DetectBom(bytes);
  bytes.remove_prefix(bom.length);
  // Whether `bytes` is valid UTF-8, once: the check is a pass over the whole text.
  std::optional<bool> valid_utf8;
  if (!bom.charset.empty()) {
    text.charset = bom.charset;
  } else if (const size_t nul = bytes.find('\0'); nul != std::string_view::npos) {
    QUARRY_ASSIGN_OR_RETURN(text.charset, GuessCharset(bytes, what));
    if (!IsWideUnicode(text.charset)) {
      return Error(Errc::kUnsupported,
                   fmt::format("{}: binary data, not text (NUL byte at offset {})", what,
                               nul + bom.length));
    }
  } else if (IsValidUtf8(bytes, is_complete)) {
    text.charset = "UTF-8";
    valid_utf8 = true;
  } else {
    valid_utf8 = false;
    QUARRY_ASSIGN_OR_RETURN(text.charset, GuessCharset(bytes, what));
  }
  if (text.charset == "UTF-8" && !valid_utf8) valid_utf8 = IsValidUtf8(bytes, is_complete);
  if (text.charset == "UTF-8" && *valid_utf8) {
    text.utf8.assign(bytes.substr(0, std::min(bytes.size(), max_bytes + 4)));
  } else {
    QUARRY_ASSIGN_OR_RETURN(text.utf8, ConvertToUtf8(bytes, text.charset, is_complete, what));
  }
  // A prefix may end inside a character; drop the partial sequence.
  if (text.utf8.size() > max_bytes || !is_complete) {
    if (text.utf8.size() > max_bytes) text.is_complete = false;
    TruncateUtf8(text.utf8, std::min(max_bytes, text.utf8.size()));
    DropPartialTail(text.utf8);
  }
  return text;
}

Result<DecodedText> ReadTextFile(const std::string& path, size_t max_bytes) {
  QUARRY_ASSIGN_OR_RETURN(const FilePrefix prefix, ReadFilePrefix(path, max_bytes));
  return DecodeText(prefix.bytes, prefix.is_complete, max_bytes, path);
}

void TruncateUtf8(std::string& utf8, size_t max_bytes) {
  if (utf8.size() <= max_bytes) return;
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(utf8[cut]) & 0xC0) == 0x80) --cut;
  utf8.resize(cut);
}

TextCounts CountText(std::string_view utf8) {
  TextCounts counts;
  bool in_word = false;
  for (const char c : utf8) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) != 0x80) ++counts.characters;
    if (byte == '\n') ++counts.lines;
    const bool is_space = byte == ' ' || byte == '\n' || byte == '\t' || byte == '\r' ||
                          byte == '\f' || byte == '\v';
    if (!is_space && !in_word) ++counts.words;
    in_word = !is_space;
  }
  if (!utf8.empty() && utf8.back() != '\n') ++counts.lines;
  return counts;
}

}  // namespace quarry::extract
