// sqlite3.h declares the pre-update hook API only with this macro; the system library is built
// with it (Attach() checks at run time). It must come before any include of sqlite3.h.
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>
#include <sys/mman.h>

#include "store/engine/change_capture.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <new>
#include <unordered_set>

#include "store/engine/sql_value_io.h"
#include "store/schema/names.h"

namespace quarry::engine {
namespace {

using ontology::Property;
using schema::Quote;

// Subjects per look-up of their types: keeps the JSON parameter small.
constexpr size_t kSubjectsPerQuery = 20000;

// A cell's value as comparable bytes: the storage class first, so 1 and "1" differ.
std::string ValueBytes(sqlite3_value* value) {
  const int type = sqlite3_value_type(value);
  std::string bytes(1, static_cast<char>('0' + type));
  switch (type) {
    case SQLITE_INTEGER:
      bytes += std::to_string(sqlite3_value_int64(value));
      break;
    case SQLITE_FLOAT: {
      const double number = sqlite3_value_double(value);
      bytes.append(reinterpret_cast<const char*>(&number), sizeof number);
      break;
    }
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
      const void* data = type == SQLITE_TEXT ? static_cast<const void*>(sqlite3_value_text(value))
                                             : sqlite3_value_blob(value);
      if (data) bytes.append(static_cast<const char*>(data), sqlite3_value_bytes(value));
      break;
    }
    default:
      break;
  }
  return bytes;
}

// ValueBytes() hashed, without building the bytes.
uint64_t ValueHash(sqlite3_value* value) {
  const int type = sqlite3_value_type(value);
  uint64_t hash = 0;
  switch (type) {
    case SQLITE_INTEGER:
      hash = std::hash<int64_t>()(sqlite3_value_int64(value));
      break;
    case SQLITE_FLOAT: {
      const double number = sqlite3_value_double(value);
      hash = std::hash<std::string_view>()(
          std::string_view(reinterpret_cast<const char*>(&number), sizeof number));
      break;
    }
    case SQLITE_TEXT:
    case SQLITE_BLOB: {
      const void* data = type == SQLITE_TEXT ? static_cast<const void*>(sqlite3_value_text(value))
                                             : sqlite3_value_blob(value);
      if (data) {
        hash = std::hash<std::string_view>()(std::string_view(
            static_cast<const char*>(data), static_cast<size_t>(sqlite3_value_bytes(value))));
      }
      break;
    }
    default:
      break;
  }
  return hash * 1000003u ^ static_cast<uint64_t>(type);
}

bool IsNull(sqlite3_value* value) { return !value || sqlite3_value_type(value) == SQLITE_NULL; }

bool SameCell(sqlite3_value* old_value, sqlite3_value* new_value) {
  if (IsNull(old_value) || IsNull(new_value)) return IsNull(old_value) == IsNull(new_value);
  return ValueBytes(old_value) == ValueBytes(new_value);
}

std::string JsonArray(std::vector<int64_t>::const_iterator first,
                      std::vector<int64_t>::const_iterator last) {
  std::string json = "[";
  for (auto it = first; it != last; ++it) json += (it == first ? "" : ",") + std::to_string(*it);
  return json + "]";
}

// The netting key of a triple: (subject, property slot, graph index, object ID or literal
// hash); literals compare by value, resources by ID.
struct TripleKey {
  int64_t subject = 0;
  uint64_t value = 0;
  uint32_t property = 0;
  uint32_t graph = 0;
  bool operator==(const TripleKey&) const = default;
};
size_t HashOf(const TripleKey& key) noexcept {
  size_t hash = std::hash<int64_t>()(key.subject);
  hash = hash * 1000003u ^ (static_cast<uint64_t>(key.property) << 32 | key.graph);
  return hash * 1000003u ^ key.value;
}
struct TripleKeyHash {
  size_t operator()(const TripleKey& key) const noexcept { return HashOf(key); }
};

}  // namespace

ChangeCapture::ChangeCapture(Database& db, const ontology::Ontology& ontology)
    : db_(db), ontology_(ontology) {}

ChangeCapture::~ChangeCapture() { sqlite3_preupdate_hook(db_.handle(), nullptr, nullptr); }

Result<std::unique_ptr<ChangeCapture>> ChangeCapture::Attach(Database& db,
                                                             const ontology::Ontology& ontology) {
  if (!sqlite3_compileoption_used("ENABLE_PREUPDATE_HOOK")) {
    return Error(Errc::kUnsupported,
                 "change capture needs SQLite built with SQLITE_ENABLE_PREUPDATE_HOOK; this one "
                 "is not, so quarry-store cannot emit GraphUpdated");
  }
  std::unique_ptr<ChangeCapture> capture(new ChangeCapture(db, ontology));
  auto loaded = capture->Load();
  if (!loaded) return std::move(loaded).error().WithContext("change capture");
  sqlite3_preupdate_hook(db.handle(), &ChangeCapture::OnPreUpdate, capture.get());
  return capture;
}

Result<void> ChangeCapture::Load() {
  QUARRY_ASSIGN_OR_RETURN(Statement id_of, db_.Prepare("SELECT ID FROM Resource WHERE Uri = ?1"));
  auto resource_id = [&](const std::string& iri) -> Result<int64_t> {
    id_of.Reset();
    QUARRY_TRY(id_of.Bind(1, std::string_view(iri)));
    QUARRY_ASSIGN_OR_RETURN(const bool found, id_of.Step());
    if (!found) return Error(Errc::kInternal, fmt::format("ontology resource <{}> has no ID", iri));
    return id_of.ColumnInt64(0);
  };
  const schema::Names names(ontology_);
  std::map<std::string, std::vector<Column>> columns_by_table;
  if (ontology_.properties().size() >= kSlotMask) {
    return Error(Errc::kInternal, fmt::format("the ontology has {} properties; change capture "
                                              "numbers at most {}",
                                              ontology_.properties().size(), kSlotMask));
  }
  const Property* rdf_type = ontology_.FindProperty(ontology::iri::kRdfType);
  for (const Property& property : ontology_.properties()) {
    QUARRY_ASSIGN_OR_RETURN(const int64_t id, resource_id(property.iri));
    const auto slot = static_cast<uint32_t>(properties_.size());
    if (&property == rdf_type) rdf_type_slot_ = slot;
    properties_.push_back({&property, id});
    columns_by_table[names.StorageOf(property).table].push_back({0, 0, &property, id, slot});
  }
  for (auto& [table, columns] : columns_by_table) QUARRY_TRY(LoadTable(table, std::move(columns)));
  std::string notify_ids;
  for (const ontology::Class& cls : ontology_.classes()) {
    if (!cls.notify) continue;
    QUARRY_ASSIGN_OR_RETURN(const int64_t id, resource_id(cls.iri));
    notify_classes_.emplace(id, &cls);
    notify_ids += (notify_ids.empty() ? "" : ", ") + std::to_string(id);
  }
  const schema::PropertyStorage types = names.TypeStorage();
  // `+{0}`: one index range per ID, the class test on its few rows; with the type column
  // usable SQLite probed (ID, class) for each of the notifying classes (32 in the Nepomuk
  // ontology) per ID: 3.5% of the store's statement time while indexing.
  notify_types_sql_ = fmt::format(
      "SELECT ID, {0} FROM {1} WHERE ID IN (SELECT value FROM json_each(?1)) AND +{0} IN ({2})",
      Quote(types.column), Quote(types.table), notify_ids);
  return Ok();
}

// Column positions by name: the hook reads cells by index.
Result<void> ChangeCapture::LoadTable(const std::string& table, std::vector<Column> columns) {
  QUARRY_ASSIGN_OR_RETURN(Statement info,
                          db_.Prepare(fmt::format("PRAGMA main.table_info({})", Quote(table))));
  std::unordered_map<std::string, int> index_of;
  for (;;) {
    QUARRY_ASSIGN_OR_RETURN(const bool has_row, info.Step());
    if (!has_row) break;
    index_of.emplace(std::string(info.ColumnText(1)), static_cast<int>(info.ColumnInt64(0)));
  }
  auto find = [&](const std::string& name) -> Result<int> {
    const auto found = index_of.find(name);
    if (found == index_of.end()) {
      return Error(Errc::kInternal, fmt::format("table {} has no column {}", table, name));
    }
    return found->second;
  };
  const schema::Names names(ontology_);
  TableLayout layout;
  QUARRY_ASSIGN_OR_RETURN(layout.id_index, find("ID"));
  for (Column& column : columns) {
    const schema::PropertyStorage storage = names.StorageOf(*column.property);
    QUARRY_ASSIGN_OR_RETURN(column.value_index, find(storage.column));
    QUARRY_ASSIGN_OR_RETURN(column.graph_index, find(storage.graph_column));
  }
  layout.columns = std::move(columns);
  tables_.emplace(table, std::move(layout));
  return Ok();
}

void ChangeCapture::OnPreUpdate(void* self, sqlite3* db, int op, const char* schema,
                                const char* table, long long /*old_rowid*/,
                                long long /*new_rowid*/) {
  if (std::strcmp(schema, "main") != 0) return;
  auto* capture = static_cast<ChangeCapture*>(self);
  const auto layout = capture->tables_.find(std::string_view(table));
  if (layout == capture->tables_.end()) return;  // Resource, Graph, full-text shadow tables
  capture->Record(db, op, layout->second);
}

void ChangeCapture::Record(sqlite3* db, int op, const TableLayout& layout) {
  auto cell = [db](bool old_row, int index) {
    sqlite3_value* value = nullptr;
    (old_row ? sqlite3_preupdate_old : sqlite3_preupdate_new)(db, index, &value);
    return value;
  };
  const bool has_old = op != SQLITE_INSERT;
  const bool has_new = op != SQLITE_DELETE;
  const int64_t subject = sqlite3_value_int64(cell(has_old, layout.id_index));
  for (const Column& column : layout.columns) {
    sqlite3_value* old_value = has_old ? cell(true, column.value_index) : nullptr;
    sqlite3_value* new_value = has_new ? cell(false, column.value_index) : nullptr;
    if (has_old && has_new && SameCell(old_value, new_value) &&
        SameCell(cell(true, column.graph_index), cell(false, column.graph_index))) {
      continue;
    }
    if (!IsNull(old_value)) {
      RecordCell(false, subject, column, old_value, cell(true, column.graph_index));
    }
    if (!IsNull(new_value)) {
      RecordCell(true, subject, column, new_value, cell(false, column.graph_index));
    }
  }
}

void ChangeCapture::RecordCell(bool insert, int64_t subject, const Column& column,
                               sqlite3_value* value, sqlite3_value* graph) {
  RowChange change;
  change.subject = subject;
  change.literal = column.property->type != ontology::ValueType::kResource;
  change.value = change.literal ? ValueHash(value) : static_cast<uint64_t>(sqlite3_value_int64(value));
  change.property = column.slot | (insert ? kInsert : 0);
  change.graph = GraphSlot(IsNull(graph) ? 0 : sqlite3_value_int64(graph));
  rows_.push_back(change);
}

uint32_t ChangeCapture::GraphSlot(int64_t graph) {
  if (graph == last_graph_) return last_graph_slot_;
  const auto [found, added] = graph_slots_.try_emplace(graph, static_cast<uint32_t>(graphs_.size()));
  if (added) graphs_.push_back(graph);
  last_graph_ = graph;
  last_graph_slot_ = found->second;
  return found->second;
}

void ChangeCapture::ForgetRows() {
  rows_.clear();
  graphs_.clear();
  graph_slots_.clear();
  last_graph_ = -1;
}

namespace {
std::atomic<size_t> row_chunks_mapped{0};
}  // namespace

size_t ChangeCapture::RowChunksMapped() { return row_chunks_mapped.load(std::memory_order_relaxed); }

namespace {

void PutVarint(uint8_t*& out, uint64_t value) {
  while (value >= 0x80) {
    *out++ = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  *out++ = static_cast<uint8_t>(value);
}

uint64_t GetVarint(const uint8_t*& in) {
  uint64_t value = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t byte = *in++;
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return value;
  }
}

// A signed difference (two's complement, wrapping) as an unsigned varint: small either way.
uint64_t ZigZag(uint64_t difference) {
  return difference << 1 ^ static_cast<uint64_t>(static_cast<int64_t>(difference) >> 63);
}
uint64_t UnZigZag(uint64_t zigzag) { return zigzag >> 1 ^ (0 - (zigzag & 1)); }

}  // namespace

void ChangeCapture::RowBuffer::Unmap::operator()(uint8_t* chunk) const noexcept {
  munmap(chunk, kChunkBytes);
}

void ChangeCapture::RowBuffer::push_back(const RowChange& row) {
  if (chunks_.empty() || kChunkBytes - chunks_.back().used < kMaxRowBytes) {
    Chunk chunk;
    if (spare_) {
      chunk = std::move(spare_);
    } else {
      void* memory =
          mmap(nullptr, kChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (memory == MAP_FAILED) throw std::bad_alloc();
      row_chunks_mapped.fetch_add(1, std::memory_order_relaxed);
      chunk.reset(static_cast<uint8_t*>(memory));
    }
    chunks_.push_back({std::move(chunk), 0, size_});
    last_subject_ = 0;
  }
  ChunkInfo& chunk = chunks_.back();
  uint8_t* const start = chunk.bytes.get() + chunk.used;
  uint8_t* out = start;
  PutVarint(out, static_cast<uint64_t>(row.property & kSlotMask) << 2 |
                     (row.literal ? 2u : 0u) | ((row.property & kInsert) ? 1u : 0u));
  PutVarint(out, row.graph);
  const auto subject = static_cast<uint64_t>(row.subject);
  PutVarint(out, ZigZag(subject - static_cast<uint64_t>(last_subject_)));
  if (row.literal) {
    std::memcpy(out, &row.value, sizeof row.value);
    out += sizeof row.value;
  } else {
    PutVarint(out, ZigZag(row.value - subject));
  }
  chunk.used += static_cast<size_t>(out - start);
  last_subject_ = row.subject;
  ++size_;
  if (!(row.property & kInsert)) ++deletes_;
}

size_t ChangeCapture::RowBuffer::Decode(const uint8_t* bytes, size_t offset, int64_t& subject,
                                        RowChange& row) {
  const uint8_t* in = bytes + offset;
  const uint64_t header = GetVarint(in);
  row.property = static_cast<uint32_t>(header >> 2) | ((header & 1) ? kInsert : 0);
  row.literal = (header & 2) != 0;
  row.graph = static_cast<uint32_t>(GetVarint(in));
  subject = static_cast<int64_t>(static_cast<uint64_t>(subject) + UnZigZag(GetVarint(in)));
  row.subject = subject;
  if (row.literal) {
    std::memcpy(&row.value, in, sizeof row.value);
    in += sizeof row.value;
  } else {
    row.value = static_cast<uint64_t>(subject) + UnZigZag(GetVarint(in));
  }
  return static_cast<size_t>(in - bytes);
}

bool ChangeCapture::RowBuffer::Reader::Next(RowChange& row, size_t& position) {
  while (chunk_ < rows_.chunks_.size() && offset_ == rows_.chunks_[chunk_].used) {
    ++chunk_;
    offset_ = 0;
    subject_ = 0;
  }
  if (chunk_ == rows_.chunks_.size()) return false;
  offset_ = Decode(rows_.chunks_[chunk_].bytes.get(), offset_, subject_, row);
  position = position_++;
  return true;
}

void ChangeCapture::RowBuffer::KeepAsSpare(Chunk& chunk) {
  if (chunk && !spare_) spare_ = std::move(chunk);
  chunk.reset();
}

void ChangeCapture::RowBuffer::resize(size_t smaller) {
  if (smaller >= size_) return;
  // The chunk that keeps rows: the last one starting before `smaller`.
  size_t keep = chunks_.size();
  while (keep > released_ && chunks_[keep - 1].first >= smaller) --keep;
  for (size_t i = keep; i < chunks_.size(); ++i) KeepAsSpare(chunks_[i].bytes);
  chunks_.resize(keep);
  size_ = smaller;
  last_subject_ = 0;
  if (keep == 0 || keep == released_) return;
  // Its rows up to `smaller`: decoded to find where they end and the last subject.
  ChunkInfo& chunk = chunks_[keep - 1];
  size_t offset = 0;
  RowChange row;
  for (size_t position = chunk.first; position < smaller; ++position) {
    offset = Decode(chunk.bytes.get(), offset, last_subject_, row);
  }
  chunk.used = offset;
}

void ChangeCapture::RowBuffer::clear() {
  for (ChunkInfo& chunk : chunks_) KeepAsSpare(chunk.bytes);
  chunks_.clear();
  size_ = 0;
  last_subject_ = 0;
  released_ = 0;
  deletes_ = 0;
}

void ChangeCapture::RowBuffer::TakeSpareFrom(RowBuffer& other) {
  if (!spare_) spare_ = std::move(other.spare_);
}

void ChangeCapture::RowBuffer::ReleaseBefore(size_t position) {
  // Chunk i's rows end where chunk i + 1's begin (the last chunk's at size_).
  for (; released_ < chunks_.size(); ++released_) {
    const size_t end = released_ + 1 < chunks_.size() ? chunks_[released_ + 1].first : size_;
    if (end > position) break;
    chunks_[released_].bytes.reset();
  }
}

void ChangeCapture::RollbackTo(size_t mark) {
  if (mark < rows_.size()) rows_.resize(mark);
}

void ChangeCapture::SubjectClasses::Add(int64_t subject, const std::vector<uint32_t>& classes) {
  const auto [found, added] = set_index.try_emplace(classes, static_cast<uint32_t>(sets.size()));
  if (added) sets.push_back(classes);
  subjects.push_back(subject);
  set_of.push_back(found->second);
}

const std::vector<uint32_t>& ChangeCapture::SubjectClasses::Of(int64_t subject) const {
  static const std::vector<uint32_t> kNone;
  const auto found = std::lower_bound(subjects.begin(), subjects.end(), subject);
  if (found == subjects.end() || *found != subject) return kNone;
  return sets[set_of[static_cast<size_t>(found - subjects.begin())]];
}

Result<ChangeCapture::SubjectClasses> ChangeCapture::NotifyClassesOf(
    const std::vector<int64_t>& subjects,
    const std::vector<std::pair<int64_t, uint32_t>>& removed) {
  SubjectClasses table;
  if (notify_classes_.empty()) return table;
  QUARRY_ASSIGN_OR_RETURN(Statement * select, Cached(db_, notify_types_sql_));
  auto next_removed = removed.begin();
  std::vector<std::pair<int64_t, uint32_t>> found;  // one look-up's (subject, class)
  std::vector<uint32_t> classes;
  for (size_t start = 0; start < subjects.size(); start += kSubjectsPerQuery) {
    const size_t end = std::min(subjects.size(), start + kSubjectsPerQuery);
    const std::string ids = JsonArray(subjects.begin() + static_cast<std::ptrdiff_t>(start),
                                      subjects.begin() + static_cast<std::ptrdiff_t>(end));
    QUARRY_TRY(select->Bind(1, std::string_view(ids)));
    found.clear();
    for (;;) {
      QUARRY_ASSIGN_OR_RETURN(const bool has_row, select->Step());
      if (!has_row) break;
      const auto cls = notify_classes_.find(select->ColumnInt64(1));
      if (cls == notify_classes_.end()) continue;  // the query names only notify classes
      found.emplace_back(select->ColumnInt64(0), ClassPosition(cls->second));
    }
    select->Reset();
    // Each removed type's subject has a row that counts, so it is among `subjects`.
    for (; next_removed != removed.end() && next_removed->first <= subjects[end - 1]; ++next_removed) {
      found.push_back(*next_removed);
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    for (size_t i = 0; i < found.size();) {
      classes.clear();
      const int64_t subject = found[i].first;
      for (; i < found.size() && found[i].first == subject; ++i) classes.push_back(found[i].second);
      table.Add(subject, classes);
    }
  }
  table.subjects.shrink_to_fit();
  table.set_of.shrink_to_fit();
  return table;
}

// Per triple, the first and last row change decide: present before the transaction (its
// first change removed it) and present after (its last change added it). A triple added and
// removed again never happened; one removed and added again is reported both ways, so
// "apply deletes, then inserts" ends in the committed state. The verdict goes into the flags
// of the triple's first row (kBefore, kAfter); its later rows keep neither.
//
// A triple changes more than once in a transaction only if one of its changes is a delete: an
// insert of a triple that is there already changes no row (INSERT OR IGNORE, an unchanged cell),
// so it is not recorded. Only rows whose key a delete shares (by hash: a collision just takes
// the slow path) go through the netting map; the others are single inserts. A batch that only
// adds (a contacts batch save: ~80 rows per contact, one transaction) never builds the map,
// whose million nodes were ~10% of quarry-store's time on such a save (issue 7).
ChangeCapture::Verdicts ChangeCapture::Net(const RowBuffer& rows) {
  auto key_of = [](const RowChange& row) {
    return TripleKey{row.subject, row.value, row.property & kSlotMask, row.graph};
  };
  if (!rows.may_have_deletes()) return Verdicts::AllAfter();
  Verdicts verdicts(rows.size());
  RowChange row;
  size_t position = 0;
  std::unordered_set<size_t> deleted_hashes;
  for (RowBuffer::Reader reader(rows); reader.Next(row, position);) {
    if (!(row.property & kInsert)) deleted_hashes.insert(HashOf(key_of(row)));
  }
  std::unordered_map<TripleKey, size_t, TripleKeyHash> first_of;
  for (RowBuffer::Reader reader(rows); reader.Next(row, position);) {
    const bool insert = (row.property & kInsert) != 0;
    if (insert && (deleted_hashes.empty() || !deleted_hashes.count(HashOf(key_of(row))))) {
      verdicts.Set(position, kAfter);
      continue;
    }
    const auto [first, added] = first_of.try_emplace(key_of(row), position);
    if (added) {
      verdicts.Set(position, insert ? kAfter : kBefore);
    } else {
      const uint8_t verdict = verdicts[first->second];
      verdicts.Set(first->second, insert ? verdict | kAfter : verdict & ~kAfter);
    }
  }
  return verdicts;
}

Result<CommittedChanges> ChangeCapture::Collect() {
  RowBuffer rows = std::move(rows_);
  const std::vector<int64_t> graphs = std::move(graphs_);
  ForgetRows();
  CommittedChanges changes;
  const Verdicts verdicts = Net(rows);
  RowChange row;
  size_t position = 0;
  // The subjects of the rows that count, each once. A subject's rows come in runs, but the
  // bulk path's multi-row INSERTs interleave hundreds of subjects: repeats are caught by a
  // small table of recent subjects, and the vector is sorted and made unique whenever it is
  // full, before it may grow (a vector of every run's subject was ~800,000 IDs, 6 MiB and more
  // while doubling, at the top of a batch save's peak; issue 7).
  std::vector<int64_t> subjects;
  // The subjects pushed last, direct-mapped by ID: most repeats go no further.
  std::vector<int64_t> recent(1024, 0);
  auto sort_unique = [&subjects] {
    std::sort(subjects.begin(), subjects.end());
    subjects.erase(std::unique(subjects.begin(), subjects.end()), subjects.end());
  };
  // A type this transaction removed still counts: the triples of a deleted resource are
  // reported under the class it had.
  std::vector<std::pair<int64_t, uint32_t>> removed;
  for (RowBuffer::Reader reader(rows); reader.Next(row, position);) {
    const uint8_t verdict = verdicts[position];
    if (!verdict) continue;
    if ((verdict & kBefore) && (row.property & kSlotMask) == rdf_type_slot_) {
      const auto cls = notify_classes_.find(static_cast<int64_t>(row.value));
      if (cls != notify_classes_.end()) removed.emplace_back(row.subject, ClassPosition(cls->second));
    }
    int64_t& seen = recent[static_cast<uint64_t>(row.subject) % recent.size()];
    if (seen == row.subject && !subjects.empty()) continue;
    seen = row.subject;
    if (subjects.size() == subjects.capacity() && subjects.size() >= 1024) {
      sort_unique();
      // Still more than half full: grow now, or the next few pushes would sort it all again.
      if (2 * subjects.size() > subjects.capacity()) subjects.reserve(2 * subjects.capacity());
    }
    subjects.push_back(row.subject);
  }
  sort_unique();
  std::sort(removed.begin(), removed.end());
  QUARRY_ASSIGN_OR_RETURN(const SubjectClasses classes_of, NotifyClassesOf(subjects, removed));
  subjects = {};
  removed = {};
  // A subject's notify class positions, through a direct-mapped cache of recent answers: the
  // bulk path interleaves the rows of a few hundred subjects with consecutive IDs.
  constexpr size_t kCacheSlots = 1024;
  std::vector<std::pair<int64_t, const std::vector<uint32_t>*>> cache(kCacheSlots,
                                                                      {0, nullptr});
  auto classes_for = [&](int64_t subject) -> const std::vector<uint32_t>& {
    auto& [cached, classes] = cache[static_cast<uint64_t>(subject) % kCacheSlots];
    if (!classes || cached != subject) {
      classes = &classes_of.Of(subject);
      cached = subject;
    }
    return *classes;
  };
  // Each set's size first: a batch save's million quads grown by doubling held the old and
  // the new array at once and up to twice the quads.
  std::map<size_t, ClassChangeSet> by_class;  // by position in the ontology
  std::map<size_t, std::pair<size_t, size_t>> sizes;  // (deletes, inserts) by position
  for (RowBuffer::Reader reader(rows); reader.Next(row, position);) {
    const uint8_t verdict = verdicts[position];
    if (!verdict) continue;
    for (const uint32_t class_position : classes_for(row.subject)) {
      auto& [deletes, inserts] = sizes[class_position];
      deletes += (verdict & kBefore) ? 1 : 0;
      inserts += (verdict & kAfter) ? 1 : 0;
    }
  }
  for (const auto& [class_position, size] : sizes) {
    ClassChangeSet& set = by_class[class_position];
    set.class_iri = ontology_.classes()[class_position].iri;
    set.deletes.reserve(size.first);
    set.inserts.reserve(size.second);
  }
  sizes.clear();
  for (RowBuffer::Reader reader(rows); reader.Next(row, position);) {
    rows.ReleaseBefore(position);  // the sets grow as the rows go
    const uint8_t verdict = verdicts[position];
    if (!verdict) continue;
    const PropertyRef& property = properties_[row.property & kSlotMask];
    const ChangedQuad quad(graphs[row.graph], row.subject, property.id,
                           row.literal ? 0 : static_cast<int64_t>(row.value));
    for (const uint32_t class_position : classes_for(row.subject)) {
      ClassChangeSet& set = by_class[class_position];
      if (verdict & kBefore) set.deletes.push_back(quad);
      if (verdict & kAfter) set.inserts.push_back(quad);
    }
    if (property.property->writeback) changes.writeback[row.subject].push_back(property.id);
  }
  rows.clear();
  rows_.TakeSpareFrom(rows);  // the next transaction writes its rows into it
  for (auto& [class_position, set] : by_class) changes.classes.push_back(std::move(set));
  for (auto& [subject, properties] : changes.writeback) {
    std::sort(properties.begin(), properties.end());
    properties.erase(std::unique(properties.begin(), properties.end()), properties.end());
  }
  return changes;
}

}  // namespace quarry::engine
