#include "tests/conformance/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace quarry::conformance {
namespace {

// A search over row pairings may explode on large results full of blank nodes; past this many
// steps the results are reported as different rather than hanging the run.
constexpr long kSearchBudget = 2'000'000;

struct Matcher {
  const std::vector<Row>& expected;
  const std::vector<Row>& actual;
  std::map<std::string, std::string> forward;   // expected blank label → actual label
  std::map<std::string, std::string> backward;  // actual → expected
  std::vector<bool> used;
  long steps = 0;

  bool SameTerm(const RdfTerm& a, const RdfTerm& b, std::vector<std::string>& added) {
    const bool a_blank = a.kind == RdfTerm::Kind::kBlank, b_blank = b.kind == RdfTerm::Kind::kBlank;
    if (a_blank != b_blank) return false;
    if (!a_blank) return a == b;
    const auto found = forward.find(a.value);
    if (found != forward.end()) return found->second == b.value;
    if (backward.count(b.value)) return false;
    forward.emplace(a.value, b.value);
    backward.emplace(b.value, a.value);
    added.push_back(a.value);
    return true;
  }

  void Undo(const std::vector<std::string>& added) {
    for (const std::string& label : added) {
      backward.erase(forward.at(label));
      forward.erase(label);
    }
  }

  bool SameRow(const Row& a, const Row& b, std::vector<std::string>& added) {
    if (a.size() != b.size()) return false;
    for (const auto& [name, term] : a) {
      const auto other = b.find(name);
      if (other == b.end() || !SameTerm(term, other->second, added)) return false;
    }
    return true;
  }

  bool Search(size_t index) {
    if (index == expected.size()) return true;
    for (size_t j = 0; j < actual.size(); ++j) {
      if (used[j] || ++steps > kSearchBudget) continue;
      std::vector<std::string> added;
      if (SameRow(expected[index], actual[j], added)) {
        used[j] = true;
        if (Search(index + 1)) return true;
        used[j] = false;
      }
      Undo(added);
    }
    return false;
  }
};

std::string RowText(const Row& row) {
  std::string text;
  for (const auto& [name, term] : row)
    text += fmt::format("{}?{}={}", text.empty() ? "" : " ", name, TermText(term));
  return "{" + text + "}";
}

bool SameMultiset(const std::vector<Row>& expected, const std::vector<Row>& actual,
                  std::string* why) {
  if (expected.size() != actual.size()) {
    *why =
        fmt::format("wrong result: {} rows expected, {} returned", expected.size(), actual.size());
    if (!expected.empty()) *why += "; first expected " + RowText(expected.front());
    if (!actual.empty()) *why += "; first returned " + RowText(actual.front());
    return false;
  }
  Matcher matcher{expected, actual, {}, {}, std::vector<bool>(actual.size(), false)};
  if (matcher.Search(0)) return true;
  *why = "wrong result: same number of rows, different values";
  // The first row of `rows` that matches no row of `others`; `flip`: `rows` are the returned
  // rows (SameRow takes the expected row first).
  const auto first_unmatched = [&](const std::vector<Row>& rows, const std::vector<Row>& others,
                                   bool flip) -> const Row* {
    for (const Row& row : rows) {
      const bool found = std::any_of(others.begin(), others.end(), [&](const Row& other) {
        std::vector<std::string> scratch;
        Matcher probe{expected, actual, {}, {}, {}};
        return flip ? probe.SameRow(other, row, scratch) : probe.SameRow(row, other, scratch);
      });
      if (!found) return &row;
    }
    return nullptr;
  };
  if (const Row* missing = first_unmatched(expected, actual, false)) {
    *why += "; e.g. missing " + RowText(*missing);
  }
  if (const Row* unexpected = first_unmatched(actual, expected, true)) {
    *why += "; e.g. unexpected " + RowText(*unexpected);
  }
  return false;
}

}  // namespace

std::string TermText(const RdfTerm& term) { return term.ToString(); }

bool SameSolutions(const Solutions& expected, const Solutions& actual,
                   const std::vector<std::string>& order_keys, std::string* why) {
  if (expected.boolean || actual.boolean) {
    if (expected.boolean == actual.boolean) return true;
    *why = fmt::format("wrong result: expected {}, got {}",
                       expected.boolean ? (*expected.boolean ? "true" : "false") : "solutions",
                       actual.boolean ? (*actual.boolean ? "true" : "false") : "solutions");
    return false;
  }
  if (!SameMultiset(expected.rows, actual.rows, why)) return false;
  for (size_t i = 0; i < expected.rows.size(); ++i) {
    for (const std::string& key : order_keys) {
      const auto a = expected.rows[i].find(key);
      const auto b = actual.rows[i].find(key);
      const bool a_bound = a != expected.rows[i].end(), b_bound = b != actual.rows[i].end();
      if (a_bound && a->second.kind == RdfTerm::Kind::kBlank) continue;
      if (a_bound != b_bound || (a_bound && !(a->second == b->second))) {
        *why = fmt::format("wrong order: row {} has ?{} = {}, expected {}", i + 1, key,
                           b_bound ? TermText(b->second) : "unbound",
                           a_bound ? TermText(a->second) : "unbound");
        return false;
      }
    }
  }
  return true;
}

bool SameGraph(const Graph& expected, const Graph& actual, std::string* why) {
  const auto rows = [](const Graph& graph) {
    std::vector<Row> result;
    for (const Quad& quad : graph) {
      result.push_back({{"g", RdfTerm::Iri(quad.graph)},
                        {"s", quad.subject},
                        {"p", quad.predicate},
                        {"o", quad.object}});
    }
    return result;
  };
  return SameMultiset(rows(expected), rows(actual), why);
}

}  // namespace quarry::conformance
