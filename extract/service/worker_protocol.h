// The pipe protocol between quarry-extract and its worker processes: frames of a 4-byte
// little-endian length and that many bytes. The worker first sends 'S' once it is sandboxed
// and loaded (its start-up never counts against a file's time limit). The service sends four frames per file (the path,
// its URL as the store spells it or "", the file resource IRI or "", the file's mtime in
// microseconds since the epoch as decimal text or "": the update then records it as extracted,
// extract_state.h SuccessState); the worker answers with tagged frames: 'M' + the module it is
// about to run (so a crash or hang is still blamed on it), then one of 'R' + the file's SPARQL
// update, 'N' + why there is nothing to extract (no module for the type), 'E' + the module's
// error (or "out of memory").
// Thread-safety: a FrameReader belongs to one thread; the functions are reentrant.
#pragma once

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "store/common/result.h"

namespace quarry::extract::service {

inline constexpr char kTagReady = 'S';  // sent once, sandboxed and ready for files
inline constexpr char kTagModule = 'M';
inline constexpr char kTagResult = 'R';
inline constexpr char kTagNothing = 'N';
inline constexpr char kTagError = 'E';

// A frame larger than this is a broken peer, not a result (the text cap is far below).
inline constexpr uint32_t kMaxFrameBytes = 512u << 20;

// Writes one frame completely (EINTR retried). kIo when the peer is gone (EPIPE).
Result<void> WriteFrame(int fd, std::string_view payload);
// Several frames in one writev (the same bytes as WriteFrame for each in turn): a peer blocked
// in a read wakes once for all of them instead of once per header and payload.
Result<void> WriteFrames(int fd, std::initializer_list<std::string_view> payloads);
// One frame of `tag` followed by `text`, without copying `text` (one writev).
Result<void> WriteTaggedFrame(int fd, char tag, std::string_view text);

class FrameReader {
 public:
  enum class Status { kFrame, kEof, kTimeout };
  explicit FrameReader(int fd) : fd_(fd) {}
  // The next frame into `frame`, waiting until `deadline` at most; kEof when the peer closed
  // (or sent a malformed length), kTimeout when the deadline passed first.
  Status Read(std::string& frame, std::chrono::steady_clock::time_point deadline);
  // No deadline: the worker waits for its next request as long as it takes.
  Status Read(std::string& frame) { return Read(frame, std::chrono::steady_clock::time_point::max()); }
  // Bytes the reader holds between frames (tests: a large frame's buffer is not kept).
  size_t capacity() const { return buffer_.capacity(); }
  // A buffer grown past this for a large frame is freed once the frame is read.
  static constexpr size_t kKeptBytes = 256 << 10;

 private:
  bool Fill(size_t wanted, std::chrono::steady_clock::time_point deadline, Status& status);
  int fd_;
  std::string buffer_;  // bytes read, the next frame from start_
  size_t start_ = 0;
};

}  // namespace quarry::extract::service
