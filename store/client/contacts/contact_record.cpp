#include "store/client/contacts/contact_record.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <memory>

namespace quarry::contacts {
namespace {

// The record's fields in their order, for the writer and the reader alike, so the two can
// never disagree: `io` takes each string (Text), string list (List) and item list (Items:
// the count, then `each` per item). `C` is Contact or const Contact.
template <typename C, typename Io>
void WalkFields(C& c, Io& io) {
  io.Text(c.uid);
  io.Text(c.full_name);
  io.Text(c.name.family);
  io.Text(c.name.given);
  io.Text(c.name.additional);
  io.Text(c.name.prefix);
  io.Text(c.name.suffix);
  io.List(c.nicknames);
  io.Text(c.birthday);
  io.Text(c.organization);
  io.Text(c.department);
  io.Text(c.title);
  io.Text(c.role);
  io.Items(c.emails, [&](auto& e) {
    io.Text(e.address);
    io.List(e.types);
  });
  io.Items(c.phones, [&](auto& p) {
    io.Text(p.number);
    io.List(p.types);
  });
  io.Items(c.addresses, [&](auto& a) {
    for (auto* part : {&a.pobox, &a.extended, &a.street, &a.locality, &a.region,
                       &a.postal_code, &a.country}) {
      io.Text(*part);
    }
    io.List(a.types);
  });
  io.Items(c.ims, [&](auto& im) {
    io.Text(im.protocol);
    io.Text(im.id);
  });
  io.List(c.urls);
  io.List(c.notes);
  io.Text(c.photo);
  io.List(c.categories);
}

// `<len>:<bytes>` per string, `<count>#` before a list.
struct Writer {
  std::string& out;

  void Text(std::string_view text) {
    fmt::format_to(std::back_inserter(out), "{}:", text.size());
    out += text;
  }
  void Count(size_t count) { fmt::format_to(std::back_inserter(out), "{}#", count); }
  void List(const std::vector<std::string>& list) {
    Count(list.size());
    for (const auto& item : list) Text(item);
  }
  template <typename T, typename Each>
  void Items(const std::vector<T>& items, Each each) {
    Count(items.size());
    for (const auto& item : items) each(item);
  }
};

// A one-pass reader; `ok` turns false on the first malformed piece and stays false.
// Decoding is most of a record read (issue 7: 61 % of prefix_short's instructions in
// callgrind): the length's digits are read through a pointer (at most 10, as before).
struct Reader {
  std::string_view in;
  size_t at = 0;
  bool ok = true;

  // Digits up to `mark`.
  size_t Number(char mark) {
    if (!ok) return 0;
    const char* const begin = in.data() + at;
    const char* const end = in.data() + in.size();
    const char* const limit = begin + std::min<size_t>(10, static_cast<size_t>(end - begin));
    const char* p = begin;
    size_t value = 0;
    for (; p < limit; ++p) {
      const unsigned digit = static_cast<unsigned char>(*p) - unsigned{'0'};
      if (digit > 9) break;
      value = value * 10 + digit;
    }
    if (p == begin || p >= end || *p != mark) {
      ok = false;
      return 0;
    }
    at = static_cast<size_t>(p - in.data()) + 1;
    return value;
  }
  // The next string's bytes; empty (and `ok` false) when malformed.
  std::string_view Next() {
    const size_t size = Number(':');
    if (!ok || size > in.size() - at) {
      ok = false;
      return {};
    }
    const std::string_view text(in.data() + at, size);
    at += size;
    return text;
  }
  // An empty `out` (every field of a new Contact) is made anew from the bytes: the string
  // constructor copies once, where assign's generic replace (aliasing, growth, moving a tail)
  // cost twice as many instructions per field (issue 7, callgrind, session 21). An empty
  // std::string owns nothing, so ending its lifetime and constructing it again in place is
  // sound; if that constructor throws, `out` is made again (empty) before the exception goes on.
  void Text(std::string& out) {
    const std::string_view text = Next();
    if (!out.empty()) {
      out.assign(text);
      return;
    }
    std::destroy_at(&out);
    try {
      std::construct_at(&out, text.data(), text.size());
    } catch (...) {
      std::construct_at(&out);
      throw;
    }
  }
  size_t Count() {
    const size_t count = Number('#');
    // Every item takes at least two bytes ("0:"): a count beyond that is malformed.
    if (ok && count > (in.size() - at) / 2) ok = false;
    return ok ? count : 0;
  }
  // Each item constructed in place from its bytes (no default string then assigned).
  void List(std::vector<std::string>& out) {
    const size_t count = Count();
    out.clear();
    out.reserve(count);
    for (size_t i = 0; i < count && ok; ++i) {
      const std::string_view text = Next();
      out.emplace_back(text.data(), text.size());
    }
  }
  template <typename T, typename Each>
  void Items(std::vector<T>& items, Each each) {
    items.resize(Count());
    for (auto& item : items) each(item);
  }
};

}  // namespace

std::string EncodeRecord(const Contact& c) {
  std::string out;
  out.reserve(512);
  out += kRecordMagic;
  Writer writer{out};
  WalkFields(c, writer);
  return out;
}

bool DecodeRecordInto(std::string_view record, Contact& c) {
  if (!record.starts_with(kRecordMagic)) return false;
  Reader r{record, kRecordMagic.size()};
  WalkFields(c, r);
  return r.ok && r.at == record.size();
}

std::optional<Contact> DecodeRecord(std::string_view record) {
  std::optional<Contact> c(std::in_place);
  if (!DecodeRecordInto(record, *c)) return std::nullopt;
  return c;
}

}  // namespace quarry::contacts
