// FlatSet: an open-addressing hash set of small trivially-copyable keys, for the TripleWriter's
// per-transaction sets (resources created, (resource, class) rows known to exist).
//
// std::unordered_set allocates a node per element; a bulk import of 100,000 resources puts
// ~560,000 keys into these sets, and those mallocs, their frees and the rehashes showed as ~8 %
// of the import's profile. Here the keys live in one array (linear probing, load <= 1/2) and
// erase shifts the following entries back, so there are no tombstones.
// The member names follow std::unordered_set so it is a drop-in replacement.
// Thread-safety: none; one owner.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace quarry::engine {

template <typename Key, typename Hash>
class FlatSet {
 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t MemoryBytes() const { return keys_.capacity() * sizeof(Key) + used_.capacity(); }
  size_t count(const Key& key) const { return size_ != 0 && used_[Find(key)] ? 1 : 0; }

  // True when the key was added, false when it was there already.
  bool insert(const Key& key) {
    if (2 * (size_ + 1) > used_.size()) Grow();
    const size_t slot = Find(key);
    if (used_[slot]) return false;
    used_[slot] = 1;
    keys_[slot] = key;
    ++size_;
    return true;
  }

  // Removes the key; later entries of its probe run move back into the hole.
  size_t erase(const Key& key) {
    if (size_ == 0) return 0;
    size_t hole = Find(key);
    if (!used_[hole]) return 0;
    const size_t mask = used_.size() - 1;
    for (size_t next = (hole + 1) & mask; used_[next]; next = (next + 1) & mask) {
      const size_t home = Hash()(keys_[next]) & mask;
      // The entry may fill the hole unless its home lies cyclically in (hole, next].
      const bool home_after_hole = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
      if (home_after_hole) continue;
      keys_[hole] = keys_[next];
      hole = next;
    }
    used_[hole] = 0;
    --size_;
    return 1;
  }

  // Large tables are released rather than wiped: a writer that imported once and then commits
  // many small transactions should not clear a big array at every commit.
  void clear() {
    if (used_.size() > kKeepCapacity) {
      // Not `= {}`, which assigns an empty initializer list and keeps the capacity: a batch
      // save's sets stayed allocated in quarry-store after it (issue 7).
      used_ = std::vector<uint8_t>();
      keys_ = std::vector<Key>();
    } else {
      std::fill(used_.begin(), used_.end(), 0);
    }
    size_ = 0;
  }

 private:
  static constexpr size_t kKeepCapacity = 1024;

  // The slot holding the key, or the empty slot where it would go. Needs a non-empty table.
  size_t Find(const Key& key) const {
    const size_t mask = used_.size() - 1;
    size_t slot = Hash()(key) & mask;
    while (used_[slot] && !(keys_[slot] == key)) slot = (slot + 1) & mask;
    return slot;
  }

  void Grow() {
    std::vector<Key> old_keys = std::move(keys_);
    std::vector<uint8_t> old_used = std::move(used_);
    const size_t capacity = old_used.empty() ? 16 : 2 * old_used.size();
    keys_.assign(capacity, Key{});
    used_.assign(capacity, 0);
    const size_t mask = capacity - 1;
    for (size_t i = 0; i < old_used.size(); ++i) {
      if (!old_used[i]) continue;
      size_t slot = Hash()(old_keys[i]) & mask;
      while (used_[slot]) slot = (slot + 1) & mask;
      used_[slot] = 1;
      keys_[slot] = old_keys[i];
    }
  }

  std::vector<Key> keys_;
  std::vector<uint8_t> used_;  // a power of two long, or empty
  size_t size_ = 0;
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
