// The direct/embedded backend: an engine::Store in this process, cursors over its statements.
// A read-only (Direct) connection follows quarry-store's Restore by reopening (issue 4).
// Connection::Open and Connection::Direct are defined here, not in connection.cpp: this file and
// the engine are quarry_client_direct, which a bus-only program does not link.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <ctime>
#include <optional>

#include "store/client/backend.h"
#include "store/common/unique_fd.h"
#include "store/engine/store.h"

namespace quarry {
namespace {

// Which file a path names: quarry-store's Restore renames another file onto meta.db, so the path
// stays and the inode changes (store/ipc/README.md "Backup").
struct FileIdentity {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const FileIdentity&) const = default;
};

std::optional<FileIdentity> IdentityOf(const std::filesystem::path& file) {
  struct stat info {};
  if (::stat(file.c_str(), &info) != 0) return std::nullopt;
  return FileIdentity{info.st_dev, info.st_ino};
}

// The database directory, open, for the restore check: quarry-store's Restore renames files
// into it, and a rename updates the directory's mtime (POSIX). An fstat() of this descriptor
// costs a third of a stat() of meta.db by path (0.33 vs 0.99 us here: no path walk), and a
// direct fetch_one is ~9 us (issue 7).
UniqueFd OpenDirectory(const std::filesystem::path& file) {
  return UniqueFd(::open(file.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

int64_t Nanoseconds(const timespec& time) {
  return static_cast<int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

// A directory mtime at least this old can be trusted to change on the next rename: the kernel
// stamps with a coarse clock and some filesystems keep whole seconds (FAT: two), so a rename
// within the same tick as the last change could leave the mtime as it was.
constexpr int64_t kSettledNs = int64_t{3} * 1'000'000'000;

// A cursor keeps the Store it reads alive: after a restore the connection moves on to the new
// file while a cursor opened before it finishes on the old one (its snapshot).
class DirectCursor final : public Cursor::Impl {
 public:
  DirectCursor(std::shared_ptr<engine::Store> store, engine::Cursor cursor)
      : store_(std::move(store)), cursor_(std::move(cursor)) {}
  Result<bool> Next() override { return cursor_.Next(); }
  int ColumnCount() const override { return cursor_.ColumnCount(); }
  const std::string& VariableName(int column) const override {
    return cursor_.VariableName(column);
  }
  ValueKind Kind(int column) const override {
    return static_cast<ValueKind>(cursor_.Kind(column));
  }
  std::string_view GetString(int column) override { return cursor_.GetString(column); }
  std::string_view GetLanguage(int column) override { return cursor_.GetLanguage(column); }
  int64_t GetInteger(int column) const override { return cursor_.GetInteger(column); }
  double GetDouble(int column) const override { return cursor_.GetDouble(column); }
  bool GetBoolean(int column) const override { return cursor_.GetBoolean(column); }

 private:
  std::shared_ptr<engine::Store> store_;  // declared first: outlives the statement
  engine::Cursor cursor_;
};

class DirectConnection final : public Connection::Impl {
 public:
  DirectConnection(Connection::Options options, std::shared_ptr<engine::Store> store)
      : options_(std::move(options)),
        store_(std::move(store)),
        identity_(IdentityOf(store_->database_file())) {
    if (!store_->writable()) directory_ = OpenDirectory(store_->database_file());
  }

  Result<Cursor> Query(std::string_view sparql) override {
    QUARRY_TRY(FollowRestore());
    QUARRY_ASSIGN_OR_RETURN(engine::Cursor cursor, store_->Query(sparql));
    return Wrap(std::move(cursor));
  }
  Result<GraphAnswer> QueryGraph(std::string_view sparql) override {
    QUARRY_TRY(FollowRestore());
    QUARRY_ASSIGN_OR_RETURN(engine::TripleSet triples, store_->QueryGraph(sparql));
    return GraphAnswer{std::move(triples), store_->ontology().prefixes()};
  }
  Result<Statement> Prepare(std::string_view sparql) override;
  Result<void> UpdateBatch(std::span<const std::string> requests) override {
    if (requests.size() == 1) return store_->Update(requests.front());
    return store_->UpdateBatch(requests);
  }
  // Each request runs as `next` produces it, inside the store's one transaction.
  Result<void> UpdateStream(const Connection::UpdateProducer& next) override {
    std::string request;
    return store_->UpdateStream([&]() -> Result<std::optional<std::string_view>> {
      request.clear();
      QUARRY_ASSIGN_OR_RETURN(const bool more, next(request));
      if (!more) return std::optional<std::string_view>();
      return std::optional<std::string_view>(request);
    });
  }
  Result<std::string> Explain(std::string_view sparql) override {
    QUARRY_TRY(FollowRestore());
    return store_->Explain(sparql);
  }
  bool writable() const override { return store_->writable(); }

  // A read-only connection whose meta.db was replaced by a restore reopens on the new file
  // before its next read; reading on would show the old data, and the old file's connection
  // shares meta.db-wal/-shm by name with the new one. Writers hold the directory lock, so no
  // restore can happen under them.
  // The file's inode is compared only when the directory's mtime moved since the last check
  // that found it settled (kSettledNs old): nothing was renamed into the directory since.
  // (The directory itself being replaced is not followed: the store never does that.)
  Result<void> FollowRestore() {
    if (store_->writable()) return Ok();
    struct stat directory {};
    const bool have_directory = directory_ && ::fstat(directory_.get(), &directory) == 0;
    const int64_t mtime = have_directory ? Nanoseconds(directory.st_mtim) : 0;
    if (have_directory && settled_mtime_ && *settled_mtime_ == mtime) return Ok();
    settled_mtime_.reset();
    const std::optional<FileIdentity> current = IdentityOf(store_->database_file());
    if (!current) return Ok();  // missing: mid-swap, the old file serves (checked again next time)
    if (current != identity_) {
      auto reopened =
          engine::Store::Open({options_.database, options_.ontology, options_.read_only});
      if (!reopened) return std::move(reopened.error()).WithContext("reopening after a restore");
      store_ = std::move(*reopened);
      identity_ = current;
      ++generation_;
    }
    // The mtime was read before the file's identity: a rename after that read stamps a later
    // time, so the next check sees the change. Trusted only once it is settled.
    timespec now {};
    if (have_directory && ::clock_gettime(CLOCK_REALTIME, &now) == 0 &&
        mtime < Nanoseconds(now) - kSettledNs) {
      settled_mtime_ = mtime;
    }
    return Ok();
  }
  engine::Store& store() { return *store_; }
  // Changes each time the connection reopened: compiled statements compile again.
  uint64_t generation() const { return generation_; }
  Cursor Wrap(engine::Cursor cursor) {
    return Cursor(std::make_unique<DirectCursor>(store_, std::move(cursor)));
  }

 private:
  const Connection::Options options_;
  std::shared_ptr<engine::Store> store_;
  std::optional<FileIdentity> identity_;
  UniqueFd directory_;                    // read-only connections: the database directory
  std::optional<int64_t> settled_mtime_;  // its mtime when the last check found meta.db unchanged
  uint64_t generation_ = 0;
};

class DirectStatement final : public Statement::Impl {
 public:
  DirectStatement(DirectConnection& connection, std::string sparql,
                  engine::Store::Prepared prepared)
      : connection_(connection),
        sparql_(std::move(sparql)),
        prepared_(std::move(prepared)),
        generation_(connection.generation()) {}
  Result<Cursor> Execute() override {
    QUARRY_TRY(connection_.FollowRestore());
    if (generation_ != connection_.generation()) {  // compiled against the old file's schema
      QUARRY_ASSIGN_OR_RETURN(prepared_, connection_.store().Prepare(sparql_));
      generation_ = connection_.generation();
    }
    QUARRY_ASSIGN_OR_RETURN(engine::Cursor cursor, connection_.store().Run(prepared_, parameters));
    return connection_.Wrap(std::move(cursor));
  }

 private:
  DirectConnection& connection_;
  const std::string sparql_;
  engine::Store::Prepared prepared_;
  uint64_t generation_;
};

Result<Statement> DirectConnection::Prepare(std::string_view sparql) {
  QUARRY_TRY(FollowRestore());
  QUARRY_ASSIGN_OR_RETURN(engine::Store::Prepared prepared, store_->Prepare(sparql));
  return Statement(std::make_unique<DirectStatement>(*this, std::string(sparql),
                                                     std::move(prepared)));
}

}  // namespace

Result<std::unique_ptr<Connection::Impl>> OpenDirectBackend(const Connection::Options& options) {
  auto store = engine::Store::Open({options.database, options.ontology, options.read_only});
  if (!store) return std::move(store).error();
  std::shared_ptr<engine::Store> shared(std::move(*store));
  return std::unique_ptr<Connection::Impl>(
      std::make_unique<DirectConnection>(options, std::move(shared)));
}

Result<std::unique_ptr<Connection>> Connection::Open(const Options& options) {
  QUARRY_ASSIGN_OR_RETURN(std::unique_ptr<Impl> impl, OpenDirectBackend(options));
  return std::unique_ptr<Connection>(new Connection(std::move(impl)));
}

Result<std::unique_ptr<Connection>> Connection::Direct(const std::filesystem::path& database,
                                                       const std::filesystem::path& ontology) {
  return Open({database, ontology, /*read_only=*/true});
}

}  // namespace quarry
