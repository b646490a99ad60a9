#include "store/ipc/update_stream.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace quarry::ipc {
namespace {

constexpr size_t kReadBytes = size_t{64} << 10;
// A buffer grown past this by one long request is given back once that request is done.
constexpr size_t kKeptBufferBytes = size_t{1} << 20;

void AppendLength(std::string& out, uint32_t length) {
  for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>(length >> shift));
}

uint32_t ReadLength(const char* bytes) {
  uint32_t length = 0;
  for (int i = 3; i >= 0; --i) length = (length << 8) | static_cast<unsigned char>(bytes[i]);
  return length;
}

}  // namespace

void AppendUpdateHeader(std::string& out, uint32_t length) { AppendLength(out, length); }

void AppendUpdateRecord(std::string& out, std::string_view request) {
  AppendLength(out, static_cast<uint32_t>(request.size()));
  out.append(request);
}

void AppendUpdateEnd(std::string& out) { AppendLength(out, kUpdateStreamEnd); }

UpdateStreamReader::UpdateStreamReader(UniqueFd fd, std::chrono::milliseconds stall_timeout)
    : fd_(std::move(fd)), stall_timeout_(stall_timeout) {
  const int flags = ::fcntl(fd_.get(), F_GETFL);
  if (flags >= 0) (void)::fcntl(fd_.get(), F_SETFL, flags | O_NONBLOCK);
}

void UpdateStreamReader::Reallocate(size_t capacity) {
  auto bigger = std::make_unique_for_overwrite<char[]>(capacity);
  const size_t held = end_ - begin_;
  if (held > 0) std::memcpy(bigger.get(), buffer_.get() + begin_, held);
  buffer_ = std::move(bigger);
  capacity_ = capacity;
  begin_ = 0;
  end_ = held;
}

void UpdateStreamReader::MakeRoom(size_t bytes) {
  if (capacity_ - end_ >= bytes) return;
  const size_t held = end_ - begin_;
  if (capacity_ - held >= bytes) {
    std::memmove(buffer_.get(), buffer_.get() + begin_, held);
    begin_ = 0;
    end_ = held;
    return;
  }
  Reallocate(std::max(held + bytes, capacity_ * 2));
}

Result<void> UpdateStreamReader::Fill(size_t need) {
  while (end_ - begin_ < need) {
    // At least a read's worth, and the whole of a long record's rest at once.
    MakeRoom(std::max(kReadBytes, need - (end_ - begin_)));
    const ssize_t got = ::read(fd_.get(), buffer_.get() + end_, capacity_ - end_);
    if (got > 0) {
      end_ += static_cast<size_t>(got);
      continue;
    }
    if (got == 0) {
      return Error(Errc::kIo, fmt::format("the stream ended without its end record after {} "
                                          "requests (the client closed it early or died): "
                                          "nothing of the batch was committed",
                                          count_));
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      return Error(Errc::kIo, fmt::format("cannot read the update stream: {}", std::strerror(errno)));
    }
    pollfd watched{fd_.get(), POLLIN, 0};
    const int ready = ::poll(&watched, 1, static_cast<int>(stall_timeout_.count()));
    if (ready == 0) {
      return Error(Errc::kIo, fmt::format("the update stream stalled: nothing came for {} ms after "
                                          "{} requests; nothing of the batch was committed",
                                          stall_timeout_.count(), count_));
    }
    if (ready < 0 && errno != EINTR) {
      return Error(Errc::kIo, fmt::format("cannot wait for the update stream: {}",
                                          std::strerror(errno)));
    }
  }
  return Ok();
}

Result<std::optional<std::string_view>> UpdateStreamReader::Next() {
  if (ended_) return std::optional<std::string_view>();
  // A buffer grown by a long request shrinks again once it is returned.
  if (capacity_ > kKeptBufferBytes && end_ - begin_ < kKeptBufferBytes / 2) {
    Reallocate(std::max(end_ - begin_, kReadBytes));
  }
  QUARRY_TRY(Fill(4));
  const uint32_t length = ReadLength(buffer_.get() + begin_);
  if (length == kUpdateStreamEnd) {
    ended_ = true;
    fd_.reset();
    return std::optional<std::string_view>();
  }
  if (length > kMaxStreamedRequestBytes) {
    return Error(Errc::kInvalidArgument,
                 fmt::format("the request is {} bytes, over the stream's limit of {} bytes",
                             length, kMaxStreamedRequestBytes));
  }
  QUARRY_TRY(Fill(4 + size_t{length}));
  const char* request = buffer_.get() + begin_ + 4;
  begin_ += 4 + size_t{length};
  if (begin_ == end_) begin_ = end_ = 0;
  ++count_;
  return std::optional<std::string_view>(std::string_view(request, length));
}

}  // namespace quarry::ipc
