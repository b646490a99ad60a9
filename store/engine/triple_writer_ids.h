// IriIdMap: the TripleWriter's IRI → resource ID cache, an open-addressing table over one
// text arena.
//
// A std::unordered_map<std::string, int64_t> allocates a node and (for IRIs longer than 15
// bytes) a string per entry; a contacts batch save puts ~8 new IRIs per contact into it, and
// those inserts were ~4 % of the save's profile (issue 7). Here the IRIs are appended to one
// string and the slots hold (hash, offset, length, ID): no allocation per entry, one probe
// compares the stored hash before any bytes. No erase: the writer only adds and clears.
// Thread-safety: none; one owner.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace quarry::engine {

template <typename Hash = std::hash<std::string_view>>
class IriIdMap {
 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  std::optional<int64_t> find(std::string_view iri) const {
    if (size_ == 0) return std::nullopt;
    const Slot& slot = slots_[Find(iri, Hash()(iri))];
    if (slot.length == kEmpty) return std::nullopt;
    return slot.id;
  }

  // Adds the IRI with its ID; an IRI already present keeps its ID (as unordered_map::emplace).
  void emplace(std::string_view iri, int64_t id) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    const size_t hash = Hash()(iri);
    Slot& slot = slots_[Find(iri, hash)];
    if (slot.length != kEmpty) return;
    slot = Slot{hash, text_.size(), iri.size(), id};
    text_.append(iri);
    ++size_;
  }

  void clear() {
    slots_ = {};
    text_ = {};
    size_ = 0;
  }

 private:
  static constexpr size_t kEmpty = static_cast<size_t>(-1);
  struct Slot {
    size_t hash = 0;
    size_t offset = 0;
    size_t length = kEmpty;
    int64_t id = 0;
  };

  // The slot holding the IRI, or the empty slot where it would go. Needs a non-empty table.
  size_t Find(std::string_view iri, size_t hash) const {
    const size_t mask = slots_.size() - 1;
    for (size_t index = hash & mask;; index = (index + 1) & mask) {
      const Slot& slot = slots_[index];
      if (slot.length == kEmpty) return index;
      if (slot.hash == hash && std::string_view(text_).substr(slot.offset, slot.length) == iri) {
        return index;
      }
    }
  }

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : 2 * old.size(), Slot{});
    const size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.length == kEmpty) continue;
      size_t index = slot.hash & mask;
      while (slots_[index].length != kEmpty) index = (index + 1) & mask;
      slots_[index] = slot;
    }
  }

  std::vector<Slot> slots_;  // a power of two long, or empty
  std::string text_;         // every IRI, back to back
  size_t size_ = 0;
};

}  // namespace quarry::engine
