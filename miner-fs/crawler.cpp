#include "miner-fs/crawler.h"

#include <fmt/format.h>
#include <limits.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <optional>
#include <thread>

#include "miner-fs/file_uri.h"
#include "miner-fs/log.h"
#include "miner-fs/sparql_updates.h"

namespace quarry::miner {
namespace {

// Folders opened ahead through their parent's fd; beyond this, queued folders are reopened by
// path when their turn comes, so a wide tree cannot exhaust the descriptor limit.
constexpr size_t kMaxOpenFolders = 256;
constexpr size_t kGitIgnoreLimit = 256 * 1024;

std::string JoinPath(std::string_view folder, std::string_view name) {
  std::string path;
  path.reserve(folder.size() + name.size() + 1);
  path += folder;
  if (path.empty() || path.back() != '/') path += '/';
  path += name;
  return path;
}

}  // namespace

struct Crawler::GitChain {
  std::shared_ptr<const GitChain> parent;
  std::string folder;  // where this .gitignore lives
  GitIgnore rules;

  // Innermost file first: a deeper .gitignore overrides the ones above it.
  bool Ignores(const std::string& path, bool is_folder) const {
    for (const GitChain* node = this; node; node = node->parent.get()) {
      const std::string_view relative = std::string_view(path).substr(node->folder.size() + 1);
      if (const auto verdict = node->rules.Match(relative, is_folder)) return *verdict;
    }
    return false;
  }
};

// The known children of the folders queued, asked ahead: folders are added as they are queued
// (Ask), each query takes every folder added since the last one (up to kFoldersPerQuery), and
// Take() hands out one folder's answer, waiting for it (or asking now) when it is not in yet.
// With a thread store the queries run on a thread of their own, one at a time; without, Take()
// runs them on the caller's thread. A generation number drops answers asked before Forget().
// Folders asked `with_iris` (the monitor's re-crawl of a folder whose known children will be
// written: a marker appeared) are asked with IndexStore::Children, in batches of their own, so
// the write needs no second query for the files' IRIs; the others with ChildrenToCompare.
class Crawler::Asker {
 public:
  static constexpr size_t kRecycledToFree = 16;

  Asker(IndexStore& store, IndexStore* thread_store) : store_(store), thread_store_(thread_store) {
    if (thread_store_) thread_ = std::thread([this] { Run(); });
  }

  ~Asker() {
    if (!thread_.joinable()) return;
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

  void Ask(std::vector<std::string>& iris, bool with_iris = false) {
    if (iris.empty()) return;
    {
      const std::lock_guard lock(mutex_);
      for (std::string& iri : iris) {
        if (with_iris) with_iris_.insert(iri);
        (with_iris ? pending_iris_ : pending_).push_back(std::move(iri));
      }
    }
    iris.clear();
    wake_.notify_all();
  }

  // Drops every answer and question (the store changed under them), then asks for `iris`.
  void Forget(std::vector<std::string>& iris) {
    {
      const std::lock_guard lock(mutex_);
      ++generation_;
      pending_.clear();
      pending_iris_.clear();
      with_iris_.clear();
      in_flight_.clear();
      answers_.clear();
      failure_.reset();
    }
    Ask(iris);
  }

  // Takes back an answer the crawl is done with. With a thread, it is freed there: the thread
  // allocated it, and ~20,000 frees a restart are off the crawl's thread (and the next answers
  // reuse the memory); without, it is freed here.
  void Recycle(KnownChildren known) {
    if (!thread_store_ || known.empty()) return;
    bool is_due = false;
    {
      const std::lock_guard lock(mutex_);
      recycled_.push_back(std::move(known));
      is_due = recycled_.size() >= kRecycledToFree;
    }
    if (is_due) wake_.notify_all();
  }

  Result<KnownChildren> Take(const std::string& iri) {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (auto found = answers_.find(iri); found != answers_.end()) {
        KnownChildren known = std::move(found->second);
        answers_.erase(found);  // the same folder queued again asks again
        with_iris_.erase(iri);
        return known;
      }
      if (failure_) {
        Error error = std::move(*failure_);
        failure_.reset();
        return error;
      }
      std::deque<std::string>& pending = with_iris_.contains(iri) ? pending_iris_ : pending_;
      if (!in_flight_.contains(iri) && std::find(pending.begin(), pending.end(), iri) == pending.end()) {
        pending.push_front(iri);  // not asked (queued before a Forget, or asked and taken)
      }
      if (thread_store_) {
        wake_.notify_all();
        answered_.wait(lock);
        continue;
      }
      bool with_iris = false;
      std::vector<std::string> batch = TakeBatch(with_iris);
      lock.unlock();
      auto children = with_iris ? store_.Children(batch) : store_.ChildrenToCompare(batch);
      lock.lock();
      Answer(batch, std::move(children));
    }
  }

 private:
  // Under the lock: the next query's folders, moved from pending_iris_ (first; `with_iris` set)
  // or pending_ to in_flight_.
  std::vector<std::string> TakeBatch(bool& with_iris) {
    with_iris = !pending_iris_.empty();
    std::deque<std::string>& pending = with_iris ? pending_iris_ : pending_;
    std::vector<std::string> batch;
    while (!pending.empty() && batch.size() < kFoldersPerQuery) {
      std::string iri = std::move(pending.front());
      pending.pop_front();
      if (answers_.contains(iri) || !in_flight_.insert(iri).second) continue;
      batch.push_back(std::move(iri));
    }
    return batch;
  }

  // Under the lock.
  void Answer(const std::vector<std::string>& batch,
              Result<std::unordered_map<std::string, KnownChildren>> children) {
    for (const std::string& iri : batch) in_flight_.erase(iri);
    if (!children) {
      failure_ = std::move(children).error();
      return;
    }
    for (auto& [iri, known] : *children) answers_.insert_or_assign(iri, std::move(known));
  }

  void Run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] {
        return stopping_ || !pending_.empty() || !pending_iris_.empty() ||
               recycled_.size() >= kRecycledToFree;
      });
      if (stopping_) return;
      if (!recycled_.empty()) {
        std::vector<KnownChildren> used;
        used.swap(recycled_);
        lock.unlock();
        used.clear();
        lock.lock();
      }
      bool with_iris = false;
      std::vector<std::string> batch = TakeBatch(with_iris);
      if (batch.empty()) continue;
      const uint64_t generation = generation_;
      lock.unlock();
      auto children = with_iris ? thread_store_->Children(batch) : thread_store_->ChildrenToCompare(batch);
      lock.lock();
      if (generation == generation_) Answer(batch, std::move(children));
      answered_.notify_all();
    }
  }

  IndexStore& store_;
  IndexStore* const thread_store_;
  std::mutex mutex_;
  std::condition_variable wake_;      // the thread: something to ask, or stop
  std::condition_variable answered_;  // Take(): an answer arrived
  std::deque<std::string> pending_;
  std::deque<std::string> pending_iris_;       // asked with the files' IRIs
  std::unordered_set<std::string> with_iris_;  // folders asked (or to be asked) with them
  std::unordered_set<std::string> in_flight_;
  std::unordered_map<std::string, KnownChildren> answers_;
  std::optional<Error> failure_;
  std::vector<KnownChildren> recycled_;  // answers used, to free on the thread
  uint64_t generation_ = 0;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the members it uses exist
};

bool IsValidUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    // Most names are ASCII: 8 bytes a step while none has its high bit set.
    uint64_t word = 0;
    if (i + sizeof(word) <= text.size()) {
      std::memcpy(&word, text.data() + i, sizeof(word));
      if ((word & 0x8080808080808080ULL) == 0) {
        i += sizeof(word);
        continue;
      }
    }
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) {
      ++i;
      continue;
    }
    const int length = (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : (lead >> 3) == 30 ? 4 : 0;
    if (length == 0 || i + length > text.size()) return false;
    uint32_t code = lead & (0x7f >> length);
    for (int k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xc0) != 0x80) return false;
      code = (code << 6) | (next & 0x3f);
    }
    static constexpr uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < kMinimum[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    i += length;
  }
  return true;
}

Crawler::Crawler(FileSystem& file_system, IndexStore& store, UpdateBatcher& batcher,
                 const IgnoreRules& rules, MimeDetector& mime, IndexStore* ahead)
    : file_system_(file_system),
      store_(store),
      batcher_(batcher),
      rules_(rules),
      mime_(mime),
      asker_(std::make_unique<Asker>(store, ahead)) {}

Crawler::~Crawler() = default;

void Crawler::ForgetKnown() {
  std::vector<std::string> none;
  asker_->Forget(none);
  // Asked again at the next Step(), not now: the caller's own writes are not flushed yet.
  reask_ = true;
}

Result<void> Crawler::AddRoot(const IndexRoot& root) {
  const std::string path = root.path.string();
  const std::string uri = FileUri(path);
  auto entry = file_system_.Stat(path);
  QUARRY_ASSIGN_OR_RETURN(const auto known, store_.Lookup(uri));
  if (!entry || entry->kind != RawKind::kFolder) {
    // A root that is gone (or is no folder): what the store held for it goes too.
    if (known) QUARRY_TRY(batcher_.Add(DeleteResource(known->iri, uri, known->kind)));
    if (!entry && entry.error().code() != Errc::kNotFound) LogOnce(path, entry.error().message());
    return Ok();
  }
  Item item{nullptr, path, uri, known ? known->iri : NewResourceIri(), !known, root.recursive, nullptr,
            false};
  if (!known) {
    const FileFacts facts{item.iri, uri, root.path.filename().string(), EntryKind::kFolder,
                          entry->size, entry->mtime_us, entry->created_us, "", ""};
    QUARRY_TRY(batcher_.Add(InsertResource(facts)));
  } else if (known->mtime_us != entry->mtime_us) {
    const FileFacts facts{item.iri, uri, root.path.filename().string(), EntryKind::kFolder,
                          entry->size, entry->mtime_us, entry->created_us, "", ""};
    QUARRY_TRY(batcher_.Add(UpdateResource(facts)));
  }
  if (!item.is_new) to_ask_.push_back(item.iri);
  queue_.push_back(std::move(item));
  asker_->Ask(to_ask_);
  return Ok();
}

void Crawler::AddFolder(std::string path, std::string iri, bool recursive, bool is_new,
                        bool with_iris) {
  std::string uri = FileUri(path);
  if (!is_new && with_iris) {
    std::vector<std::string> one{iri};
    asker_->Ask(one, true);
  } else if (!is_new) {
    to_ask_.push_back(iri);
  }
  queue_.push_back(Item{nullptr, std::move(path), std::move(uri), std::move(iri), is_new, recursive,
                        nullptr, with_iris});
  asker_->Ask(to_ask_);
}

Result<bool> Crawler::Step() {
  if (queue_.empty()) return false;
  if (reask_) {
    reask_ = false;
    for (const Item& queued : queue_) {
      if (queued.is_new) continue;
      if (!queued.with_iris) {
        to_ask_.push_back(queued.iri);
        continue;
      }
      std::vector<std::string> one{queued.iri};
      asker_->Ask(one, true);
    }
    asker_->Ask(to_ask_);
  }
  Item item = std::move(queue_.front());
  queue_.pop_front();
  if (item.folder) --open_folders_;
  current_ = item.path;
  auto processed = Process(item);
  asker_->Ask(to_ask_);  // the known folders it queued (before its writes are flushed)
  if (queue_.empty()) {
    visited_.clear();  // the next crawl may see the same folders again
    ForgetKnown();     // answers for folders that were skipped
  }
  if (!processed) return std::move(processed).error();
  return true;
}

Result<void> Crawler::Process(Item& item) {
  if (!item.folder) {
    auto opened = file_system_.OpenFolder(item.path);
    if (!opened) {
      // Gone since it was queued: its parent's next diff removes it from the store.
      if (opened.error().code() != Errc::kNotFound) LogOnce(item.path, opened.error().message());
      ++stats_.skipped;
      return Ok();
    }
    item.folder = std::move(*opened);
  }
  const FolderId id = item.folder->id();
  if (!visited_.emplace(id.device, id.inode).second) {
    LogOnce(item.path, "folder reached twice (bind mount or loop); skipped");
    return Ok();
  }
  auto entries = item.folder->List();
  if (!entries) {
    if (entries.error().code() != Errc::kNotFound) LogOnce(item.path, entries.error().message());
    ++stats_.skipped;
    return Ok();
  }
  ++stats_.folders;
  // A folder holding a marker stays a resource of its parent, but its content is not indexed
  // (and what the store held of it goes); it is not watched either.
  const bool is_marked = std::any_of(entries->begin(), entries->end(), [&](const RawEntry& entry) {
    return entry.kind == RawKind::kFile && rules_.IsMarker(entry.name);
  });
  if (!is_marked && on_folder_) on_folder_(item.path, item.iri, item.recursive);
  const std::vector<DiskChild> disk = is_marked ? std::vector<DiskChild>() : Listing(item, *entries);
  KnownChildren known;
  if (!item.is_new) {
    Result<KnownChildren> children = Known(item);
    if (!children.ok()) return children.error();
    known.swap(*children);  // swap, not a move out of the Result: GCC 12 -O2 misreads the latter
  }
  const FolderChanges changes = DiffFolder(known, disk);
  auto written = Write(item, changes);
  asker_->Recycle(std::move(known));
  return written;
}

// The item's known children, asked ahead (or now, with the folders queued behind it).
Result<KnownChildren> Crawler::Known(const Item& item) {
  const auto asked_at = std::chrono::steady_clock::now();
  auto known = asker_->Take(item.iri);
  stats_.store_wait += std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - asked_at);
  if (!known) ForgetKnown();  // the miner retries; ask everything queued again
  return known;
}

std::vector<DiskChild> Crawler::Listing(Item& item, std::vector<RawEntry>& entries) {
  if (rules_.honour_gitignore()) {
    for (const RawEntry& entry : entries) {
      if (entry.name != ".gitignore" || entry.kind != RawKind::kFile) continue;
      auto text = item.folder->ReadFile(entry.name, kGitIgnoreLimit);
      if (!text) continue;
      item.git = std::make_shared<const GitChain>(GitChain{item.git, item.path, GitIgnore::Parse(*text)});
    }
  }
  std::vector<DiskChild> disk;
  disk.reserve(entries.size());
  for (RawEntry& entry : entries) {
    if (!Admit(item, entry)) continue;
    const EntryKind kind = entry.kind == RawKind::kFolder ? EntryKind::kFolder : EntryKind::kFile;
    if (kind == EntryKind::kFile) ++stats_.files;
    disk.push_back({std::move(entry.name), kind, entry.mtime_us, entry.size, entry.created_us});
  }
  return disk;
}

bool Crawler::Admit(const Item& item, const RawEntry& entry) {
  // Symlinks are not followed (no loops, no escaping the indexed trees); devices, sockets and
  // FIFOs hold nothing to index.
  if (entry.kind == RawKind::kSymlink || entry.kind == RawKind::kOther) {
    if (entry.error == 0 || entry.error == ENOENT) return false;
    LogOnce(JoinPath(item.path, entry.name), std::strerror(entry.error));
    ++stats_.skipped;
    return false;
  }
  const bool is_folder = entry.kind == RawKind::kFolder;
  const bool needs_path = rules_.needs_path(is_folder) || item.git;
  const std::string path = needs_path ? JoinPath(item.path, entry.name) : std::string();
  if (is_folder ? rules_.IgnoresFolder(entry.name, path) : rules_.IgnoresFile(entry.name, path)) {
    return false;
  }
  if (item.git && item.git->Ignores(path, is_folder)) return false;
  if (!IsValidUtf8(entry.name)) {
    LogOnce(JoinPath(item.path, entry.name), "name is not UTF-8; skipped");
    ++stats_.skipped;
    return false;
  }
  if (item.path.size() + 1 + entry.name.size() >= PATH_MAX) {
    LogOnce(JoinPath(item.path, entry.name), "path reaches PATH_MAX; skipped");
    ++stats_.skipped;
    return false;
  }
  return true;
}

Result<void> Crawler::Write(Item& item, const FolderChanges& changes) {
  // The known children came without the files' IRIs (ChildrenToCompare): a changed or deleted
  // one asks the folder's children with theirs, once per folder that has such a change.
  KnownChildren with_iris;
  const auto needs_iri = [](const KnownChild* record) { return record->iri.empty(); };
  const bool ask_iris =
      std::any_of(changes.deleted.begin(), changes.deleted.end(), [&](const auto& d) { return needs_iri(d.second); }) ||
      std::any_of(changes.changed.begin(), changes.changed.end(), [&](const auto& c) { return needs_iri(c.second); });
  if (ask_iris) {
    QUARRY_ASSIGN_OR_RETURN(auto children, store_.Children({item.iri}));
    with_iris.swap(children[item.iri]);
  }
  // Empty: the store no longer holds it (nothing to delete; a change is written as new).
  const auto iri_of = [&](const std::string& name, const KnownChild* record) -> std::string {
    if (!record->iri.empty()) return record->iri;
    const auto found = with_iris.find(name);
    return found != with_iris.end() && found->second.kind == record->kind ? found->second.iri : std::string();
  };
  for (const auto& [name, record] : changes.deleted) {
    ++stats_.deleted;
    const std::string iri = iri_of(name, record);
    if (iri.empty()) continue;
    QUARRY_TRY(batcher_.Add(DeleteResource(iri, ChildUri(item.uri, name), record->kind)));
  }
  for (const DiskChild* child : changes.created) {
    ++stats_.created;
    const bool is_file = child->kind == EntryKind::kFile;
    FileFacts facts{NewResourceIri(), ChildUri(item.uri, child->name), child->name, child->kind,
                    child->size, child->mtime_us, child->created_us, "", item.iri};
    if (is_file) facts.mime_type = mime_.Detect(child->name, item.path);
    QUARRY_TRY(batcher_.Add(InsertResource(facts), is_file ? std::optional(facts.uri) : std::nullopt));
    if (!is_file) Queue(item, *child, facts.iri, true);
  }
  for (const auto& [child, record] : changes.changed) {
    ++stats_.changed;
    const bool is_file = child->kind == EntryKind::kFile;
    std::string iri = iri_of(child->name, record);
    const bool is_gone = iri.empty();
    FileFacts facts{is_gone ? NewResourceIri() : std::move(iri), ChildUri(item.uri, child->name), child->name,
                    child->kind, child->size, child->mtime_us, child->created_us, "", item.iri};
    if (is_file) facts.mime_type = mime_.Detect(child->name, item.path);
    QUARRY_TRY(batcher_.Add(is_gone ? InsertResource(facts) : UpdateResource(facts),
                            is_file ? std::optional(facts.uri) : std::nullopt));
  }
  for (const auto& [child, record] : changes.descend) Queue(item, *child, record->iri, false);
  return Ok();
}

void Crawler::Queue(Item& parent, const DiskChild& child, std::string iri, bool is_new) {
  if (!parent.recursive) return;
  if (!is_new) to_ask_.push_back(iri);
  Item item{nullptr, JoinPath(parent.path, child.name), ChildUri(parent.uri, child.name),
            std::move(iri), is_new, true, parent.git, false};
  if (open_folders_ < kMaxOpenFolders) {
    auto opened = parent.folder->OpenChild(child.name);
    if (opened) {
      item.folder = std::move(*opened);
      ++open_folders_;
    }
  }
  queue_.push_back(std::move(item));
}

void Crawler::LogOnce(const std::string& path, std::string_view reason) {
  if (!logged_.insert(path).second) return;
  LogWarning(fmt::format("{}: {}", path, reason));
}

}  // namespace quarry::miner
