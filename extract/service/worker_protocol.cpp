#include "extract/service/worker_protocol.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace quarry::extract::service {

Result<void> WriteFrame(int fd, std::string_view payload) {
  const auto size = static_cast<uint32_t>(payload.size());
  const char header[4] = {static_cast<char>(size & 0xFF), static_cast<char>((size >> 8) & 0xFF),
                          static_cast<char>((size >> 16) & 0xFF),
                          static_cast<char>((size >> 24) & 0xFF)};
  for (std::string_view part : {std::string_view(header, 4), payload}) {
    while (!part.empty()) {
      const ssize_t written = ::write(fd, part.data(), part.size());
      if (written < 0 && errno == EINTR) continue;
      if (written < 0) {
        return Error(Errc::kIo, fmt::format("worker pipe: cannot write: {}", std::strerror(errno)));
      }
      part.remove_prefix(static_cast<size_t>(written));
    }
  }
  return {};
}

bool FrameReader::Fill(size_t wanted, std::chrono::steady_clock::time_point deadline,
                       Status& status) {
  char chunk[65536];
  while (buffer_.size() < wanted) {
    int wait_ms = -1;
    if (deadline != std::chrono::steady_clock::time_point::max()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        status = Status::kTimeout;
        return false;
      }
      wait_ms = static_cast<int>(std::min<int64_t>(left.count() + 1, 60'000));
    }
    pollfd watched{fd_, POLLIN, 0};
    const int ready = ::poll(&watched, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline check above decides
    const ssize_t got = ready < 0 ? -1 : ::read(fd_, chunk, sizeof chunk);
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
  const auto byte = [this](size_t i) { return static_cast<uint32_t>(static_cast<uint8_t>(buffer_[i])); };
  const uint32_t size = byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24;
  if (size > kMaxFrameBytes) return Status::kEof;
  if (!Fill(4 + size_t{size}, deadline, status)) return status;
  frame.assign(buffer_, 4, size);
  buffer_.erase(0, 4 + size_t{size});
  return Status::kFrame;
}

}  // namespace quarry::extract::service
