// IriIdMap: the TripleWriter's IRI → resource ID cache, an open-addressing table over one
// text arena. ResourceMarks (below): its per-transaction flags of resources.
//
// A std::unordered_map<std::string, int64_t> allocates a node and (for IRIs longer than 15
// bytes) a string per entry; a contacts batch save puts ~8 new IRIs per contact into it, and
// those inserts were ~4 % of the save's profile (issue 7). Here the IRIs are appended to one
// string and the slots hold (ID, hash, offset, length): no allocation per entry, one probe
// compares the stored hash before any bytes. No erase: the writer only adds and clears.
//
// Bounded: it is a cache (a miss costs the writer a look-up in the Resource table), so an
// emplace that would take it past max_entries IRIs or max_text_bytes of text empties it first
// and keeps its memory for the next entries. Unbounded, a 12,800-contact batch save (~100,000
// new IRIs) held 8 MiB of slots and 6 MiB of text at quarry-store's save peak, and a long-lived
// writer kept up to a million entries (~100 MiB) between transactions (issue 7).
// Thread-safety: none; one owner.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/engine/flat_set.h"

namespace quarry::engine {

template <typename Hash = std::hash<std::string_view>>
class IriIdMap {
 public:
  // 65,536 IRIs: 3 MiB of slots and a few MiB of text at most, far more than the IRIs one
  // update request names again (its own subjects, their shared tags and folders).
  static constexpr size_t kDefaultMaxEntries = size_t{1} << 16;
  static constexpr size_t kDefaultMaxTextBytes = size_t{8} << 20;

  IriIdMap() = default;
  IriIdMap(size_t max_entries, size_t max_text_bytes)
      : max_entries_(std::max<size_t>(max_entries, 1)),
        max_text_bytes_(std::min<size_t>(max_text_bytes, kEmpty - 1)) {}

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  std::optional<int64_t> find(std::string_view iri) const {
    if (size_ == 0) return std::nullopt;
    const Slot& slot = slots_[Find(iri, static_cast<uint32_t>(Hash()(iri)))];
    if (slot.length == kEmpty) return std::nullopt;
    return slot.id;
  }

  // Adds the IRI with its ID; an IRI already present keeps its ID (as unordered_map::emplace).
  // At the bound the cache starts over (Reset); an IRI longer than the text bound is not kept.
  void emplace(std::string_view iri, int64_t id) {
    if (iri.size() > max_text_bytes_) return;
    const auto hash = static_cast<uint32_t>(Hash()(iri));
    if (size_ > 0) {
      if (slots_[Find(iri, hash)].length != kEmpty) return;
      if (size_ + 1 > max_entries_ || text_.size() + iri.size() > max_text_bytes_) Reset();
    }
    if (2 * (size_ + 1) > slots_.size()) Grow();
    slots_[Find(iri, hash)] = Slot{id, hash, static_cast<uint32_t>(text_.size()),
                                   static_cast<uint32_t>(iri.size())};
    text_.append(iri);
    ++size_;
  }

  // Forgets every IRI and returns the memory.
  void clear() {
    slots_ = {};
    text_ = {};
    size_ = 0;
  }

  // The bytes the table and its text hold (allocated), for tests and measurements.
  size_t MemoryBytes() const { return slots_.capacity() * sizeof(Slot) + text_.capacity(); }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;  // a length no kept IRI has (max_text_bytes_)
  // 24 bytes (32 with size_t hash, offset and length until Dec 2): the low 32 bits of the hash
  // pick the slot and screen the comparisons; offset and length fit max_text_bytes_.
  struct Slot {
    int64_t id = 0;
    uint32_t hash = 0;
    uint32_t offset = 0;
    uint32_t length = kEmpty;
  };

  // Empties the cache, keeping its memory: a writer past the bound fills it again at once.
  void Reset() {
    std::fill(slots_.begin(), slots_.end(), Slot{});
    text_.clear();
    size_ = 0;
  }

  // The slot holding the IRI, or the empty slot where it would go. Needs a non-empty table.
  size_t Find(std::string_view iri, uint32_t hash) const {
    const size_t mask = slots_.size() - 1;
    for (size_t index = hash & mask;; index = (index + 1) & mask) {
      const Slot& slot = slots_[index];
      if (slot.length == kEmpty) return index;
      if (slot.hash == hash && slot.length == iri.size() &&
          std::string_view(text_).substr(slot.offset, slot.length) == iri) {
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
  size_t max_entries_ = kDefaultMaxEntries;
  size_t max_text_bytes_ = kDefaultMaxTextBytes;
};

// ResourceMarks: what the TripleWriter knows of each resource in the current transaction, as
// bit flags (created in it, flushed from the fresh buffer, full-text row touched, row to read
// back) in one open-addressing table of IDs. Four FlatSets held every ID of a batch save up to
// four times, 9 bytes a slot each at load <= 1/2: at 12,800 contacts (~100,000 new resources)
// 9.4 MiB of quarry-store's save-phase peak, one table 2.4 MiB (issue 7). One probe answers
// every question about a resource. A resource stays in the table when its flags are removed
// (no erase, no tombstones): the table lives for one transaction.
// Thread-safety: none; one owner.
class ResourceMarks {
 public:
  using Mark = uint8_t;  // one bit, or several or'ed

  // Every flag of the resource (0 when it has none).
  Mark Of(int64_t id) const { return table_.TagOf(id) & static_cast<Mark>(~kUsed); }
  bool Has(int64_t id, Mark mark) const { return (Of(id) & mark) != 0; }
  // Adds `mark` to the resource's flags (and the resource when missing).
  void Add(int64_t id, Mark mark) {
    assert(mark != 0 && (mark & kUsed) == 0);
    table_.SetBits(id, kUsed | mark);
  }
  void Remove(int64_t id, Mark mark) { table_.ClearBits(id, mark); }  // kUsed stays
  // Removes `mark` from every resource.
  void RemoveAll(Mark mark) { table_.ClearBitsEverywhere(mark); }
  // Resources with `mark` (tests and measurements: a pass over the table).
  size_t Count(Mark mark) const { return table_.CountBits(mark); }
  size_t size() const { return table_.size(); }
  // Forgets every resource; a large table is released, not wiped (as FlatSet::clear).
  void clear() { table_.clear(); }
  size_t MemoryBytes() const { return table_.MemoryBytes(); }

 private:
  static constexpr Mark kUsed = 0x80;  // set in every occupied slot's tag, so 0 is an empty one
  FlatTable<int64_t, IdHash> table_;
};

}  // namespace quarry::engine
