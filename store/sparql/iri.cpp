#include "store/sparql/iri.h"

#include <optional>

namespace quarry::sparql {

namespace {

struct IriParts {
  std::optional<std::string_view> scheme;     // without ':'
  std::optional<std::string_view> authority;  // without "//"
  std::string_view path;
  std::optional<std::string_view> query;     // without '?'
  std::optional<std::string_view> fragment;  // without '#'
};

bool IsSchemeChar(char c, bool first) {
  const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  if (first) return letter;
  return letter || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

size_t SchemeLength(std::string_view iri) {
  for (size_t i = 0; i < iri.size(); ++i) {
    if (iri[i] == ':') return i;
    if (!IsSchemeChar(iri[i], i == 0)) return 0;
  }
  return 0;
}

IriParts Split(std::string_view iri) {
  IriParts parts;
  if (const size_t length = SchemeLength(iri); length > 0) {
    parts.scheme = iri.substr(0, length);
    iri.remove_prefix(length + 1);
  }
  if (const size_t hash = iri.find('#'); hash != std::string_view::npos) {
    parts.fragment = iri.substr(hash + 1);
    iri = iri.substr(0, hash);
  }
  if (const size_t question = iri.find('?'); question != std::string_view::npos) {
    parts.query = iri.substr(question + 1);
    iri = iri.substr(0, question);
  }
  if (iri.substr(0, 2) == "//") {
    const size_t slash = iri.find('/', 2);
    parts.authority = iri.substr(2, slash == std::string_view::npos ? iri.npos : slash - 2);
    iri = slash == std::string_view::npos ? std::string_view() : iri.substr(slash);
  }
  parts.path = iri;
  return parts;
}

// Removes the last segment (and its '/') from `output`.
void PopSegment(std::string& output) {
  const size_t slash = output.rfind('/');
  output.erase(slash == std::string::npos ? 0 : slash);
}

// RFC 3986 §5.2.4 remove_dot_segments.
std::string RemoveDotSegments(std::string_view input) {
  std::string output;
  output.reserve(input.size());
  while (!input.empty()) {
    if (input.substr(0, 3) == "../") {
      input.remove_prefix(3);
    } else if (input.substr(0, 2) == "./") {
      input.remove_prefix(2);
    } else if (input.substr(0, 3) == "/./") {
      input.remove_prefix(2);
    } else if (input == "/.") {
      input = "/";
    } else if (input.substr(0, 4) == "/../") {
      input.remove_prefix(3);
      PopSegment(output);
    } else if (input == "/..") {
      input = "/";
      PopSegment(output);
    } else if (input == "." || input == "..") {
      input = {};
    } else {
      const size_t next = input.find('/', 1);
      const size_t length = next == std::string_view::npos ? input.size() : next;
      output.append(input.substr(0, length));
      input.remove_prefix(length);
    }
  }
  return output;
}

std::string Merge(const IriParts& base, std::string_view reference_path) {
  // Built with append(): GCC 12 warns falsely (-Wrestrict) about "/" + std::string at -O3.
  std::string merged;
  if (base.authority && base.path.empty()) {
    merged += '/';
  } else if (const size_t slash = base.path.rfind('/'); slash != std::string_view::npos) {
    merged.append(base.path.substr(0, slash + 1));
  }
  merged.append(reference_path);
  return merged;
}

std::string Recompose(const IriParts& parts, std::string_view path) {
  std::string result;
  if (parts.scheme) (result += *parts.scheme) += ':';
  if (parts.authority) (result += "//") += *parts.authority;
  result += path;
  if (parts.query) (result += '?') += *parts.query;
  if (parts.fragment) (result += '#') += *parts.fragment;
  return result;
}

}  // namespace

bool HasScheme(std::string_view iri) { return SchemeLength(iri) > 0; }

std::string ResolveIri(std::string_view base, std::string_view reference) {
  const IriParts ref = Split(reference);
  // An absolute IRI is kept as written, dot segments and all: the Turtle and N-Triples loader
  // (serd) keeps it so, and `<eXAMPLE://a/./b/../b#x>` in a query must match it (the W3C test
  // i18n/normalization-2; RFC 3986 §5.2.2 would remove them).
  if (ref.scheme) return std::string(reference);
  if (base.empty()) return std::string(reference);
  const IriParts base_parts = Split(base);
  IriParts target;
  std::string path;
  target.scheme = base_parts.scheme;
  target.fragment = ref.fragment;
  if (ref.authority) {
    target.authority = ref.authority;
    path = RemoveDotSegments(ref.path);
    target.query = ref.query;
  } else {
    target.authority = base_parts.authority;
    if (ref.path.empty()) {
      path = std::string(base_parts.path);
      target.query = ref.query ? ref.query : base_parts.query;
    } else {
      path = RemoveDotSegments(ref.path.front() == '/' ? std::string(ref.path)
                                                       : Merge(base_parts, ref.path));
      target.query = ref.query;
    }
  }
  return Recompose(target, path);
}

}  // namespace quarry::sparql
