// A small reader for W3C test manifests (Turtle, via serd) used by the conformance tests.
// Loads one file's triples with IRIs expanded and resolved; blank nodes keep their labels.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace quarry::sparql::testing {

class ManifestGraph {
 public:
  // Reads `path`; returns false (with `error` set) when serd reports a problem.
  bool Load(const std::string& path, std::string& error);

  // Objects of (subject, predicate), in document order.
  std::vector<std::string> Objects(const std::string& subject, const std::string& predicate) const;
  // The first object, or "" when there is none.
  std::string Object(const std::string& subject, const std::string& predicate) const;
  // The members of an RDF collection starting at `head`.
  std::vector<std::string> List(const std::string& head) const;

  void Add(std::string subject, std::string predicate, std::string object);

 private:
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> objects_;
};

// "file:///a/b" -> "/a/b".
std::string FileUriToPath(const std::string& uri);

}  // namespace quarry::sparql::testing
