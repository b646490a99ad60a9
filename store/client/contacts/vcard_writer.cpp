// WriteVCard and Canonical. The writer emits what the parser reads back into an equal Contact:
// 3.0 puts PREF into TYPE and inline photos as ENCODING=b, 4.0 uses PREF=1 and data: URIs.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <tuple>

#include "quarry/contacts.h"
#include "store/client/contacts/vcard_lines.h"

namespace quarry::contacts {
namespace {

class Writer {
 public:
  explicit Writer(VCardVersion version) : version_(version) {}

  void Line(std::string_view name, std::string_view params, std::string_view value) {
    out_ += FoldLine(fmt::format("{}{}:{}", name, params, value));
  }
  void Text(std::string_view name, std::string_view text) {
    if (!text.empty()) Line(name, "", EscapeText(text));
  }
  // ";TYPE=a,b" (and ";PREF=1" in 4.0) from lower-case type values.
  std::string TypeParams(const std::vector<std::string>& types) const {
    std::vector<std::string> plain;
    bool pref = false;
    for (const auto& type : types) {
      if (type == "pref" && version_ == VCardVersion::k40) pref = true;
      else plain.push_back(type);
    }
    std::string params = plain.empty() ? "" : fmt::format(";TYPE={}", fmt::join(plain, ","));
    if (pref) params += ";PREF=1";
    return params;
  }
  std::string Joined(const std::vector<std::string>& parts, char separator) const {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
      if (i > 0) out += separator;
      out += EscapeText(parts[i]);
    }
    return out;
  }
  void Photo(const std::string& uri) {
    const size_t marker = uri.find(";base64,");
    if (version_ == VCardVersion::k30 && uri.starts_with("data:") && marker != std::string::npos) {
      std::string mime = uri.substr(5, marker - 5);
      if (mime.starts_with("image/")) mime.erase(0, 6);
      for (char& c : mime) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      Line("PHOTO", fmt::format(";ENCODING=b;TYPE={}", mime), uri.substr(marker + 8));
    } else if (!uri.empty()) {
      Line("PHOTO", version_ == VCardVersion::k30 ? ";VALUE=uri" : "", uri);
    }
  }
  VCardVersion version() const { return version_; }
  std::string Take() { return std::move(out_); }

 private:
  VCardVersion version_;
  std::string out_;
};

void WriteNames(const Contact& contact, Writer& writer) {
  writer.Text("UID", contact.uid);
  writer.Line("FN", "", EscapeText(contact.full_name));  // required in both versions
  const Name& n = contact.name;
  writer.Line("N", "", writer.Joined({n.family, n.given, n.additional, n.prefix, n.suffix}, ';'));
  if (!contact.nicknames.empty()) writer.Line("NICKNAME", "", writer.Joined(contact.nicknames, ','));
  if (!contact.birthday.empty()) {
    std::string date = contact.birthday;
    if (writer.version() == VCardVersion::k40) std::erase(date, '-');
    writer.Line("BDAY", "", date);
  }
}

void WriteOrganization(const Contact& contact, Writer& writer) {
  if (!contact.organization.empty() || !contact.department.empty()) {
    std::string value = EscapeText(contact.organization);
    if (!contact.department.empty()) {
      // The department keeps its own ';' separators: they are ORG components.
      size_t start = 0;
      while (true) {
        const size_t end = contact.department.find(';', start);
        value += ";" + EscapeText(contact.department.substr(start, end - start));
        if (end == std::string::npos) break;
        start = end + 1;
      }
    }
    writer.Line("ORG", "", value);
  }
  writer.Text("TITLE", contact.title);
  writer.Text("ROLE", contact.role);
}

void WriteMedia(const Contact& contact, Writer& writer) {
  for (const auto& email : contact.emails) {
    writer.Line("EMAIL", writer.TypeParams(email.types), EscapeText(email.address));
  }
  for (const auto& phone : contact.phones) {
    writer.Line("TEL", writer.TypeParams(phone.types), EscapeText(phone.number));
  }
  for (const auto& a : contact.addresses) {
    writer.Line("ADR", writer.TypeParams(a.types),
                writer.Joined({a.pobox, a.extended, a.street, a.locality, a.region, a.postal_code,
                               a.country},
                              ';'));
  }
  for (const auto& im : contact.ims) writer.Line("IMPP", "", im.protocol + ":" + im.id);
  for (const auto& url : contact.urls) writer.Line("URL", "", url);
}

}  // namespace

std::string WriteVCard(const Contact& contact, VCardVersion version) {
  Writer writer(version);
  writer.Line("BEGIN", "", "VCARD");
  writer.Line("VERSION", "", version == VCardVersion::k40 ? "4.0" : "3.0");
  WriteNames(contact, writer);
  WriteOrganization(contact, writer);
  WriteMedia(contact, writer);
  for (const auto& note : contact.notes) writer.Text("NOTE", note);
  writer.Photo(contact.photo);
  if (!contact.categories.empty()) writer.Line("CATEGORIES", "", writer.Joined(contact.categories, ','));
  writer.Line("END", "", "VCARD");
  return writer.Take();
}

Contact Canonical(Contact contact) {
  auto sort_types = [](auto& items) {
    for (auto& item : items) std::sort(item.types.begin(), item.types.end());
  };
  sort_types(contact.emails);
  sort_types(contact.phones);
  sort_types(contact.addresses);
  std::sort(contact.emails.begin(), contact.emails.end(),
            [](const Email& a, const Email& b) { return std::tie(a.address, a.types) < std::tie(b.address, b.types); });
  std::sort(contact.phones.begin(), contact.phones.end(),
            [](const Phone& a, const Phone& b) { return std::tie(a.number, a.types) < std::tie(b.number, b.types); });
  std::sort(contact.addresses.begin(), contact.addresses.end(),
            [](const PostalAddress& a, const PostalAddress& b) {
              return std::tie(a.street, a.locality, a.postal_code, a.country, a.pobox, a.extended, a.region, a.types) <
                     std::tie(b.street, b.locality, b.postal_code, b.country, b.pobox, b.extended, b.region, b.types);
            });
  std::sort(contact.ims.begin(), contact.ims.end(),
            [](const ImAddress& a, const ImAddress& b) { return std::tie(a.protocol, a.id) < std::tie(b.protocol, b.id); });
  std::sort(contact.nicknames.begin(), contact.nicknames.end());
  std::sort(contact.urls.begin(), contact.urls.end());
  std::sort(contact.notes.begin(), contact.notes.end());
  std::sort(contact.categories.begin(), contact.categories.end());
  return contact;
}

}  // namespace quarry::contacts
