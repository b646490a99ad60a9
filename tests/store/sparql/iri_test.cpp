#include "store/sparql/iri.h"

#include <doctest/doctest.h>

namespace quarry::sparql {
namespace {

// RFC 3986 section 5.4 reference resolution examples.
TEST_CASE("ResolveIri follows the RFC 3986 examples") {
  const char* base = "http://a/b/c/d;p?q";
  const std::pair<const char*, const char*> examples[] = {
      {"g:h", "g:h"},
      {"g", "http://a/b/c/g"},
      {"./g", "http://a/b/c/g"},
      {"g/", "http://a/b/c/g/"},
      {"/g", "http://a/g"},
      {"//g", "http://g"},
      {"?y", "http://a/b/c/d;p?y"},
      {"g?y", "http://a/b/c/g?y"},
      {"#s", "http://a/b/c/d;p?q#s"},
      {"g#s", "http://a/b/c/g#s"},
      {";x", "http://a/b/c/;x"},
      {"", "http://a/b/c/d;p?q"},
      {".", "http://a/b/c/"},
      {"./", "http://a/b/c/"},
      {"..", "http://a/b/"},
      {"../", "http://a/b/"},
      {"../g", "http://a/b/g"},
      {"../..", "http://a/"},
      {"../../g", "http://a/g"},
      {"../../../g", "http://a/g"},
      {"/./g", "http://a/g"},
      {"/../g", "http://a/g"},
      {"g.", "http://a/b/c/g."},
      {".g", "http://a/b/c/.g"},
      {"g..", "http://a/b/c/g.."},
      {"./../g", "http://a/b/g"},
      {"./g/.", "http://a/b/c/g/"},
      {"g/./h", "http://a/b/c/g/h"},
      {"g/../h", "http://a/b/c/h"},
  };
  for (const auto& [reference, expected] : examples) {
    CAPTURE(reference);
    CHECK(ResolveIri(base, reference) == expected);
  }
}

TEST_CASE("ResolveIri without a base and with an authority-only base") {
  CHECK(ResolveIri("", "relative/path") == "relative/path");
  // An absolute IRI is kept as written, as the data loader keeps it (i18n/normalization-2).
  CHECK(ResolveIri("", "http://x/a/../b") == "http://x/a/../b");
  CHECK(ResolveIri("http://base/", "eXAMPLE://a/./b/../b/%63#x") == "eXAMPLE://a/./b/../b/%63#x");
  CHECK(ResolveIri("http://host", "p") == "http://host/p");
  CHECK(ResolveIri("file:///dir/manifest.ttl", "data.ttl") == "file:///dir/data.ttl");
  CHECK(HasScheme("urn:x"));
  CHECK_FALSE(HasScheme("a/b:c"));
}

}  // namespace
}  // namespace quarry::sparql
