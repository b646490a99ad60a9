// vCard content lines (RFC 2425/2426 for 3.0, RFC 6350 for 4.0): unfolding, the
// `group.NAME;PARAM=a,b:value` shape, parameter quoting, value escapes and the 3.0 encodings.
// Pure functions; no knowledge of what a property means (vcard_parser.cpp does that).
// Thread-safety: free functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quarry/result.h"

namespace quarry::contacts {

struct ContentLine {
  int line = 0;      // 1-based physical line where the logical line starts
  std::string name;  // upper case, group dropped
  std::vector<std::pair<std::string, std::vector<std::string>>> params;  // names upper case
  std::string value;  // raw value text (escapes kept), quoted-printable already decoded

  // The values of parameter `name` (upper case), lower-cased; empty when absent.
  std::vector<std::string> Param(std::string_view name) const;
};

// Physical lines joined into logical ones: CRLF or LF, a line starting with space or tab
// continues the previous one, and a 3.0 quoted-printable value ending in "=" continues on the
// next line whatever it starts with (soft line break).
std::vector<std::pair<int, std::string>> UnfoldLines(std::string_view text);

// `group.NAME;P=v;Q="x,y":value`; a 2.1-style bare parameter (`;WORK`) is a TYPE value.
Result<ContentLine> ParseContentLine(std::string_view logical, int line);

// Splits on unescaped `separator` and resolves \\ \, \; \: \n \N in each part.
std::vector<std::string> SplitValue(std::string_view value, char separator);
std::string UnescapeText(std::string_view value);
// Escapes \ , ; and newlines for a text value or component.
std::string EscapeText(std::string_view text);

Result<std::string> DecodeQuotedPrintable(std::string_view text);
Result<std::string> DecodeBase64(std::string_view text);
std::string EncodeBase64(std::string_view bytes);

// "NAME;P=v:value" folded to lines of at most 75 octets (never inside a UTF-8 sequence), CRLF.
std::string FoldLine(std::string_view line);

}  // namespace quarry::contacts
