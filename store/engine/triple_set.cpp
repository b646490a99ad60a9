#include "store/engine/triple_set.h"

#include <string_view>

namespace quarry::engine {
namespace {

// Every field prefixed by its length: no two different triples share a key, whatever bytes
// their text holds.
void AppendField(std::string_view field, std::string& key) {
  key += std::to_string(field.size());
  key += ':';
  key += field;
}

void AppendKey(const schema::RdfTerm& term, std::string& key) {
  key += static_cast<char>('0' + static_cast<int>(term.kind));
  AppendField(term.value, key);
  AppendField(term.datatype, key);
  AppendField(term.lang, key);
}

}  // namespace

bool TripleSet::Add(Triple triple) {
  std::string key;
  AppendKey(triple.subject, key);
  AppendField(triple.predicate, key);
  AppendKey(triple.object, key);
  if (!keys_.insert(std::move(key)).second) return false;
  triples_.push_back(std::move(triple));
  return true;
}

}  // namespace quarry::engine
