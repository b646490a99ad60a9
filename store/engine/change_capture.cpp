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
  change.value = column.property->type == ontology::ValueType::kResource
                     ? static_cast<uint64_t>(sqlite3_value_int64(value))
                     : ValueHash(value);
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

void ChangeCapture::RowBuffer::Unmap::operator()(RowChange* chunk) const noexcept {
  munmap(chunk, kChunkBytes);
}

void ChangeCapture::RowBuffer::push_back(const RowChange& row) {
  if (size_ == chunks_.size() * kPerChunk) {
    if (spare_) {
      chunks_.push_back(std::move(spare_));
    } else {
      void* memory =
          mmap(nullptr, kChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (memory == MAP_FAILED) throw std::bad_alloc();
      row_chunks_mapped.fetch_add(1, std::memory_order_relaxed);
      chunks_.emplace_back(static_cast<RowChange*>(memory));
    }
  }
  new (&(*this)[size_]) RowChange(row);
  ++size_;
}

void ChangeCapture::RowBuffer::KeepAsSpare(Chunk& chunk) {
  if (chunk && !spare_) spare_ = std::move(chunk);
  chunk.reset();
}

void ChangeCapture::RowBuffer::resize(size_t smaller) {
  if (smaller >= size_) return;
  size_ = smaller;
  const size_t kept = std::max((size_ + kPerChunk - 1) / kPerChunk, released_);
  for (size_t i = kept; i < chunks_.size(); ++i) KeepAsSpare(chunks_[i]);
  chunks_.resize(kept);
}

void ChangeCapture::RowBuffer::clear() {
  for (Chunk& chunk : chunks_) KeepAsSpare(chunk);
  chunks_.clear();
  size_ = 0;
  released_ = 0;
}

void ChangeCapture::RowBuffer::TakeSpareFrom(RowBuffer& other) {
  if (!spare_) spare_ = std::move(other.spare_);
}

void ChangeCapture::RowBuffer::ReleaseBefore(size_t position) {
  for (; released_ < std::min(position / kPerChunk, chunks_.size()); ++released_) {
    chunks_[released_].reset();
  }
}

void ChangeCapture::RollbackTo(size_t mark) {
  if (mark < rows_.size()) rows_.resize(mark);
}

// Notify classes (IDs) each subject has now, inside the transaction.
Result<std::unordered_map<int64_t, std::vector<int64_t>>> ChangeCapture::NotifyClassesOf(
    const std::vector<int64_t>& subjects) {
  std::unordered_map<int64_t, std::vector<int64_t>> classes;
  if (notify_classes_.empty()) return classes;
  QUARRY_ASSIGN_OR_RETURN(Statement * select, Cached(db_, notify_types_sql_));
  for (size_t start = 0; start < subjects.size(); start += kSubjectsPerQuery) {
    const size_t end = std::min(subjects.size(), start + kSubjectsPerQuery);
    const std::string ids = JsonArray(subjects.begin() + static_cast<std::ptrdiff_t>(start),
                                      subjects.begin() + static_cast<std::ptrdiff_t>(end));
    QUARRY_TRY(select->Bind(1, std::string_view(ids)));
    for (;;) {
      QUARRY_ASSIGN_OR_RETURN(const bool has_row, select->Step());
      if (!has_row) break;
      classes[select->ColumnInt64(0)].push_back(select->ColumnInt64(1));
    }
    select->Reset();
  }
  return classes;
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
void ChangeCapture::Net(RowBuffer& rows) {
  auto key_of = [](const RowChange& row) {
    return TripleKey{row.subject, row.value, row.property & kSlotMask, row.graph};
  };
  std::unordered_set<size_t> deleted_hashes;
  for (size_t position = 0; position < rows.size(); ++position) {
    const RowChange& row = rows[position];
    if (!(row.property & kInsert)) deleted_hashes.insert(HashOf(key_of(row)));
  }
  std::unordered_map<TripleKey, size_t, TripleKeyHash> first_of;
  for (size_t position = 0; position < rows.size(); ++position) {
    RowChange& row = rows[position];
    const bool insert = (row.property & kInsert) != 0;
    if (insert && (deleted_hashes.empty() || !deleted_hashes.count(HashOf(key_of(row))))) {
      row.property |= kAfter;
      continue;
    }
    const auto [first, added] = first_of.try_emplace(key_of(row), position);
    if (added) {
      row.property |= insert ? kAfter : kBefore;
    } else {
      RowChange& first_row = rows[first->second];
      first_row.property = insert ? first_row.property | kAfter : first_row.property & ~kAfter;
    }
  }
}

Result<CommittedChanges> ChangeCapture::Collect() {
  RowBuffer rows = std::move(rows_);
  const std::vector<int64_t> graphs = std::move(graphs_);
  ForgetRows();
  CommittedChanges changes;
  Net(rows);
  auto counts = [](const RowChange& row) { return (row.property & (kBefore | kAfter)) != 0; };
  // A subject's rows come in runs: the vector holds each run's subject, then each once.
  std::vector<int64_t> subjects;
  for (size_t position = 0; position < rows.size(); ++position) {
    const RowChange& row = rows[position];
    if (counts(row) && (subjects.empty() || subjects.back() != row.subject)) {
      subjects.push_back(row.subject);
    }
  }
  std::sort(subjects.begin(), subjects.end());
  subjects.erase(std::unique(subjects.begin(), subjects.end()), subjects.end());
  QUARRY_ASSIGN_OR_RETURN(auto classes_of, NotifyClassesOf(subjects));
  subjects = {};
  // A type this transaction removed still counts: the triples of a deleted resource are
  // reported under the class it had.
  for (size_t position = 0; position < rows.size(); ++position) {
    const RowChange& row = rows[position];
    if (!(row.property & kBefore) || (row.property & kSlotMask) != rdf_type_slot_) continue;
    const auto type = static_cast<int64_t>(row.value);
    if (notify_classes_.count(type)) classes_of[row.subject].push_back(type);
  }
  for (auto& [subject, class_ids] : classes_of) {
    std::sort(class_ids.begin(), class_ids.end());
    class_ids.erase(std::unique(class_ids.begin(), class_ids.end()), class_ids.end());
  }
  // Each set's size first: a batch save's million quads grown by doubling held the old and
  // the new array at once and up to twice the quads.
  std::map<size_t, ClassChangeSet> by_class;  // by position in the ontology
  std::map<size_t, std::pair<size_t, size_t>> sizes;  // (deletes, inserts) by position
  for (size_t position = 0; position < rows.size(); ++position) {
    const RowChange& row = rows[position];
    if (!counts(row)) continue;
    const auto found = classes_of.find(row.subject);
    if (found == classes_of.end()) continue;
    for (const int64_t class_id : found->second) {
      auto& [deletes, inserts] =
          sizes[static_cast<size_t>(notify_classes_.at(class_id) - ontology_.classes().data())];
      deletes += (row.property & kBefore) ? 1 : 0;
      inserts += (row.property & kAfter) ? 1 : 0;
    }
  }
  for (const auto& [position, size] : sizes) {
    by_class[position].deletes.reserve(size.first);
    by_class[position].inserts.reserve(size.second);
  }
  const std::vector<int64_t> no_classes;
  for (size_t position = 0; position < rows.size(); ++position) {
    rows.ReleaseBefore(position);  // the sets grow as the rows go
    const RowChange& row = rows[position];
    if (!counts(row)) continue;
    const PropertyRef& property = properties_[row.property & kSlotMask];
    const ChangedQuad quad{
        graphs[row.graph], row.subject, property.id,
        property.property->type == ontology::ValueType::kResource ? static_cast<int64_t>(row.value)
                                                                  : 0};
    const auto found = classes_of.find(quad.subject);
    const std::vector<int64_t>& class_ids = found == classes_of.end() ? no_classes : found->second;
    for (const int64_t class_id : class_ids) {
      const ontology::Class* cls = notify_classes_.at(class_id);
      ClassChangeSet& set =
          by_class[static_cast<size_t>(cls - ontology_.classes().data())];
      set.class_iri = cls->iri;
      if (row.property & kBefore) set.deletes.push_back(quad);
      if (row.property & kAfter) set.inserts.push_back(quad);
    }
    if (property.property->writeback) changes.writeback[quad.subject].push_back(quad.predicate);
  }
  rows.clear();
  rows_.TakeSpareFrom(rows);  // the next transaction writes its rows into it
  for (auto& [position, set] : by_class) changes.classes.push_back(std::move(set));
  for (auto& [subject, properties] : changes.writeback) {
    std::sort(properties.begin(), properties.end());
    properties.erase(std::unique(properties.begin(), properties.end()), properties.end());
  }
  return changes;
}

}  // namespace quarry::engine
