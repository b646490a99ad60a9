// The byte stream of Resources.UpdateStream (issue 7, README.md "UpdateStream"): a client
// streams the requests of one batch through a socket (or pipe) while the store runs them, so
// neither end holds the whole batch. Each request is one record: its length as a 4-byte
// little-endian unsigned integer, then that many bytes of UTF-8 text. The record of length
// kUpdateStreamEnd (no bytes follow) ends the batch: a stream that reaches end-of-file
// without it was cut short (the client closed it early or died) and nothing of it commits.
// Both ends live here: UpdateStreamReader (the store's writer thread) and
// AppendUpdateRecord / AppendUpdateEnd (the client).
// Thread-safety: a reader is used by one thread at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "store/common/result.h"
#include "store/common/unique_fd.h"

namespace quarry::ipc {

inline constexpr uint32_t kUpdateStreamEnd = 0xFFFFFFFFu;
// The longest request a stream takes (a longer record is refused, not buffered).
inline constexpr uint32_t kMaxStreamedRequestBytes = 256u << 20;

// Appends `request` as one record to `out`.
void AppendUpdateRecord(std::string& out, std::string_view request);
// Appends the 4 bytes that precede a request of `length` bytes (the request is sent apart).
void AppendUpdateHeader(std::string& out, uint32_t length);
// Appends the end record.
void AppendUpdateEnd(std::string& out);

class UpdateStreamReader {
 public:
  // Reads `fd` (made non-blocking here). A wait of more than `stall_timeout` for the next
  // bytes fails the stream.
  UpdateStreamReader(UniqueFd fd, std::chrono::milliseconds stall_timeout);

  // The next request (a view valid until the next call), nullopt at the end record, or why the
  // stream cannot go on: it ended before the end record, stalled, or a record is too long.
  Result<std::optional<std::string_view>> Next();
  // The requests returned so far.
  size_t count() const { return count_; }
  // The bytes held for the request being read (at most one record and a read's worth).
  size_t buffered_capacity() const { return capacity_; }

 private:
  // Reads until `need` bytes past begin_ are buffered.
  Result<void> Fill(size_t need);
  // Makes room for `bytes` more after end_: moves the bytes not returned yet to the front, or
  // grows the buffer.
  void MakeRoom(size_t bytes);
  // Reallocates to `capacity` bytes (at least end_ - begin_), the unreturned bytes first.
  void Reallocate(size_t capacity);

  UniqueFd fd_;
  std::chrono::milliseconds stall_timeout_;
  // [begin_, end_) read and not returned yet. Allocated for overwrite: a read's room is never
  // zero-filled first (a std::string resize zeroed 64 KiB per read).
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;
  size_t end_ = 0;
  size_t begin_ = 0;  // the first byte not returned yet
  size_t count_ = 0;
  bool ended_ = false;
};

}  // namespace quarry::ipc
