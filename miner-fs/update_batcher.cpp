#include "miner-fs/update_batcher.h"

#include "miner-fs/log.h"

namespace quarry::miner {
namespace {

// Errors that belong to the update itself, not to the link to the store.
bool IsUpdateFault(Errc code) {
  return code == Errc::kConstraint || code == Errc::kParse || code == Errc::kInvalidArgument ||
         code == Errc::kType;
}

}  // namespace

UpdateBatcher::UpdateBatcher(IndexStore& store, ExtractionQueue& extraction, size_t max_updates,
                             std::chrono::milliseconds max_age)
    : store_(store), extraction_(extraction), max_updates_(max_updates), max_age_(max_age) {}

Result<void> UpdateBatcher::Add(std::string update, std::optional<std::string> extract_uri) {
  if (updates_.empty()) first_added_ = Clock::now();
  updates_.push_back(std::move(update));
  if (extract_uri) extract_uris_.push_back(std::move(*extract_uri));
  if (updates_.size() >= max_updates_) return Flush();
  return Ok();
}

std::optional<UpdateBatcher::Clock::time_point> UpdateBatcher::due() const {
  if (updates_.empty()) return std::nullopt;
  return first_added_ + max_age_;
}

Result<void> UpdateBatcher::FlushIfDue(Clock::time_point now) {
  const auto when = due();
  if (!when || now < *when) return Ok();
  return Flush();
}

Result<void> UpdateBatcher::Flush() {
  if (updates_.empty()) return Ok();
  auto applied = store_.Apply(updates_);
  if (!applied) {
    if (!IsUpdateFault(applied.error().code())) return std::move(applied).error();
    QUARRY_TRY(RetryOneByOne());
  } else {
    applied_ += updates_.size();
  }
  ++batches_;
  updates_.clear();
  extraction_.Enqueue(std::move(extract_uris_));
  extract_uris_.clear();
  return Ok();
}

Result<void> UpdateBatcher::RetryOneByOne() {
  for (const std::string& update : updates_) {
    auto applied = store_.Apply({update});
    if (applied) {
      ++applied_;
      continue;
    }
    if (!IsUpdateFault(applied.error().code())) return std::move(applied).error();
    ++failed_;
    LogWarning(fmt::format("update refused by the store: {}", applied.error().ToString()));
  }
  return Ok();
}

}  // namespace quarry::miner
