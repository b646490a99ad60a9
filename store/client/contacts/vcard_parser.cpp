// ParseVCards: content lines (vcard_lines.h) to Contacts. A vCard with a bad line is skipped
// whole and reported with that line's number; reading resumes after its END:VCARD.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>

#include "quarry/contacts.h"
#include "store/client/contacts/vcard_lines.h"

namespace quarry::contacts {
namespace {

std::string Upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// TYPE values, lower case, split on commas (3.0 allows TYPE=work,pref and TYPE=work;TYPE=pref);
// 4.0 PREF=n becomes "pref".
std::vector<std::string> Types(const ContentLine& line) {
  std::vector<std::string> types;
  for (const auto& value : line.Param("TYPE")) {
    for (auto& part : SplitValue(value, ',')) {
      if (!part.empty() && std::find(types.begin(), types.end(), part) == types.end()) {
        types.push_back(std::move(part));
      }
    }
  }
  if (!line.Param("PREF").empty() && std::find(types.begin(), types.end(), "pref") == types.end()) {
    types.push_back("pref");
  }
  return types;
}

std::string Component(const std::vector<std::string>& parts, size_t index) {
  return index < parts.size() ? parts[index] : std::string();
}

// BDAY as YYYY-MM-DD from 1985-04-12, 19850412 or a date-time starting with either.
Result<std::string> NormaliseDate(const ContentLine& line) {
  std::string digits;
  for (const char c : line.value) {
    if (c == 'T') break;
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
    else if (c != '-') digits = "x";
  }
  if (digits.size() != 8) {
    return Error(Errc::kParse, fmt::format("BDAY \"{}\" is not a date (YYYY-MM-DD or "
                                           "YYYYMMDD)", line.value));
  }
  return fmt::format("{}-{}-{}", digits.substr(0, 4), digits.substr(4, 2), digits.substr(6, 2));
}

// PHOTO: a URI (4.0, or 3.0 VALUE=uri) or inline base64 data (3.0 ENCODING=b) as a data: URI.
Result<std::string> PhotoUri(const ContentLine& line) {
  const auto encoding = line.Param("ENCODING");
  if (encoding.empty() || (encoding[0] != "b" && encoding[0] != "base64")) return line.value;
  auto bytes = DecodeBase64(line.value);
  if (!bytes) return Error(Errc::kParse, fmt::format("PHOTO {}", bytes.error().message()));
  const auto types = line.Param("TYPE");
  const std::string mime = types.empty() ? "application/octet-stream"
                           : types[0].find('/') != std::string::npos ? types[0]
                                                                      : "image/" + types[0];
  return "data:" + mime + ";base64," + EncodeBase64(*bytes);
}

// 3.0 extension properties for IM addresses, by the IMPP scheme they mean.
std::optional<std::string> ImSchemeOf(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> kSchemes[] = {
      {"X-JABBER", "xmpp"}, {"X-AIM", "aim"}, {"X-ICQ", "icq"}, {"X-MSN", "msnim"},
      {"X-YAHOO", "ymsgr"}, {"X-SKYPE", "skype"}, {"X-GADUGADU", "gg"}, {"X-SIP", "sip"}};
  for (const auto& [property, scheme] : kSchemes) {
    if (name == property) return std::string(scheme);
  }
  return std::nullopt;
}

Result<void> ApplyLine(const ContentLine& line, Contact& contact) {
  const std::string& name = line.name;
  if (name == "UID") contact.uid = UnescapeText(line.value);
  else if (name == "FN") contact.full_name = UnescapeText(line.value);
  else if (name == "N") {
    const auto parts = SplitValue(line.value, ';');
    contact.name = {Component(parts, 0), Component(parts, 1), Component(parts, 2),
                    Component(parts, 3), Component(parts, 4)};
  } else if (name == "NICKNAME") {
    for (auto& nick : SplitValue(line.value, ',')) {
      if (!nick.empty()) contact.nicknames.push_back(std::move(nick));
    }
  } else if (name == "BDAY") {
    QUARRY_ASSIGN_OR_RETURN(contact.birthday, NormaliseDate(line));
  } else if (name == "ORG") {
    const auto parts = SplitValue(line.value, ';');
    contact.organization = parts[0];
    std::string department;
    for (size_t i = 1; i < parts.size(); ++i) department += (i > 1 ? ";" : "") + parts[i];
    contact.department = department;
  } else if (name == "TITLE") contact.title = UnescapeText(line.value);
  else if (name == "ROLE") contact.role = UnescapeText(line.value);
  else if (name == "EMAIL") contact.emails.push_back({UnescapeText(line.value), Types(line)});
  else if (name == "TEL") {
    std::string number = UnescapeText(line.value);
    if (number.starts_with("tel:")) number.erase(0, 4);
    contact.phones.push_back({std::move(number), Types(line)});
  } else if (name == "ADR") {
    const auto parts = SplitValue(line.value, ';');
    contact.addresses.push_back({Component(parts, 0), Component(parts, 1), Component(parts, 2),
                                 Component(parts, 3), Component(parts, 4), Component(parts, 5),
                                 Component(parts, 6), Types(line)});
  } else if (name == "IMPP") {
    const size_t colon = line.value.find(':');
    if (colon == std::string::npos) {
      return Error(Errc::kParse, fmt::format("IMPP \"{}\" is not a URI", line.value));
    }
    contact.ims.push_back({line.value.substr(0, colon), line.value.substr(colon + 1)});
  } else if (const auto scheme = ImSchemeOf(name)) {
    contact.ims.push_back({*scheme, UnescapeText(line.value)});
  } else if (name == "URL") contact.urls.push_back(line.value);
  else if (name == "NOTE") contact.notes.push_back(UnescapeText(line.value));
  else if (name == "PHOTO") {
    QUARRY_ASSIGN_OR_RETURN(contact.photo, PhotoUri(line));
  } else if (name == "CATEGORIES") {
    for (auto& category : SplitValue(line.value, ',')) {
      if (!category.empty()) contact.categories.push_back(std::move(category));
    }
  }
  return {};  // other properties (REV, PRODID, X-...) are not mapped
}

Result<void> CheckCharset(const ContentLine& line) {
  for (const auto& charset : line.Param("CHARSET")) {
    if (charset != "utf-8" && charset != "us-ascii") {
      return Error(Errc::kParse, fmt::format("{} has unsupported CHARSET {} (only UTF-8)",
                                             line.line, line.name, charset));
    }
  }
  return {};
}

// Reads one vCard from lines[index] (its BEGIN) to its END; index ends after the END line.
// `problem_line` is set to the line a failure is about.
Result<Contact> ReadOne(const std::vector<std::pair<int, std::string>>& lines, size_t& index,
                        int& problem_line) {
  Contact contact;
  const int begin_line = lines[index].first;
  problem_line = begin_line;
  std::optional<Error> first_error;
  bool has_version = false;
  for (++index; index < lines.size(); ++index) {
    auto line = ParseContentLine(lines[index].second, lines[index].first);
    if (line && line->name == "BEGIN") break;  // a nested or next BEGIN: this one never ended
    if (line && line->name == "END") {
      ++index;
      if (first_error) return std::move(*first_error);
      problem_line = begin_line;
      if (!has_version) return Error(Errc::kParse, "vCard without VERSION");
      return contact;
    }
    if (first_error) continue;
    problem_line = lines[index].first;
    if (!line) {
      first_error = std::move(line.error());
      continue;
    }
    if (line->name == "VERSION") {
      if (line->value != "3.0" && line->value != "4.0" && line->value != "2.1") {
        first_error = Error(Errc::kParse, fmt::format("unsupported VERSION {}", line->value));
      }
      has_version = true;
      continue;
    }
    if (auto checked = CheckCharset(*line); !checked) first_error = std::move(checked.error());
    else if (auto applied = ApplyLine(*line, contact); !applied) first_error = std::move(applied.error());
  }
  if (first_error) return std::move(*first_error);
  problem_line = begin_line;
  return Error(Errc::kParse, "BEGIN:VCARD without END:VCARD");
}

}  // namespace

ParsedVCards ParseVCards(std::string_view text) {
  ParsedVCards parsed;
  const auto lines = UnfoldLines(text);
  size_t index = 0;
  while (index < lines.size()) {
    const auto line = ParseContentLine(lines[index].second, lines[index].first);
    if (!line || line->name != "BEGIN" || Upper(line->value) != "VCARD") {
      parsed.problems.push_back({lines[index].first, "expected BEGIN:VCARD"});
      // Skip to the next BEGIN so one stray line is reported once.
      while (++index < lines.size() && !Upper(lines[index].second).starts_with("BEGIN:VCARD")) {
      }
      continue;
    }
    int problem_line = 0;
    auto contact = ReadOne(lines, index, problem_line);
    if (contact) {
      parsed.contacts.push_back(std::move(*contact));
    } else {
      parsed.problems.push_back({problem_line, contact.error().message()});
    }
  }
  return parsed;
}

}  // namespace quarry::contacts
