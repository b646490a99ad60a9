// FlatSet: an open-addressing hash set of small trivially-copyable keys, for the TripleWriter's
// per-transaction sets (resources created, (resource, class) rows known to exist).
//
// std::unordered_set allocates a node per element; a bulk import of 100,000 resources puts
// ~560,000 keys into these sets, and those mallocs, their frees and the rehashes showed as ~8 %
// of the import's profile. Here the keys live in one array (linear probing, load <= 1/2) and
// erase shifts the following entries back, so there are no tombstones.
// The member names follow std::unordered_set so it is a drop-in replacement. Its table,
// FlatTable, also carries ResourceMarks' flags (triple_writer_ids.h).
// Thread-safety: none; one owner.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace quarry::engine {

// FlatTable: the open-addressing table under FlatSet and ResourceMarks (triple_writer_ids.h).
// Each slot has a key and a tag byte: 0 marks an empty slot, any other value an occupied one,
// and its bits are the owner's (FlatSet: 1; ResourceMarks: a resource's flags).
template <typename Key, typename Hash>
class FlatTable {
 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t MemoryBytes() const { return keys_.capacity() * sizeof(Key) + tags_.capacity(); }

  // The key's tag; 0 when it is absent.
  uint8_t TagOf(const Key& key) const { return size_ == 0 ? 0 : tags_[Find(key)]; }
  // Or's `bits` (not 0) into the key's tag, adding the key when absent; returns the tag before
  // (0: the key was added).
  uint8_t SetBits(const Key& key, uint8_t bits) {
    if (2 * (size_ + 1) > tags_.size()) Grow();
    const size_t slot = Find(key);
    const uint8_t before = tags_[slot];
    if (before == 0) {
      keys_[slot] = key;
      ++size_;
    }
    tags_[slot] = static_cast<uint8_t>(before | bits);
    return before;
  }
  // Clears `bits` in the tag of a key that is there (its slot stays occupied when `keep`, a
  // bit the owner sets in every tag, is not among them).
  void ClearBits(const Key& key, uint8_t bits) {
    if (size_ == 0) return;
    uint8_t& tag = tags_[Find(key)];
    if (tag != 0) tag &= static_cast<uint8_t>(~bits);
  }
  // Clears `bits` in every occupied slot's tag.
  void ClearBitsEverywhere(uint8_t bits) {
    for (uint8_t& tag : tags_) {
      if (tag != 0) tag &= static_cast<uint8_t>(~bits);
    }
  }
  // Occupied slots whose tag has one of `bits`.
  size_t CountBits(uint8_t bits) const {
    return static_cast<size_t>(
        std::count_if(tags_.begin(), tags_.end(), [&](uint8_t tag) { return (tag & bits) != 0; }));
  }

  // Removes the key; later entries of its probe run move back into the hole (no tombstones).
  size_t Erase(const Key& key) {
    if (size_ == 0) return 0;
    size_t hole = Find(key);
    if (tags_[hole] == 0) return 0;
    const size_t mask = tags_.size() - 1;
    for (size_t next = (hole + 1) & mask; tags_[next] != 0; next = (next + 1) & mask) {
      const size_t home = Hash()(keys_[next]) & mask;
      // The entry may fill the hole unless its home lies cyclically in (hole, next].
      const bool home_after_hole = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
      if (home_after_hole) continue;
      keys_[hole] = keys_[next];
      tags_[hole] = tags_[next];
      hole = next;
    }
    tags_[hole] = 0;
    --size_;
    return 1;
  }

  // Large tables are released rather than wiped: a writer that imported once and then commits
  // many small transactions should not clear a big array at every commit.
  void clear() {
    if (tags_.size() > kKeepCapacity) {
      // Not `= {}`, which assigns an empty initializer list and keeps the capacity: a batch
      // save's sets stayed allocated in quarry-store after it (issue 7).
      tags_ = std::vector<uint8_t>();
      keys_ = std::vector<Key>();
    } else {
      std::fill(tags_.begin(), tags_.end(), 0);
    }
    size_ = 0;
  }

 private:
  static constexpr size_t kKeepCapacity = 1024;

  // The slot holding the key, or the empty slot where it would go. Needs a non-empty table.
  size_t Find(const Key& key) const {
    const size_t mask = tags_.size() - 1;
    size_t slot = Hash()(key) & mask;
    while (tags_[slot] != 0 && !(keys_[slot] == key)) slot = (slot + 1) & mask;
    return slot;
  }

  void Grow() {
    std::vector<Key> old_keys = std::move(keys_);
    std::vector<uint8_t> old_tags = std::move(tags_);
    const size_t capacity = old_tags.empty() ? 16 : 2 * old_tags.size();
    keys_.assign(capacity, Key{});
    tags_.assign(capacity, 0);
    const size_t mask = capacity - 1;
    for (size_t i = 0; i < old_tags.size(); ++i) {
      if (old_tags[i] == 0) continue;
      size_t slot = Hash()(old_keys[i]) & mask;
      while (tags_[slot] != 0) slot = (slot + 1) & mask;
      keys_[slot] = old_keys[i];
      tags_[slot] = old_tags[i];
    }
  }

  std::vector<Key> keys_;
  std::vector<uint8_t> tags_;  // a power of two long, or empty
  size_t size_ = 0;
};

template <typename Key, typename Hash>
class FlatSet {
 public:
  size_t size() const { return table_.size(); }
  bool empty() const { return table_.empty(); }
  size_t MemoryBytes() const { return table_.MemoryBytes(); }
  size_t count(const Key& key) const { return table_.TagOf(key) != 0 ? 1 : 0; }
  // True when the key was added, false when it was there already.
  bool insert(const Key& key) { return table_.SetBits(key, 1) == 0; }
  size_t erase(const Key& key) { return table_.Erase(key); }
  void clear() { table_.clear(); }

 private:
  FlatTable<Key, Hash> table_;
};

// Hashes for FlatSet: resource IDs are consecutive, so mix the bits before masking (linear
// probing on the low bits of raw IDs would be fine, on pairs with pointers it clusters).
inline size_t MixBits(uint64_t value) {
  value ^= value >> 33;
  value *= 0xff51afd7ed558ccdULL;
  value ^= value >> 33;
  return static_cast<size_t>(value);
}

struct IdHash {
  size_t operator()(int64_t id) const { return MixBits(static_cast<uint64_t>(id)); }
};

}  // namespace quarry::engine
