#include "store/ipc/outgoing_blocks.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "store/ipc/row_encoder.h"

namespace quarry::ipc {
namespace {

// Written blocks kept per stream for the next tail (their pages are already mapped).
constexpr size_t kSpareBlocks = 2;

Error WriteError(int error) {
  if (error == EPIPE) {
    return Error(Errc::kIo, "the client closed its end of the result stream before the end");
  }
  return Error(Errc::kIo, fmt::format("cannot write the result stream: {}", std::strerror(error)));
}

Error SpillError(const std::filesystem::path& dir, int error) {
  return Error(error == ENOSPC ? Errc::kNoSpace : Errc::kIo,
               fmt::format("cannot keep the unread rest of a result stream in {}: {}",
                           dir.string(), std::strerror(error)));
}

// An unlinked file in `dir`: O_TMPFILE where the file system has it, else mkstemp + unlink.
Result<UniqueFd> OpenSpillFile(const std::filesystem::path& dir) {
  UniqueFd fd(::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
  if (fd) return fd;
  std::string name = (dir / "stream-spill.XXXXXX").string();
  fd.reset(::mkostemp(name.data(), O_CLOEXEC));
  if (!fd) return SpillError(dir, errno);
  ::unlink(name.c_str());
  return fd;
}

}  // namespace

bool StreamBudget::TryReserve(size_t bytes) {
  size_t held = held_.load(std::memory_order_relaxed);
  do {
    if (held + bytes > limit_) return false;
  } while (!held_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
  size_t peak = peak_.load(std::memory_order_relaxed);
  while (held + bytes > peak &&
         !peak_.compare_exchange_weak(peak, held + bytes, std::memory_order_relaxed)) {
  }
  return true;
}

StreamBudget& ProcessStreamBudget() {
  static StreamBudget budget;
  return budget;
}

OutgoingBlocks::OutgoingBlocks(OutgoingBlocks&& other) noexcept
    : budget_(other.budget_),
      blocks_(std::move(other.blocks_)),
      front_written_(other.front_written_),
      reserved_(std::exchange(other.reserved_, 0)),
      tail_(std::move(other.tail_)),
      tail_sealed_(other.tail_sealed_),
      spare_(std::move(other.spare_)),
      spill_fd_(std::move(other.spill_fd_)),
      spill_read_(other.spill_read_),
      spill_end_(other.spill_end_),
      scratch_(std::move(other.scratch_)),
      spill_error_(std::move(other.spill_error_)) {
  other.blocks_.clear();
  other.tail_.clear();
  other.spill_read_ = other.spill_end_ = 0;
}

OutgoingBlocks::~OutgoingBlocks() { budget_->Release(reserved_); }

void OutgoingBlocks::SealFullBlocks() {
  if (tail_.size() >= kStreamBlockSize) tail_sealed_ = true;
}

size_t OutgoingBlocks::queued_bytes() const {
  size_t total = tail_.size() + static_cast<size_t>(spill_end_ - spill_read_);
  for (const std::string& block : blocks_) total += block.size();
  return total - front_written_;
}

std::string OutgoingBlocks::TakeSpare() {
  if (spare_.empty()) return {};
  std::string spare = std::move(spare_.back());
  spare_.pop_back();
  return spare;
}

Result<void> OutgoingBlocks::Spill(const char* data, size_t size) {
  const std::filesystem::path dir =
      budget_->spill_dir().empty() ? std::filesystem::temp_directory_path() : budget_->spill_dir();
  if (!spill_fd_) {
    QUARRY_ASSIGN_OR_RETURN(spill_fd_, OpenSpillFile(dir));
  }
  while (size > 0) {
    const ssize_t written = ::pwrite(spill_fd_.get(), data, size, static_cast<off_t>(spill_end_));
    if (written < 0) {
      if (errno == EINTR) continue;
      return SpillError(dir, errno);
    }
    spill_end_ += static_cast<uint64_t>(written);
    budget_->CountSpilled(static_cast<size_t>(written));
    data += written;
    size -= static_cast<size_t>(written);
  }
  return Ok();
}

Result<void> OutgoingBlocks::Queue(std::string data, size_t offset) {
  const bool spilling = spill_end_ != spill_read_;
  if (!spilling && budget_->TryReserve(data.size())) {
    if (blocks_.empty()) front_written_ = offset;
    reserved_ += data.size();
    blocks_.push_back(std::move(data));
    return Ok();
  }
  QUARRY_TRY(Spill(data.data() + offset, data.size() - offset));
  data.clear();
  if (spare_.size() < kSpareBlocks) spare_.push_back(std::move(data));
  return Ok();
}

Result<bool> OutgoingBlocks::WriteMemory(int fd) {
  while (!blocks_.empty()) {
    const std::string& block = blocks_.front();
    const ssize_t written =
        ::write(fd, block.data() + front_written_, block.size() - front_written_);
    if (written < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return false;
      return WriteError(errno);
    }
    front_written_ += static_cast<size_t>(written);
    if (front_written_ == block.size()) {
      budget_->Release(block.size());
      reserved_ -= block.size();
      std::string done = std::move(blocks_.front());
      blocks_.pop_front();
      front_written_ = 0;
      done.clear();
      if (spare_.size() < kSpareBlocks) spare_.push_back(std::move(done));
    }
  }
  return true;
}

// Reads the file back in kStreamBlockSize pieces; a piece the pipe took only in part is read
// again from the first unsent byte next time.
Result<bool> OutgoingBlocks::WriteSpilled(int fd) {
  while (spill_read_ < spill_end_) {
    scratch_.resize(kStreamBlockSize);
    const size_t want = static_cast<size_t>(
        std::min<uint64_t>(kStreamBlockSize, spill_end_ - spill_read_));
    const ssize_t got =
        ::pread(spill_fd_.get(), scratch_.data(), want, static_cast<off_t>(spill_read_));
    if (got <= 0) {
      if (got < 0 && errno == EINTR) continue;
      return SpillError(budget_->spill_dir(), got < 0 ? errno : EIO);
    }
    const ssize_t written = ::write(fd, scratch_.data(), static_cast<size_t>(got));
    if (written < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return false;
      return WriteError(errno);
    }
    spill_read_ += static_cast<uint64_t>(written);
  }
  if (spill_end_ > 0) {  // drained: start the file over, and memory may take blocks again
    [[maybe_unused]] const int truncated = ::ftruncate(spill_fd_.get(), 0);
    spill_read_ = spill_end_ = 0;
  }
  return true;
}

Result<bool> OutgoingBlocks::WriteAvailable(int fd) {
  if (spill_error_) return *spill_error_;
  QUARRY_ASSIGN_OR_RETURN(bool drained, WriteMemory(fd));
  if (drained) {
    QUARRY_ASSIGN_OR_RETURN(drained, WriteSpilled(fd));
  }
  if (!tail_sealed_ || tail_.empty()) return drained && tail_.empty();
  // The sealed tail: straight to the pipe when nothing waits before it, the rest queued.
  size_t offset = 0;
  while (drained && offset < tail_.size()) {
    const ssize_t written = ::write(fd, tail_.data() + offset, tail_.size() - offset);
    if (written < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      return WriteError(errno);
    }
    offset += static_cast<size_t>(written);
  }
  tail_sealed_ = false;
  if (offset == tail_.size()) {
    tail_.clear();
    return true;
  }
  std::string rest = std::exchange(tail_, TakeSpare());
  if (auto queued = Queue(std::move(rest), offset); !queued) {
    spill_error_ = queued.error();
    return std::move(queued).error();
  }
  return false;
}

Result<void> MakeNonBlocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  // A client that reuses its pipe (bus_backend.cpp) passes one that is non-blocking already.
  if (flags < 0 || ((flags & O_NONBLOCK) == 0 && ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)) {
    return Error(Errc::kIo,
                 fmt::format("the result stream descriptor is unusable: {}", std::strerror(errno)));
  }
  if ((flags & O_ACCMODE) == O_RDONLY) {
    return Error(Errc::kInvalidArgument,
                 "the result stream descriptor is open for reading only; pass the write end");
  }
  return Ok();
}

size_t EnlargePipe(int fd) {
  const int current = ::fcntl(fd, F_GETPIPE_SZ);
  if (current < 0) return 0;
  if (static_cast<size_t>(current) >= kStreamPipeBytes) return static_cast<size_t>(current);
  // EPERM past the user's pipe limits (pipe-max-size, pipe-user-pages-soft): keep the default.
  const int enlarged = ::fcntl(fd, F_SETPIPE_SZ, static_cast<int>(kStreamPipeBytes));
  return static_cast<size_t>(enlarged < 0 ? current : enlarged);
}

}  // namespace quarry::ipc
