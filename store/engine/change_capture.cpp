// sqlite3.h declares the pre-update hook API only with this macro; the system library is built
// with it (Attach() checks at run time). It must come before any include of sqlite3.h.
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

#include "store/engine/change_capture.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
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

// The netting key of a triple: literals compare by value, resources by ID.
struct TripleKey {
  ChangedQuad quad;
  uint64_t literal = 0;  // ValueHash()
  bool operator==(const TripleKey&) const = default;
};
size_t HashOf(const ChangedQuad& quad, uint64_t literal) noexcept {
  size_t hash = std::hash<int64_t>()(quad.subject);
  for (const int64_t part : {quad.graph, quad.predicate, quad.object}) {
    hash = hash * 1000003u ^ std::hash<int64_t>()(part);
  }
  return hash * 1000003u ^ literal;
}
struct TripleKeyHash {
  size_t operator()(const TripleKey& key) const noexcept { return HashOf(key.quad, key.literal); }
};

}  // namespace

ChangeCapture::ChangeCapture(Database& db, const ontology::Ontology& ontology)
    : db_(db), ontology_(ontology), rdf_type_(ontology.FindProperty(ontology::iri::kRdfType)) {}

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
  for (const Property& property : ontology_.properties()) {
    QUARRY_ASSIGN_OR_RETURN(const int64_t id, resource_id(property.iri));
    columns_by_table[names.StorageOf(property).table].push_back({0, 0, &property, id});
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
  RowChange change{insert, {}, column.property, 0};
  change.quad.graph = IsNull(graph) ? 0 : sqlite3_value_int64(graph);
  change.quad.subject = subject;
  change.quad.predicate = column.property_id;
  if (column.property->type == ontology::ValueType::kResource) {
    change.quad.object = sqlite3_value_int64(value);
  } else {
    change.literal = ValueHash(value);
  }
  rows_.push_back(change);
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
// "apply deletes, then inserts" ends in the committed state.
//
// A triple changes more than once in a transaction only if one of its changes is a delete: an
// insert of a triple that is there already changes no row (INSERT OR IGNORE, an unchanged cell),
// so it is not recorded. Only rows whose key a delete shares (by hash: a collision just takes
// the slow path) go through the netting map; the others are single inserts. A batch that only
// adds (a contacts batch save: ~80 rows per contact, one transaction) never builds the map,
// whose million nodes were ~10% of quarry-store's time on such a save (issue 7).
std::vector<ChangeCapture::NetChange> ChangeCapture::Net(const std::deque<RowChange>& rows) {
  std::vector<NetChange> nets;
  nets.reserve(rows.size());
  std::unordered_set<size_t> deleted_hashes;
  for (const RowChange& row : rows) {
    if (!row.insert) deleted_hashes.insert(HashOf(row.quad, row.literal));
  }
  std::unordered_map<TripleKey, size_t, TripleKeyHash> index;
  for (const RowChange& row : rows) {
    if (row.insert && (deleted_hashes.empty() || !deleted_hashes.count(HashOf(row.quad, row.literal)))) {
      nets.push_back({&row, false, true});
      continue;
    }
    const auto [slot, added] = index.try_emplace(TripleKey{row.quad, row.literal}, nets.size());
    if (added) {
      nets.push_back({&row, !row.insert, row.insert});
    } else {
      nets[slot->second].after = row.insert;
    }
  }
  std::erase_if(nets, [](const NetChange& net) { return !net.before && !net.after; });
  return nets;
}

Result<CommittedChanges> ChangeCapture::Collect() {
  std::deque<RowChange> rows = std::move(rows_);
  rows_.clear();
  CommittedChanges changes;
  const std::vector<NetChange> nets = Net(rows);
  std::vector<int64_t> subjects;
  std::unordered_set<int64_t> seen;
  for (const NetChange& net : nets) {
    if (seen.insert(net.row->quad.subject).second) subjects.push_back(net.row->quad.subject);
  }
  QUARRY_ASSIGN_OR_RETURN(auto classes_of, NotifyClassesOf(subjects));
  // A type this transaction removed still counts: the triples of a deleted resource are
  // reported under the class it had.
  for (const NetChange& net : nets) {
    if (!net.before || net.row->property != rdf_type_) continue;
    if (notify_classes_.count(net.row->quad.object)) {
      classes_of[net.row->quad.subject].push_back(net.row->quad.object);
    }
  }
  for (auto& [subject, class_ids] : classes_of) {
    std::sort(class_ids.begin(), class_ids.end());
    class_ids.erase(std::unique(class_ids.begin(), class_ids.end()), class_ids.end());
  }
  // Each set's size first: a batch save's million quads grown by doubling held the old and
  // the new array at once and up to twice the quads.
  std::map<size_t, ClassChangeSet> by_class;  // by position in the ontology
  std::map<size_t, std::pair<size_t, size_t>> sizes;  // (deletes, inserts) by position
  for (const NetChange& net : nets) {
    const auto found = classes_of.find(net.row->quad.subject);
    if (found == classes_of.end()) continue;
    for (const int64_t class_id : found->second) {
      auto& [deletes, inserts] =
          sizes[static_cast<size_t>(notify_classes_.at(class_id) - ontology_.classes().data())];
      deletes += net.before ? 1 : 0;
      inserts += net.after ? 1 : 0;
    }
  }
  for (const auto& [position, size] : sizes) {
    by_class[position].deletes.reserve(size.first);
    by_class[position].inserts.reserve(size.second);
  }
  const std::vector<int64_t> no_classes;
  for (const NetChange& net : nets) {
    const ChangedQuad& quad = net.row->quad;
    const auto found = classes_of.find(quad.subject);
    const std::vector<int64_t>& class_ids = found == classes_of.end() ? no_classes : found->second;
    for (const int64_t class_id : class_ids) {
      const ontology::Class* cls = notify_classes_.at(class_id);
      ClassChangeSet& set =
          by_class[static_cast<size_t>(cls - ontology_.classes().data())];
      set.class_iri = cls->iri;
      if (net.before) set.deletes.push_back(quad);
      if (net.after) set.inserts.push_back(quad);
    }
    if (net.row->property->writeback) changes.writeback[quad.subject].push_back(quad.predicate);
  }
  for (auto& [position, set] : by_class) changes.classes.push_back(std::move(set));
  for (auto& [subject, properties] : changes.writeback) {
    std::sort(properties.begin(), properties.end());
    properties.erase(std::unique(properties.begin(), properties.end()), properties.end());
  }
  return changes;
}

}  // namespace quarry::engine
