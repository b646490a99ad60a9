#include "extract/service/worker_protocol.h"

#include <poll.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace quarry::extract::service {

namespace {

void PutLength(char* header, size_t size) {
  const auto value = static_cast<uint32_t>(size);
  header[0] = static_cast<char>(value & 0xFF);
  header[1] = static_cast<char>((value >> 8) & 0xFF);
  header[2] = static_cast<char>((value >> 16) & 0xFF);
  header[3] = static_cast<char>((value >> 24) & 0xFF);
}

// Writes every byte of `parts` (EINTR and short writes retried), at most kMaxParts of them.
Result<void> WriteAll(int fd, iovec* parts, int count) {
  while (count > 0) {
    const ssize_t written = ::writev(fd, parts, count);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) {
      return Error(Errc::kIo, fmt::format("worker pipe: cannot write: {}", std::strerror(errno)));
    }
    auto left = static_cast<size_t>(written);
    while (count > 0 && left >= parts->iov_len) {
      left -= parts->iov_len;
      ++parts;
      --count;
    }
    if (count > 0) {
      parts->iov_base = static_cast<char*>(parts->iov_base) + left;
      parts->iov_len -= left;
    }
  }
  return {};
}

constexpr size_t kMaxFrames = 8;

}  // namespace

Result<void> WriteFrames(int fd, std::initializer_list<std::string_view> payloads) {
  if (payloads.size() > kMaxFrames) {
    for (const std::string_view payload : payloads) QUARRY_TRY(WriteFrames(fd, {payload}));
    return {};
  }
  char headers[kMaxFrames][4];
  iovec parts[2 * kMaxFrames];
  int count = 0;
  size_t frame = 0;
  for (const std::string_view payload : payloads) {
    PutLength(headers[frame], payload.size());
    parts[count++] = {headers[frame], 4};
    if (!payload.empty()) parts[count++] = {const_cast<char*>(payload.data()), payload.size()};
    ++frame;
  }
  return WriteAll(fd, parts, count);
}

Result<void> WriteFrame(int fd, std::string_view payload) { return WriteFrames(fd, {payload}); }

Result<void> WriteTaggedFrame(int fd, char tag, std::string_view text) {
  char header[5];
  PutLength(header, text.size() + 1);
  header[4] = tag;
  iovec parts[2] = {{header, 5}, {const_cast<char*>(text.data()), text.size()}};
  return WriteAll(fd, parts, text.empty() ? 1 : 2);
}

bool FrameReader::Fill(size_t wanted, std::chrono::steady_clock::time_point deadline,
                       Status& status) {
  if (start_ > 0 && buffer_.size() - start_ < wanted) {  // room for the rest: drop what was read
    buffer_.erase(0, start_);
    start_ = 0;
  }
  char chunk[65536];
  while (buffer_.size() - start_ < wanted) {
    if (deadline != std::chrono::steady_clock::time_point::max()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        status = Status::kTimeout;
        return false;
      }
      const int wait_ms = static_cast<int>(std::min<int64_t>(left.count() + 1, 60'000));
      pollfd watched{fd_, POLLIN, 0};
      const int ready = ::poll(&watched, 1, wait_ms);
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) continue;  // the deadline check above decides
      if (ready < 0) {
        status = Status::kEof;
        return false;
      }
    }
    // No deadline: a blocking read waits by itself (one system call instead of poll and read).
    const ssize_t got = ::read(fd_, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      status = Status::kEof;
      return false;
    }
    buffer_.append(chunk, static_cast<size_t>(got));
  }
  return true;
}

FrameReader::Status FrameReader::Read(std::string& frame,
                                      std::chrono::steady_clock::time_point deadline) {
  Status status = Status::kFrame;
  if (!Fill(4, deadline, status)) return status;
  const auto byte = [this](size_t i) {
    return static_cast<uint32_t>(static_cast<uint8_t>(buffer_[start_ + i]));
  };
  const uint32_t size = byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24;
  if (size > kMaxFrameBytes) return Status::kEof;
  // Room for the whole frame at once: appending by chunks would double the buffer past it
  // (up to 32 MiB ahead of the bytes: the length comes from an untrusted worker).
  if (const size_t whole = start_ + 4 + size_t{size};
      buffer_.capacity() < whole && size <= (32u << 20)) {
    buffer_.reserve(whole);
  }
  if (!Fill(4 + size_t{size}, deadline, status)) return status;
  frame.assign(buffer_, start_ + 4, size);
  start_ += 4 + size_t{size};
  if (start_ == buffer_.size()) {
    buffer_.clear();
    start_ = 0;
    // One large text (a PDF's) must not keep its buffer for the life of the reader.
    if (buffer_.capacity() > kKeptBytes) std::string().swap(buffer_);
  }
  return Status::kFrame;
}

}  // namespace quarry::extract::service
