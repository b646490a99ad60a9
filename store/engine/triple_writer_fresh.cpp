// TripleWriter's bulk path for resources created in the current transaction.
//
// A new resource has no rows anywhere yet, so its class rows can be written whole: the classes
// and single values an update gives it are gathered in memory, and FlushFresh() writes them
// with multi-row INSERTs, up to kRowsPerStatement resources per statement. Superclass tables are
// written before subclass tables, and a subclass row carries its domain-index mirror values
// itself (the triggers then find nothing to copy; they still keep every other writer in sync).
// Checks (domain, cardinality) happen when a value arrives, exactly as on the row-by-row path.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <iterator>

#include <sqlite3.h>

#include "store/engine/triple_writer.h"

namespace quarry::engine {
namespace {

using ontology::Class;
using ontology::Property;
using schema::Quote;

constexpr size_t kRowsPerStatement = 200;

// Rows of the next multi-row INSERT when `remaining` are left: kRowsPerStatement, then powers of
// two down to 1. A statement per remainder size compiled a new one at almost every flush: 326
// prepares of ~0.74 M instructions each, 9.4 % of a 1,600-contact batch save's instructions
// (callgrind), once the buffer was flushed every few thousand resources. Remainders below 16
// kept their exact size until s24, but quarry-extract's flushes of a batch of 64 files are
// mostly that small, per class: a new compile for most of them (issue 5). Now at most 9 sizes
// per statement shape; a remainder takes one statement per bit set, each a cache hit.
size_t RowsPerStatement(size_t remaining) {
  return remaining >= kRowsPerStatement ? kRowsPerStatement : std::bit_floor(remaining);
}
// Resources buffered before a flush. Large: an update applies all its rdf:type triples before
// the other triples, so the buffer must hold a whole update's new resources to pay off.
constexpr size_t kFreshLimit = 65536;
// Resources the buffer may keep from one update operation to the next (FlushFreshIfLarge):
// still a few hundred rows per class table and statement, at ~600 bytes per resource.
constexpr size_t kFreshKeptAfterOperation = 4096;
// Single values a new resource usually gets (a music piece: 7); more just grow the vector.
constexpr size_t kValuesPerResource = 8;

}  // namespace

Result<Statement*> TripleWriter::BulkStatement(const std::string& key,
                                               const std::function<std::string()>& sql) {
  if (const auto found = bulk_index_.find(key); found != bulk_index_.end()) {
    bulk_statements_.splice(bulk_statements_.begin(), bulk_statements_, found->second);
    return &found->second->statement;
  }
  QUARRY_ASSIGN_OR_RETURN(Statement statement, db_.Prepare(sql(), /*persistent=*/true));
  const auto bytes = static_cast<size_t>(
      std::max(0, sqlite3_stmt_status(statement.handle(), SQLITE_STMTSTATUS_MEMUSED, 0)));
  // The least recently used go (never the new one, however large).
  while (!bulk_statements_.empty() && (bulk_statements_.size() >= max_bulk_statements_ ||
                                       bulk_statement_bytes_ + bytes > max_bulk_statement_bytes_)) {
    bulk_statement_bytes_ -= bulk_statements_.back().bytes;
    bulk_index_.erase(bulk_statements_.back().key);
    bulk_statements_.pop_back();
  }
  bulk_statements_.push_front(BulkEntry{key, std::move(statement), bytes});
  bulk_statement_bytes_ += bytes;
  bulk_index_.emplace(bulk_statements_.front().key, bulk_statements_.begin());
  return &bulk_statements_.front().statement;
}

const TripleWriter::FreshValue* TripleWriter::FreshResource::Find(const Property* property) const {
  for (const FreshValue& held : values) {
    if (held.property == property) return &held;
  }
  return nullptr;
}

Result<const TripleWriter::ClassChain*> TripleWriter::ChainOf(const Class& cls) {
  if (const auto found = chains_.find(&cls); found != chains_.end()) return &found->second;
  ClassChain chain;
  for (const std::string& super_iri : ontology_.SuperClassesOf(cls.iri)) {
    const Class* super = ontology_.FindClass(super_iri);
    if (!super) continue;
    QUARRY_ASSIGN_OR_RETURN(const int64_t class_id, OntologyId(super->iri));
    chain.emplace_back(super, class_id);
  }
  return &chains_.emplace(&cls, std::move(chain)).first->second;
}

Result<void> TripleWriter::AddTypeFresh(int64_t graph, int64_t subject, const Class& cls) {
  auto found = fresh_.find(subject);
  const bool is_new = found == fresh_.end();
  if (is_new) {
    if (fresh_.size() >= kFreshLimit) QUARRY_TRY(FlushFresh());
    fresh_order_.push_back(subject);
    found = fresh_.try_emplace(subject).first;
  }
  FreshResource& fresh = found->second;
  QUARRY_ASSIGN_OR_RETURN(const ClassChain* chain, ChainOf(cls));
  if (is_new) {  // one allocation each: growing from empty took several per resource
    fresh.classes.reserve(chain->size());
    fresh.type_rows.reserve(chain->size());
    fresh.values.reserve(kValuesPerResource);
  }
  // Only a resource flushed earlier in this transaction can have class rows already (typed_
  // does not list buffered resources: ~30 (resource, class) keys per contact, and growing that
  // table was ~6 % of a contacts batch save).
  const bool flushed_before = marks_.Has(subject, kFlushed);
  if (flushed_before) ForgetFtsSignature(subject);  // its types change after the signature
  for (const auto& [super, class_id] : *chain) {
    const std::pair<int64_t, int64_t> type_row{class_id, graph};
    if (std::find(fresh.type_rows.begin(), fresh.type_rows.end(), type_row) == fresh.type_rows.end()) {
      fresh.type_rows.push_back(type_row);
    }
    if (std::find(fresh.classes.begin(), fresh.classes.end(), super) != fresh.classes.end()) continue;
    if (flushed_before) {
      QUARRY_ASSIGN_OR_RETURN(const bool has_row, HasClassRow(subject, *super));
      if (has_row) continue;
    }
    fresh.classes.push_back(super);
  }
  return Ok();
}

Result<void> TripleWriter::FlushFreshIfLarge() {
  if (fresh_.size() < kFreshKeptAfterOperation) return Ok();
  return FlushFresh();
}

Result<bool> TripleWriter::InsertFresh(FreshResource& fresh, int64_t graph, int64_t subject,
                                       const Property& predicate, SqlValue& value,
                                       const Object& object, bool replace) {
  const Class* domain = DomainOf(predicate);
  if (!domain || std::find(fresh.classes.begin(), fresh.classes.end(), domain) == fresh.classes.end()) {
    return false;  // the row exists already (or not at all): the row-by-row path decides
  }
  QUARRY_TRY(TouchFulltext(subject, predicate, /*buffered=*/true));
  const auto held = std::find_if(fresh.values.begin(), fresh.values.end(),
                                 [&](const FreshValue& v) { return v.property == &predicate; });
  if (held == fresh.values.end()) {
    fresh.values.push_back({&predicate, std::move(value), graph});
    return true;
  }
  if (held->value == value) return true;
  if (!replace) return SecondValueError(predicate, held->value, object);
  held->value = std::move(value);
  held->graph = graph;
  return true;
}

Result<void> TripleWriter::FlushFresh() {
  if (fresh_.empty()) return Ok();
  // Each class with its resources in creation order, in one pass: one hash look-up per
  // resource (not one per class and resource), and a linear search over the few classes.
  std::vector<std::pair<const Class*, std::vector<FreshEntry>>> by_class;
  for (const int64_t subject : fresh_order_) {
    const FreshResource& fresh = fresh_.at(subject);
    for (const Class* cls : fresh.classes) {
      auto group = std::find_if(by_class.begin(), by_class.end(),
                                [&](const auto& candidate) { return candidate.first == cls; });
      if (group == by_class.end()) group = by_class.insert(by_class.end(), {cls, {}});
      group->second.push_back({subject, &fresh});
    }
  }
  // Superclasses first: a subclass row's insert trigger reads the mirrored value from them.
  std::vector<std::pair<size_t, size_t>> depth_order;  // (depth, index in by_class)
  for (size_t i = 0; i < by_class.size(); ++i) {
    depth_order.emplace_back(ontology_.SuperClassesOf(by_class[i].first->iri).size(), i);
  }
  std::stable_sort(depth_order.begin(), depth_order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [depth, index] : depth_order) {
    QUARRY_TRY(InsertClassRows(*by_class[index].first, by_class[index].second));
  }
  QUARRY_TRY(InsertTypeRows());
  KeepFulltextRows();  // moves the single values out: the rows are written
  QUARRY_TRY(InsertMultiRows());
  RecordFtsSignatures();
  for (const int64_t subject : fresh_order_) marks_.Add(subject, kFlushed);
  fresh_.clear();
  fresh_order_.clear();
  return Ok();
}

void TripleWriter::RecordFtsSignatures() {
  if (fts_delete_sql_.empty()) return;
  std::vector<int64_t> class_ids;
  std::string signature;
  for (const int64_t subject : fresh_order_) {
    // A resource flushed before has type rows this buffer does not list.
    if (!marks_.Has(subject, kFulltextTouched) || marks_.Has(subject, kFlushed)) continue;
    class_ids.clear();
    for (const auto& [class_id, graph] : fresh_.at(subject).type_rows) class_ids.push_back(class_id);
    std::sort(class_ids.begin(), class_ids.end());
    class_ids.erase(std::unique(class_ids.begin(), class_ids.end()), class_ids.end());
    signature.clear();
    for (const int64_t class_id : class_ids) fmt::format_to(std::back_inserter(signature), "{},", class_id);
    fts_signature_of_[subject] = &*fts_signatures_.insert(signature).first;
  }
}

void TripleWriter::HoldFreshMulti(const Property& predicate, int64_t subject, SqlValue value,
                                  int64_t graph) {
  auto held = std::find_if(fresh_multi_.begin(), fresh_multi_.end(),
                           [&](const auto& candidate) { return candidate.first == &predicate; });
  if (held == fresh_multi_.end()) held = fresh_multi_.insert(fresh_multi_.end(), {&predicate, {}});
  held->second.push_back({subject, std::move(value), graph});
}

Result<void> TripleWriter::InsertMultiRows() {
  // "INSERT OR IGNORE … VALUES (…), (…)": a value stated twice (in one statement or against a
  // row written before) is ignored by the table's key (ID, value, graph), as one row at a time.
  const auto multi = std::move(fresh_multi_);
  fresh_multi_.clear();
  for (const auto& [property, rows] : multi) {
    for (size_t start = 0, count = 0; start < rows.size(); start += count) {
      count = RowsPerStatement(rows.size() - start);
      QUARRY_ASSIGN_OR_RETURN(Statement * insert,
                              BulkStatement(fmt::format("multi|{}|{}", property->name, count), [&] {
        const schema::PropertyStorage storage = names_.StorageOf(*property);
        std::string sql = fmt::format("INSERT OR IGNORE INTO {} (ID, {}, {}) VALUES ",
                                      Quote(storage.table), Quote(storage.column),
                                      Quote(storage.graph_column));
        for (size_t i = 0; i < count; ++i) sql += i ? ", (?, ?, ?)" : "(?, ?, ?)";
        return sql;
      }));
      int index = 1;
      for (size_t i = start; i < start + count; ++i) {
        QUARRY_TRY(insert->Bind(index++, rows[i].subject));
        QUARRY_TRY(BindValue(*insert, index++, rows[i].value));
        QUARRY_TRY(insert->Bind(index++, rows[i].graph));
      }
      auto stepped = insert->Step();
      insert->Reset();
      QUARRY_TRY(stepped);
    }
  }
  return Ok();
}

TripleWriter::ClassColumns& TripleWriter::ColumnsOf(const Class& cls) {
  const auto [slot, added] = class_columns_.try_emplace(&cls);
  if (!added) return slot->second;
  slot->second.domain = ontology_.PropertiesOfDomain(cls.iri);
  for (const Property* property : slot->second.domain) {
    if (!property->multi_valued()) slot->second.singles.push_back(property);
  }
  for (const std::string& indexed_iri : cls.domain_indexes) {
    if (const Property* property = ontology_.FindProperty(indexed_iri)) {
      slot->second.mirrors.push_back(property);
    }
  }
  slot->second.single_written.assign(slot->second.singles.size(), false);
  slot->second.mirror_written.assign(slot->second.mirrors.size(), false);
  return slot->second;
}

Result<void> TripleWriter::InsertClassRows(const Class& cls, const std::vector<FreshEntry>& rows) {
  // The columns any of these resources sets; the others stay NULL. One pass over the values:
  // asking each of a class's many properties of every resource cost more than the INSERTs.
  // A resource holds a handful of properties: a sorted vector, not a hash set.
  std::vector<const Property*> used;
  for (const FreshEntry& row : rows) {
    for (const FreshValue& held : row.fresh->values) used.push_back(held.property);
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  const auto is_used = [&used](const Property* property) {
    return std::binary_search(used.begin(), used.end(), property);
  };
  // A column an earlier flush of the class wrote stays in its INSERTs, NULL in rows without a
  // value, as in rows of this flush without one: the columns a flush uses vary with the
  // resources it holds (the file types of an extractor batch), and each new set compiled new
  // statements (issue 5). The set settles at the columns the class's writers use.
  ClassColumns& candidates = ColumnsOf(cls);
  const auto keep_used = [&](const std::vector<const Property*>& properties,
                             std::vector<bool>& written) {
    std::vector<const Property*> kept;
    for (size_t i = 0; i < properties.size(); ++i) {
      if (!written[i] && !is_used(properties[i])) continue;
      written[i] = true;
      kept.push_back(properties[i]);
    }
    return kept;
  };
  const std::vector<const Property*> columns =
      keep_used(candidates.singles, candidates.single_written);
  // Domain-index mirrors of values this flush writes to a superclass row (superclasses go
  // first): set here, so the mirror's class_insert trigger finds them equal and skips its UPDATE
  // (a NULL where an older superclass row holds the value, it copies, as on the row path).
  const std::vector<const Property*> mirrors =
      keep_used(candidates.mirrors, candidates.mirror_written);
  const size_t per_row = 1 + 2 * columns.size() + mirrors.size();
  for (size_t start = 0, count = 0; start < rows.size(); start += count) {
    count = RowsPerStatement(rows.size() - start);
    std::string key = fmt::format("{}|{}", cls.name, count);
    for (const Property* property : columns) (key += '|') += property->name;
    for (const Property* property : mirrors) (key += "|m:") += property->name;
    // The SQL only when the statement is not prepared yet (the key names it).
    QUARRY_ASSIGN_OR_RETURN(Statement * insert, BulkStatement(key, [&] {
      std::string column_list = "ID";
      for (const Property* property : columns) {
        const schema::PropertyStorage& storage = SqlOf(*property).storage;
        column_list += fmt::format(", {}, {}", Quote(storage.column), Quote(storage.graph_column));
      }
      for (const Property* property : mirrors) {
        column_list += ", " + Quote(names_.MirrorColumn(*property));
      }
      std::string row_placeholders = "(?";
      for (size_t i = 1; i < per_row; ++i) row_placeholders += ", ?";
      row_placeholders += ")";
      std::string sql = fmt::format("INSERT INTO {} ({}) VALUES ", Quote(names_.ClassTable(cls)), column_list);
      for (size_t i = 0; i < count; ++i) sql += (i ? ", " : "") + row_placeholders;
      return sql;
    }));
    int index = 1;
    for (size_t i = start; i < start + count; ++i) {
      const FreshResource& fresh = *rows[i].fresh;
      QUARRY_TRY(insert->Bind(index++, rows[i].subject));
      for (const Property* property : columns) {
        const FreshValue* found = fresh.Find(property);
        if (!found) {
          QUARRY_TRY(insert->Bind(index++, nullptr));
          QUARRY_TRY(insert->Bind(index++, nullptr));
        } else {
          QUARRY_TRY(BindValue(*insert, index++, found->value));
          QUARRY_TRY(insert->Bind(index++, found->graph));
        }
      }
      for (const Property* property : mirrors) {
        const FreshValue* found = fresh.Find(property);
        if (!found) {
          QUARRY_TRY(insert->Bind(index++, nullptr));
        } else {
          QUARRY_TRY(BindValue(*insert, index++, found->value));
        }
      }
    }
    auto stepped = insert->Step();
    insert->Reset();
    QUARRY_TRY(stepped);
  }
  return Ok();
}

Result<void> TripleWriter::InsertTypeRows() {
  const schema::PropertyStorage types = names_.TypeStorage();
  // Bound straight from the buffer (a copy of ~30 rows per contact into one vector showed).
  std::vector<const FreshResource*> order;
  order.reserve(fresh_order_.size());
  size_t total = 0;
  for (const int64_t subject : fresh_order_) {
    order.push_back(&fresh_.at(subject));
    total += order.back()->type_rows.size();
  }
  size_t resource = 0;  // the next row: order[resource]->type_rows[row]
  size_t row = 0;
  for (size_t start = 0, count = 0; start < total; start += count) {
    count = RowsPerStatement(total - start);
    QUARRY_ASSIGN_OR_RETURN(Statement * insert, BulkStatement(fmt::format("type|{}", count), [&] {
      std::string sql = fmt::format("INSERT OR IGNORE INTO {} (ID, {}, {}) VALUES ", Quote(types.table),
                                    Quote(types.column), Quote(types.graph_column));
      for (size_t i = 0; i < count; ++i) sql += i ? ", (?, ?, ?)" : "(?, ?, ?)";
      return sql;
    }));
    int index = 1;
    for (size_t i = 0; i < count; ++i) {
      while (row == order[resource]->type_rows.size()) {
        ++resource;
        row = 0;
      }
      const auto& [class_id, graph] = order[resource]->type_rows[row++];
      QUARRY_TRY(insert->Bind(index++, fresh_order_[resource]));
      QUARRY_TRY(insert->Bind(index++, class_id));
      QUARRY_TRY(insert->Bind(index++, graph));
    }
    auto stepped = insert->Step();
    insert->Reset();
    QUARRY_TRY(stepped);
  }
  return Ok();
}

}  // namespace quarry::engine
