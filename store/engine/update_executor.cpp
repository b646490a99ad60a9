#include "store/engine/update_executor.h"

#include <fmt/format.h>

#include <functional>
#include <set>
#include <string_view>
#include <unordered_set>

#include "store/engine/query_executor.h"
#include "store/engine/update_executor_text.h"
#include "store/sparql/translate/translator.h"

namespace quarry::engine {
namespace {

using sparql::Term;
using sparql::TriplePattern;

// Solution row lookup by variable name.
struct Columns {
  std::map<std::string, size_t> index;
};

}  // namespace

// update_executor_text.h: shared with the streaming path (update_executor_stream.cpp).
std::string TermText(const Term& term) {
  if (const auto* iri = std::get_if<sparql::Iri>(&term)) return "<" + iri->iri + ">";
  if (const auto* variable = std::get_if<sparql::Variable>(&term)) return "?" + variable->name;
  if (const auto* blank = std::get_if<sparql::BlankNode>(&term)) return "_:" + blank->label;
  if (const auto* parameter = std::get_if<sparql::Parameter>(&term)) return "~" + parameter->name;
  const auto& literal = std::get<sparql::Literal>(term);
  return schema::RdfTerm::Literal(literal.lexical, literal.datatype_iri, literal.lang).ToString();
}

std::string TripleText(const TriplePattern& triple) {
  const Term* predicate = std::get_if<Term>(&triple.predicate);
  return fmt::format("{} {} {}", TermText(triple.subject),
                     predicate ? TermText(*predicate) : std::string("<path>"),
                     TermText(triple.object));
}

bool IsType(const TriplePattern& triple) {
  const Term* predicate = std::get_if<Term>(&triple.predicate);
  const auto* iri = predicate ? std::get_if<sparql::Iri>(predicate) : nullptr;
  return iri && iri->iri == sparql::kRdfType;
}

namespace {

void CollectVariables(const Term& term, std::set<std::string>& names) {
  if (const auto* variable = std::get_if<sparql::Variable>(&term)) names.insert(variable->name);
}

void CollectVariables(const sparql::Quads& quads, std::set<std::string>& names) {
  for (const sparql::QuadsBlock& block : quads) {
    if (block.graph) CollectVariables(*block.graph, names);
    for (const TriplePattern& triple : block.triples) {
      CollectVariables(triple.subject, names);
      CollectVariables(triple.object, names);
      if (const Term* predicate = std::get_if<Term>(&triple.predicate)) CollectVariables(*predicate, names);
    }
  }
}

StoredValue StoredOf(const schema::SqlValue& value, const sparql::OutputColumn& column) {
  if (column.kind == sparql::ColumnKind::kLiteral) return {value, column.type};
  using ontology::ValueType;
  if (std::holds_alternative<int64_t>(value)) return {value, ValueType::kInteger};
  if (std::holds_alternative<double>(value)) return {value, ValueType::kDouble};
  if (std::holds_alternative<schema::Blob>(value)) return {value, ValueType::kLangString};
  return {value, ValueType::kString};
}

}  // namespace

struct UpdateExecutor::Row {
  const Solutions* solutions = nullptr;
  const std::vector<schema::SqlValue>* values = nullptr;
  std::map<std::string, size_t> index;

  // nullopt: the variable is unbound in this solution.
  std::optional<Object> Value(const std::string& name) const {
    const auto found = index.find(name);
    if (found == index.end()) return std::nullopt;
    const schema::SqlValue& value = (*values)[found->second];
    if (std::holds_alternative<std::monostate>(value)) return std::nullopt;
    const sparql::OutputColumn& column = solutions->columns[found->second];
    if (column.kind == sparql::ColumnKind::kResourceId) {
      // Open mode: a term the store does not hold is 'I' + IRI (schema/quad_table.h).
      if (const auto* text = std::get_if<std::string>(&value); text && text->starts_with('I')) {
        return Object(RdfTerm::Iri(text->substr(1)));
      }
      return Object(ResourceRef{std::get<int64_t>(value)});
    }
    return Object(StoredOf(value, column));
  }
};

Result<void> UpdateExecutor::Execute(const sparql::Update& update) {
  for (size_t i = 0; i < update.operations.size(); ++i) {
    const auto& operation = update.operations[i];
    Result<void> done = Ok();
    if (const auto* insert = std::get_if<sparql::InsertData>(&operation)) {
      done = InsertData(*insert);
    } else if (const auto* remove = std::get_if<sparql::DeleteData>(&operation)) {
      done = DeleteData(*remove);
    } else if (const auto* modify = std::get_if<sparql::Modify>(&operation)) {
      done = Modify(*modify);
    } else if (const auto* delete_where = std::get_if<sparql::DeleteWhere>(&operation)) {
      done = DeleteWhere(*delete_where);
    } else if (const auto* clear = std::get_if<sparql::Clear>(&operation)) {
      done = ClearOrDrop(clear->target, clear->silent, false);
    } else if (const auto* drop = std::get_if<sparql::Drop>(&operation)) {
      done = ClearOrDrop(drop->target, drop->silent, true);
    } else if (const auto* create = std::get_if<sparql::Create>(&operation)) {
      done = Create(*create);
    } else if (const auto* load = std::get_if<sparql::Load>(&operation)) {
      done = LoadFile(*load);
    } else if (const auto* add = std::get_if<sparql::Add>(&operation)) {
      done = Transfer(add->from, add->to, add->silent, TransferMode::kAdd);
    } else if (const auto* copy = std::get_if<sparql::Copy>(&operation)) {
      done = Transfer(copy->from, copy->to, copy->silent, TransferMode::kCopy);
    } else {
      const auto& move = std::get<sparql::Move>(operation);
      done = Transfer(move.from, move.to, move.silent, TransferMode::kMove);
    }
    if (done) done = writer_.FlushFreshIfLarge();
    if (!done) {
      if (update.operations.size() == 1) return done;
      return std::move(done).error().WithContext(fmt::format("operation {}", i + 1));
    }
  }
  return Ok();
}

Result<const ontology::Property*> UpdateExecutor::PropertyOf(const TriplePattern& triple) {
  const Term* predicate = std::get_if<Term>(&triple.predicate);
  const auto* iri = predicate ? std::get_if<sparql::Iri>(predicate) : nullptr;
  if (!iri) {
    return Error(Errc::kUnsupported,
                 "a variable, parameter or path as predicate of an update template is not supported yet");
  }
  const ontology::Property* property = ontology_.FindProperty(iri->iri);
  if (!property) return Error(Errc::kConstraint, fmt::format("unknown property <{}>", iri->iri));
  return property;
}

// One template triple for one solution (row is null for DATA operations).
Result<void> UpdateExecutor::ApplyTriple(const TriplePattern& triple, const Row* row, bool insert,
                                         bool replace, std::optional<int64_t> graph,
                                         BlankScope& blanks) {
  // Open mode (quad_writer.h): unknown and variable predicates go to the quad table.
  OpenPredicate predicate{};
  if (quads_) {
    const Term* term = std::get_if<Term>(&triple.predicate);
    const auto* variable = term ? std::get_if<sparql::Variable>(term) : nullptr;
    QUARRY_ASSIGN_OR_RETURN(predicate, ResolveOpenPredicate(
        triple, variable && row ? row->Value(variable->name) : std::nullopt));
    if (predicate.unbound) return Ok();
  } else {
    QUARRY_ASSIGN_OR_RETURN(predicate.property, PropertyOf(triple));
  }
  const ontology::Property* property = predicate.property;
  // Subject. An IRI gets an ID when inserting; deleting, an IRI the store lacks matches nothing.
  const auto subject_id = [&](std::string_view iri) -> Result<std::optional<int64_t>> {
    if (!insert) return writer_.FindId(iri);
    QUARRY_ASSIGN_OR_RETURN(const int64_t id, writer_.IriId(iri));
    return std::optional<int64_t>(id);
  };
  int64_t subject = 0;
  if (const auto* variable = std::get_if<sparql::Variable>(&triple.subject)) {
    const std::optional<Object> value = row ? row->Value(variable->name) : std::nullopt;
    if (!value) return Ok();  // unbound in this solution: the triple is skipped
    const auto* ref = std::get_if<ResourceRef>(&*value);
    const auto* term = std::get_if<RdfTerm>(&*value);
    if (term && term->kind == RdfTerm::Kind::kIri) {  // an IRI the store did not hold
      QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> id, subject_id(term->value));
      if (!id) return Ok();
      subject = *id;
    } else if (!ref) {
      return Ok();  // a literal cannot be a subject
    } else {
      subject = ref->id;
    }
  } else if (const auto* iri = std::get_if<sparql::Iri>(&triple.subject)) {
    QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> id, subject_id(iri->iri));
    if (!id) return Ok();
    subject = *id;
  } else if (const auto* blank = std::get_if<sparql::BlankNode>(&triple.subject)) {
    if (!insert) return Ok();
    QUARRY_ASSIGN_OR_RETURN(subject, writer_.IdOf(RdfTerm::Blank(blank->label), blanks));
  } else {
    return Error(Errc::kConstraint, "a literal or parameter cannot be a subject");
  }
  // Object.
  Object object;
  if (const auto* variable = std::get_if<sparql::Variable>(&triple.object)) {
    std::optional<Object> value = row ? row->Value(variable->name) : std::nullopt;
    if (!value) return Ok();
    object = std::move(*value);
  } else if (const auto* iri = std::get_if<sparql::Iri>(&triple.object)) {
    object = RdfTerm::Iri(iri->iri);
  } else if (const auto* blank = std::get_if<sparql::BlankNode>(&triple.object)) {
    object = RdfTerm::Blank(blank->label);
  } else if (const auto* literal = std::get_if<sparql::Literal>(&triple.object)) {
    object = RdfTerm::Literal(literal->lexical,
                              literal->datatype_iri == sparql::kRdfLangString ? "" : literal->datatype_iri,
                              literal->lang);
  } else {
    return Error(Errc::kUnsupported, "parameters in update templates are not supported yet");
  }
  if (quads_) {
    QUARRY_ASSIGN_OR_RETURN(const bool routed, quads_->Routes(property, object));
    if (routed) return ApplyQuad(predicate, subject, object, insert, graph, blanks);
  }
  if (insert) return writer_.Insert(graph.value_or(kDefaultGraph), subject, *property, object, replace, blanks);
  return writer_.Delete(graph, subject, *property, object);
}

Result<void> UpdateExecutor::ApplyTemplate(const sparql::Quads& quads, const Row* row, bool insert,
                                           bool replace,
                                           const std::optional<std::string>& with_graph) {
  BlankScope blanks;  // fresh blank nodes per solution
  // Types first (both passes walk the same blocks), so properties may precede their type.
  for (const bool types_pass : {true, false}) {
    for (const sparql::QuadsBlock& block : quads) {
      std::optional<int64_t> graph;
      const std::optional<std::string> graph_iri =
          block.graph && std::holds_alternative<sparql::Iri>(*block.graph)
              ? std::optional<std::string>(std::get<sparql::Iri>(*block.graph).iri)
              : with_graph;
      if (block.graph && std::holds_alternative<sparql::Variable>(*block.graph)) {
        const std::optional<Object> value =
            row ? row->Value(std::get<sparql::Variable>(*block.graph).name) : std::nullopt;
        const auto* ref = value ? std::get_if<ResourceRef>(&*value) : nullptr;
        if (!ref) continue;  // unbound graph: the block is skipped for this solution
        graph = ref->id;
      } else if (graph_iri) {
        if (insert) {
          QUARRY_ASSIGN_OR_RETURN(graph, writer_.GraphIdOf(*graph_iri));
        } else {
          QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> id, writer_.FindId(*graph_iri));
          if (!id) continue;
          graph = *id;
        }
      }
      const Term* run_subject = nullptr;  // buffered single values belong to this subject
      for (const TriplePattern& triple : block.triples) {
        if (IsType(triple) != types_pass) continue;
        if (run_subject && !(*run_subject == triple.subject)) {
          auto flushed = writer_.FlushPending();
          if (!flushed) return std::move(flushed).error().WithContext("subject " + TermText(*run_subject));
        }
        run_subject = &triple.subject;
        auto applied = ApplyTriple(triple, row, insert, replace, graph, blanks);
        if (!applied) return std::move(applied).error().WithContext("triple " + TripleText(triple));
      }
      if (run_subject) {
        auto flushed = writer_.FlushPending();
        if (!flushed) return std::move(flushed).error().WithContext("subject " + TermText(*run_subject));
      }
    }
  }
  return Ok();
}

Result<void> UpdateExecutor::InsertData(const sparql::InsertData& operation) {
  return ApplyTemplate(operation.quads, nullptr, true, operation.or_replace, std::nullopt);
}

Result<void> UpdateExecutor::DeleteData(const sparql::DeleteData& operation) {
  return ApplyTemplate(operation.quads, nullptr, false, false, std::nullopt);
}

Result<void> UpdateExecutor::Modify(const sparql::Modify& operation) {
  // `WHERE {}` (or no WHERE): exactly one solution, binding nothing, whatever the dataset, so
  // the templates apply once as DATA would (a variable of theirs is unbound: its triple is
  // skipped). Nothing is read, so nothing needs flushing or translating: the miner's and the
  // extractor's INSERT OR REPLACE { ... } WHERE {} per file cost no SQL query.
  if (operation.where.elements.empty()) {
    if (operation.delete_quads) {
      QUARRY_TRY(ApplyTemplate(*operation.delete_quads, nullptr, false, false, operation.with_iri));
    }
    if (operation.insert_quads) {
      QUARRY_TRY(ApplyTemplate(*operation.insert_quads, nullptr, true, operation.or_replace,
                               operation.with_iri));
    }
    return Ok();
  }
  std::set<std::string> names;
  if (operation.delete_quads) CollectVariables(*operation.delete_quads, names);
  if (operation.insert_quads) CollectVariables(*operation.insert_quads, names);
  const std::vector<std::string> variables(names.begin(), names.end());
  QUARRY_ASSIGN_OR_RETURN(
      const sparql::SqlQuery query,
      sparql::TranslateSolutions(operation.where, variables, ontology_, operation.with_iri,
                                 quads_ != nullptr, operation.using_clauses));
  // Earlier operations of the request are visible to WHERE. The bulk buffer of new resources
  // is written only when WHERE or a template may touch one of them (FlushFresh per operation
  // would write the extractor's batch a file at a time: its DELETE ... WHERE per file).
  QUARRY_ASSIGN_OR_RETURN(const bool touches_buffer, MayTouchBuffered(operation));
  QUARRY_TRY(touches_buffer ? writer_.Flush() : writer_.FlushPending());
  auto solutions = ReadSolutions(db_, query);
  if (!solutions) return std::move(solutions).error().WithContext("WHERE");
  Row row;
  row.solutions = &*solutions;
  for (size_t i = 0; i < variables.size(); ++i) row.index.emplace(variables[i], i);
  if (operation.delete_quads) {
    for (const auto& values : solutions->rows) {
      row.values = &values;
      QUARRY_TRY(ApplyTemplate(*operation.delete_quads, &row, false, false, operation.with_iri));
    }
  }
  if (operation.insert_quads) {
    for (const auto& values : solutions->rows) {
      row.values = &values;
      QUARRY_TRY(ApplyTemplate(*operation.insert_quads, &row, true, operation.or_replace,
                               operation.with_iri));
    }
  }
  return Ok();
}

Result<bool> UpdateExecutor::MayTouchBuffered(const sparql::Modify& operation) {
  // Only when WHERE is triples (and FILTER [NOT] EXISTS of triples) whose subjects are IRIs
  // not in the buffer and whose predicates are IRIs: then the solutions come from rows of
  // those subjects (written, or in FlushPending's UPDATEs). The DELETE template's triples must
  // be of such subjects too, and delete no type (that may delete the resource, and references
  // to it held in the buffer); the INSERT template must be ground (it then writes as INSERT
  // DATA does, through the buffer). Anything else (variable subjects, paths, other FILTERs,
  // OPTIONAL, GRAPH, WITH, USING, open mode) flushes everything, as before.
  if (quads_ || operation.with_iri || !operation.using_clauses.empty()) return true;
  std::unordered_set<std::string_view> checked;
  const auto buffered_subject = [&](const TriplePattern& triple) -> Result<bool> {
    const auto* subject = std::get_if<sparql::Iri>(&triple.subject);
    const Term* predicate = std::get_if<Term>(&triple.predicate);
    if (!subject || !predicate || !std::holds_alternative<sparql::Iri>(*predicate)) return true;
    if (!checked.insert(subject->iri).second) return false;
    QUARRY_ASSIGN_OR_RETURN(const std::optional<int64_t> id, writer_.FindId(subject->iri));
    return id && writer_.Buffered(*id);
  };
  std::function<Result<bool>(const sparql::GroupGraphPattern&)> pattern_touches =
      [&](const sparql::GroupGraphPattern& pattern) -> Result<bool> {
    for (const sparql::PatternElement& element : pattern.elements) {
      if (const auto* filter = std::get_if<sparql::Filter>(&element.node)) {
        const auto* exists = std::get_if<sparql::Exists>(&filter->expr.node);
        if (!exists || !exists->pattern) return true;
        QUARRY_ASSIGN_OR_RETURN(const bool touches, pattern_touches(*exists->pattern));
        if (touches) return true;
        continue;
      }
      const auto* block = std::get_if<sparql::TriplesBlock>(&element.node);
      if (!block) return true;
      for (const TriplePattern& triple : block->triples) {
        QUARRY_ASSIGN_OR_RETURN(const bool buffered, buffered_subject(triple));
        if (buffered) return true;
      }
    }
    return false;
  };
  QUARRY_ASSIGN_OR_RETURN(const bool where_touches, pattern_touches(operation.where));
  if (where_touches) return true;
  if (operation.delete_quads) {
    for (const sparql::QuadsBlock& block : *operation.delete_quads) {
      if (block.graph) return true;
      for (const TriplePattern& triple : block.triples) {
        if (IsType(triple)) return true;
        QUARRY_ASSIGN_OR_RETURN(const bool buffered, buffered_subject(triple));
        if (buffered) return true;
      }
    }
  }
  if (operation.insert_quads) {
    std::set<std::string> variables;
    CollectVariables(*operation.insert_quads, variables);
    if (!variables.empty()) return true;
    for (const sparql::QuadsBlock& block : *operation.insert_quads) {
      for (const TriplePattern& triple : block.triples) {
        if (!std::holds_alternative<Term>(triple.predicate)) return true;  // a path
      }
    }
  }
  return false;
}

Result<void> UpdateExecutor::DeleteWhere(const sparql::DeleteWhere& operation) {
  if (!quads_) {
    if (const std::optional<std::string> variable = VariablePredicateOf(operation.quads)) {
      return DeleteWhereEachProperty(operation, *variable);
    }
  }
  sparql::Modify modify;
  modify.where = DeleteWherePattern(operation.quads);
  modify.delete_quads = operation.quads;
  return Modify(modify);
}

Result<void> UpdateExecutor::DeleteSolutions(const sparql::Quads& quads,
                                             const std::vector<std::string>& variables,
                                             const Solutions& solutions) {
  Row row;
  row.solutions = &solutions;
  for (size_t i = 0; i < variables.size(); ++i) row.index.emplace(variables[i], i);
  for (const auto& values : solutions.rows) {
    row.values = &values;
    QUARRY_TRY(ApplyTemplate(quads, &row, false, false, std::nullopt));
  }
  return Ok();
}

}  // namespace quarry::engine
