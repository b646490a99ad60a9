#include "store/ipc/update_stream.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <fmt/format.h>

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

Result<void> UpdateStreamReader::Fill(size_t need) {
  while (buffer_.size() - begin_ < need) {
    const size_t have = buffer_.size();
    buffer_.resize(have + kReadBytes);
    const ssize_t got = ::read(fd_.get(), buffer_.data() + have, kReadBytes);
    buffer_.resize(have + static_cast<size_t>(got > 0 ? got : 0));
    if (got > 0) continue;
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
  // Drop what was returned already; a buffer grown by a long request shrinks again.
  buffer_.erase(0, begin_);
  begin_ = 0;
  if (buffer_.capacity() > kKeptBufferBytes && buffer_.size() < kKeptBufferBytes / 2) {
    buffer_.shrink_to_fit();
  }
  QUARRY_TRY(Fill(4));
  const uint32_t length = ReadLength(buffer_.data());
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
  begin_ = 4 + size_t{length};
  ++count_;
  return std::optional<std::string_view>(std::string_view(buffer_.data() + 4, length));
}

}  // namespace quarry::ipc
