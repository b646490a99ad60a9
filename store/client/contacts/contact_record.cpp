#include "store/client/contacts/contact_record.h"

#include <fmt/format.h>

#include <iterator>

namespace quarry::contacts {
namespace {

void Put(std::string& out, std::string_view text) {
  fmt::format_to(std::back_inserter(out), "{}:", text.size());
  out += text;
}
void PutCount(std::string& out, size_t count) {
  fmt::format_to(std::back_inserter(out), "{}#", count);
}
void PutList(std::string& out, const std::vector<std::string>& list) {
  PutCount(out, list.size());
  for (const auto& item : list) Put(out, item);
}

// A one-pass reader; `ok` turns false on the first malformed piece and stays false.
struct Reader {
  std::string_view in;
  size_t at = 0;
  bool ok = true;

  // Digits up to `mark`.
  size_t Number(char mark) {
    size_t value = 0;
    size_t digits = 0;
    while (ok && at < in.size() && in[at] >= '0' && in[at] <= '9' && digits < 10) {
      value = value * 10 + static_cast<size_t>(in[at] - '0');
      ++at;
      ++digits;
    }
    if (!ok || digits == 0 || at >= in.size() || in[at] != mark) {
      ok = false;
      return 0;
    }
    ++at;
    return value;
  }
  void Get(std::string& out) {
    const size_t size = Number(':');
    if (!ok || size > in.size() - at) {
      ok = false;
      return;
    }
    out.assign(in.substr(at, size));
    at += size;
  }
  size_t Count() {
    const size_t count = Number('#');
    // Every item takes at least two bytes ("0:"): a count beyond that is malformed.
    if (ok && count > (in.size() - at) / 2) ok = false;
    return ok ? count : 0;
  }
  void GetList(std::vector<std::string>& out) {
    const size_t count = Count();
    out.resize(count);
    for (auto& item : out) Get(item);
  }
};

}  // namespace

std::string EncodeRecord(const Contact& c) {
  std::string out;
  out.reserve(512);
  out += kRecordMagic;
  Put(out, c.uid);
  Put(out, c.full_name);
  Put(out, c.name.family);
  Put(out, c.name.given);
  Put(out, c.name.additional);
  Put(out, c.name.prefix);
  Put(out, c.name.suffix);
  PutList(out, c.nicknames);
  Put(out, c.birthday);
  Put(out, c.organization);
  Put(out, c.department);
  Put(out, c.title);
  Put(out, c.role);
  PutCount(out, c.emails.size());
  for (const auto& e : c.emails) {
    Put(out, e.address);
    PutList(out, e.types);
  }
  PutCount(out, c.phones.size());
  for (const auto& p : c.phones) {
    Put(out, p.number);
    PutList(out, p.types);
  }
  PutCount(out, c.addresses.size());
  for (const auto& a : c.addresses) {
    for (const std::string* part : {&a.pobox, &a.extended, &a.street, &a.locality, &a.region,
                                    &a.postal_code, &a.country}) {
      Put(out, *part);
    }
    PutList(out, a.types);
  }
  PutCount(out, c.ims.size());
  for (const auto& im : c.ims) {
    Put(out, im.protocol);
    Put(out, im.id);
  }
  PutList(out, c.urls);
  PutList(out, c.notes);
  Put(out, c.photo);
  PutList(out, c.categories);
  return out;
}

bool DecodeRecordInto(std::string_view record, Contact& c) {
  if (!record.starts_with(kRecordMagic)) return false;
  Reader r{record, kRecordMagic.size()};
  r.Get(c.uid);
  r.Get(c.full_name);
  r.Get(c.name.family);
  r.Get(c.name.given);
  r.Get(c.name.additional);
  r.Get(c.name.prefix);
  r.Get(c.name.suffix);
  r.GetList(c.nicknames);
  r.Get(c.birthday);
  r.Get(c.organization);
  r.Get(c.department);
  r.Get(c.title);
  r.Get(c.role);
  c.emails.resize(r.Count());
  for (auto& e : c.emails) {
    r.Get(e.address);
    r.GetList(e.types);
  }
  c.phones.resize(r.Count());
  for (auto& p : c.phones) {
    r.Get(p.number);
    r.GetList(p.types);
  }
  c.addresses.resize(r.Count());
  for (auto& a : c.addresses) {
    for (std::string* part : {&a.pobox, &a.extended, &a.street, &a.locality, &a.region,
                              &a.postal_code, &a.country}) {
      r.Get(*part);
    }
    r.GetList(a.types);
  }
  c.ims.resize(r.Count());
  for (auto& im : c.ims) {
    r.Get(im.protocol);
    r.Get(im.id);
  }
  r.GetList(c.urls);
  r.GetList(c.notes);
  r.Get(c.photo);
  r.GetList(c.categories);
  return r.ok && r.at == record.size();
}

std::optional<Contact> DecodeRecord(std::string_view record) {
  std::optional<Contact> c(std::in_place);
  if (!DecodeRecordInto(record, *c)) return std::nullopt;
  return c;
}

}  // namespace quarry::contacts
