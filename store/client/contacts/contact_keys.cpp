#include "store/client/contacts/contact_keys.h"

#include <fmt/format.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <cctype>

namespace quarry::contacts {
namespace {

// Above every character a name can hold after the searched prefix: U+10FFFD, the largest code
// point that is not a noncharacter (D-Bus refuses strings holding U+10FFFF).
constexpr std::string_view kRangeEnd = "\xF4\x8F\xBF\xBD";

void AddUnique(std::vector<std::string>& keys, std::string key) {
  if (!key.empty() && std::find(keys.begin(), keys.end(), key) == keys.end()) {
    keys.push_back(std::move(key));
  }
}

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Byte offsets where each code point of `text` starts.
std::vector<size_t> CodePointStarts(std::string_view text) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!IsContinuation(text[i])) starts.push_back(i);
  }
  return starts;
}

// Drops each key that another key starts with: a range search for a prefix of it finds the
// longer key too ("ada" adds nothing beside "ada lovelace0"; a family name's reverse is a
// prefix of the full name's reverse), so a typical contact needs 2 name rows, not 3.
void DropCoveredKeys(std::vector<std::string>& keys) {
  std::vector<std::string> kept;
  for (const auto& key : keys) {
    const bool covered = std::ranges::any_of(keys, [&](const std::string& other) {
      return other.size() > key.size() && other.starts_with(key);
    });
    if (!covered) kept.push_back(key);
  }
  keys = std::move(kept);
}

std::vector<std::string_view> NamesOf(const Contact& contact) {
  std::vector<std::string_view> names = {contact.full_name, contact.name.given, contact.name.family};
  for (const auto& nick : contact.nicknames) names.push_back(nick);
  return names;
}

// The last `count` digits of a number (all when fewer).
std::string LastDigits(std::string_view number, size_t count) {
  const std::string digits = PhoneDigits(number);
  return digits.size() <= count ? digits : digits.substr(digits.size() - count);
}

std::string_view KeyPredicate(ContactFilter::Kind kind) {
  switch (kind) {
    case ContactFilter::Kind::kNamePrefix: return "qco:nameKey";
    case ContactFilter::Kind::kNameSuffix: return "qco:reversedNameKey";
    case ContactFilter::Kind::kEmail: return "qco:emailKey";
    case ContactFilter::Kind::kPhoneSuffix: return "qco:reversedPhoneKey";
  }
  return {};
}

}  // namespace

std::string FoldCase(std::string_view text) {
  icu::UnicodeString unicode = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  unicode.foldCase();
  std::string out;
  unicode.toUTF8String(out);
  return out;
}

std::string FirstCodePoints(std::string_view text, size_t count) {
  const auto starts = CodePointStarts(text);
  return std::string(count >= starts.size() ? text : text.substr(0, starts[count]));
}

std::string LastCodePoints(std::string_view text, size_t count) {
  const auto starts = CodePointStarts(text);
  return std::string(count >= starts.size() ? text : text.substr(starts[starts.size() - count]));
}

std::string ReverseCodePoints(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t end = text.size();
  while (end > 0) {
    size_t start = end - 1;
    while (start > 0 && IsContinuation(text[start])) --start;
    out.append(text.substr(start, end - start));
    end = start;
  }
  return out;
}

std::string PhoneDigits(std::string_view number) {
  std::string digits;
  for (const char c : number) {
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
  }
  return digits;
}

ContactKeys KeysOf(const Contact& contact) {
  ContactKeys keys;
  for (const auto name : NamesOf(contact)) {
    if (name.empty()) continue;
    std::string folded = FoldCase(name);
    AddUnique(keys.reversed_names, ReverseCodePoints(folded));
    AddUnique(keys.names, std::move(folded));
  }
  for (const auto& email : contact.emails) AddUnique(keys.emails, FoldCase(email.address));
  for (const auto& phone : contact.phones) {
    std::string digits = PhoneDigits(phone.number);
    std::reverse(digits.begin(), digits.end());
    AddUnique(keys.reversed_phones, std::move(digits));
  }
  DropCoveredKeys(keys.names);
  DropCoveredKeys(keys.reversed_names);
  DropCoveredKeys(keys.reversed_phones);
  return keys;
}

KeyRange FilterRange(const ContactFilter& filter) {
  KeyRange range{KeyPredicate(filter.kind), {}, {}};
  switch (filter.kind) {
    case ContactFilter::Kind::kNamePrefix: range.low = FoldCase(filter.text); break;
    case ContactFilter::Kind::kNameSuffix: range.low = ReverseCodePoints(FoldCase(filter.text)); break;
    case ContactFilter::Kind::kEmail: return {range.predicate, FoldCase(filter.text), {}};
    case ContactFilter::Kind::kPhoneSuffix: {
      range.low = LastDigits(filter.text, kPhoneMatchDigits);
      std::reverse(range.low.begin(), range.low.end());
      break;
    }
  }
  if (!range.low.empty()) range.high = range.low + std::string(kRangeEnd);
  return range;
}

std::string SearchSelector(ContactFilter::Kind kind) {
  if (kind == ContactFilter::Kind::kEmail) return fmt::format("?c {} ~low .", KeyPredicate(kind));
  // DISTINCT: "l" is a prefix of both "lena" and "lovelace0" of one contact.
  return fmt::format("{{ SELECT DISTINCT ?c WHERE {{ ?c {} ?key FILTER(?key >= ~low && ?key < ~high) }} }}",
                     KeyPredicate(kind));
}

std::string RangeSelector(ContactFilter::Kind kind) {
  if (kind == ContactFilter::Kind::kEmail) return fmt::format("?c {} ~low .", KeyPredicate(kind));
  return fmt::format("?c {} ?key FILTER(?key >= ~low && ?key < ~high)", KeyPredicate(kind));
}

std::string WithFilterLiterals(std::string text, const ContactFilter& filter) {
  const KeyRange range = FilterRange(filter);
  for (const auto& [name, value] : {std::pair{"~low", range.low}, std::pair{"~high", range.high}}) {
    const std::string literal = SparqlString(value);
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at)) {
      text.replace(at, std::string_view(name).size(), literal);
      at += literal.size();
    }
  }
  return text;
}

bool Matches(const Contact& contact, const ContactFilter& filter) {
  const std::string wanted = filter.kind == ContactFilter::Kind::kPhoneSuffix
                                 ? LastDigits(filter.text, kPhoneMatchDigits)
                                 : FoldCase(filter.text);
  switch (filter.kind) {
    case ContactFilter::Kind::kNamePrefix:
      return std::ranges::any_of(NamesOf(contact), [&](std::string_view name) {
        return FoldCase(name).starts_with(wanted);
      });
    case ContactFilter::Kind::kNameSuffix:
      return std::ranges::any_of(NamesOf(contact), [&](std::string_view name) {
        return FoldCase(name).ends_with(wanted);
      });
    case ContactFilter::Kind::kEmail:
      return std::ranges::any_of(contact.emails,
                                 [&](const Email& email) { return FoldCase(email.address) == wanted; });
    case ContactFilter::Kind::kPhoneSuffix:
      return std::ranges::any_of(contact.phones, [&](const Phone& phone) {
        return PhoneDigits(phone.number).ends_with(wanted);
      });
  }
  return false;
}

}  // namespace quarry::contacts
