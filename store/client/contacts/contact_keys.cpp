#include "store/client/contacts/contact_keys.h"

#include <fmt/format.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <cctype>

namespace quarry::contacts {
namespace {

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
    const std::string folded = FoldCase(name);
    const size_t length = CodePointStarts(folded).size();
    for (size_t n = 1; n <= std::min(length, kMaxNameKeyLength); ++n) {
      AddUnique(keys.name_prefixes, FirstCodePoints(folded, n));
      AddUnique(keys.name_suffixes, LastCodePoints(folded, n));
    }
  }
  for (const auto& email : contact.emails) AddUnique(keys.emails, FoldCase(email.address));
  for (const auto& phone : contact.phones) {
    const std::string digits = PhoneDigits(phone.number);
    for (size_t n = kMinPhoneKeyDigits; n <= std::min(digits.size(), kPhoneMatchDigits); ++n) {
      AddUnique(keys.phone_suffixes, digits.substr(digits.size() - n));
    }
  }
  return keys;
}

std::string FilterKey(const ContactFilter& filter) {
  switch (filter.kind) {
    case ContactFilter::Kind::kNamePrefix:
      return FirstCodePoints(FoldCase(filter.text), kMaxNameKeyLength);
    case ContactFilter::Kind::kNameSuffix:
      return LastCodePoints(FoldCase(filter.text), kMaxNameKeyLength);
    case ContactFilter::Kind::kEmail:
      return FoldCase(filter.text);
    case ContactFilter::Kind::kPhoneSuffix:
      return LastDigits(filter.text, kPhoneMatchDigits);
  }
  return {};
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
