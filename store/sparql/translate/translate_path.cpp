// Property paths (SPARQL 1.1 §9, §18.4): every path becomes a derived table of (s, o) pairs, plus
// the graph g under GRAPH ?g. Links read a property's table, ^ swaps the columns, / joins, |
// is UNION ALL, and * / + are recursive CTEs whose UNION keeps each pair once, so cycles end
// and no pair repeats (ArbitraryLengthPath is distinct). A constant IRI at one end of a * or +
// seeds the walk there instead of closing the whole property.
#include <fmt/format.h>

#include <algorithm>

#include "store/schema/quad_table.h"
#include "store/sparql/translate/translator_impl.h"

namespace quarry::sparql::translate {
namespace {

using ontology::ValueType;
using schema::Quote;

bool HasGraph(const GraphContext& graph) { return graph.mode == GraphContext::Mode::kVariable; }

// Resource IDs and open mode's term IDs share one space (positive IDs are resources).
bool IsId(Kind kind) { return kind == Kind::kResource || kind == Kind::kTerm; }

std::string Columns(const GraphContext& graph, std::string_view s, std::string_view o,
                    std::string_view g) {
  return HasGraph(graph) ? fmt::format("{} AS s, {} AS o, {} AS g", s, o, g)
                         : fmt::format("{} AS s, {} AS o", s, o);
}

PathTable Empty(const GraphContext& graph, const PathTable& kinds) {
  PathTable table = kinds;
  table.sql = fmt::format("SELECT {} WHERE 0", Columns(graph, "NULL", "NULL", "NULL"));
  return table;
}

SqlExpr SubjectOf(const PathTable& table, std::string sql) {
  return {std::move(sql), table.subject_kind, table.subject_type};
}
SqlExpr ObjectOf(const PathTable& table, std::string sql) {
  return {std::move(sql), table.object_kind, table.object_type};
}

PathTable Inverse(const PathTable& table, const GraphContext& graph) {
  return {fmt::format("SELECT {} FROM ({}) AS a", Columns(graph, "a.o", "a.s", "a.g"), table.sql),
          table.object_kind, table.subject_kind, table.object_type, table.subject_type};
}

PathTable Sequence(const PathTable& left, const PathTable& right, const GraphContext& graph) {
  std::string on = Equal(ObjectOf(left, "x.o"), SubjectOf(right, "y.s"));
  if (HasGraph(graph)) on += " AND x.g = y.g";
  return {fmt::format("SELECT {} FROM ({}) AS x JOIN ({}) AS y ON {}",
                      Columns(graph, "x.s", "y.o", "x.g"), left.sql, right.sql, on),
          left.subject_kind, right.object_kind, left.subject_type, right.object_type};
}

// Bag union of alternatives; ends of different kinds share the dynamic encoding.
PathTable UnionOf(const std::vector<PathTable>& parts, const GraphContext& graph) {
  std::vector<SqlExpr> subjects, objects;
  for (const PathTable& part : parts) {
    subjects.push_back(SubjectOf(part, "s"));
    objects.push_back(ObjectOf(part, "o"));
  }
  const SqlExpr subject = CommonKind(subjects), object = CommonKind(objects);
  PathTable table{"", subject.kind, object.kind, subject.type, object.type};
  if (parts.empty()) return Empty(graph, table);
  std::vector<std::string> selects;
  for (const PathTable& part : parts) {
    selects.push_back(fmt::format("SELECT {} FROM ({}) AS a",
                                  Columns(graph, Convert(SubjectOf(part, "a.s"), subject),
                                          Convert(ObjectOf(part, "a.o"), object), "a.g"),
                                  part.sql));
  }
  table.sql = UnionAll(std::move(selects));
  return table;
}

// The walk of a closure over the edge table `e`: further CTEs (`c`) and the SELECT of the pairs
// one or more steps apart, starting at `seed` (forwards or backwards) when there is one. Without
// `recurse` one step only: `?`, or `+` over values that cannot be subjects again.
struct Walk {
  std::string ctes;  // ", c(...) AS (...)" or empty
  std::string body;
};

Walk WalkSql(const PathTable& edges, const GraphContext& graph, const std::string& e,
             const std::string& c, const std::string& seed, bool forward, bool recurse) {
  const std::string g = HasGraph(graph) ? ", g" : "";
  const std::string same_graph = HasGraph(graph) ? fmt::format(" AND {0}.g = {1}.g", e, c) : "";
  if (!recurse) {
    const std::string where = seed.empty() ? "" : fmt::format(" WHERE {} = {}", forward ? "s" : "o", seed);
    return {"", fmt::format("SELECT s, o{} FROM {}{}", g, e, where)};
  }
  if (seed.empty()) {
    return {fmt::format(", {1}(s, o{2}) AS (SELECT s, o{2} FROM {0} UNION SELECT {1}.s, {0}.o{3} "
                        "FROM {1} JOIN {0} ON {4}{5})",
                        e, c, g, HasGraph(graph) ? ", " + c + ".g" : "",
                        Equal(SubjectOf(edges, e + ".s"), ObjectOf(edges, c + ".o")), same_graph),
            fmt::format("SELECT s, o{} FROM {}", g, c)};
  }
  const std::string from = forward ? "s" : "o", to = forward ? "o" : "s";
  return {fmt::format(", {1}(n{2}) AS (SELECT {3}{2} FROM {0} WHERE {4} = {5} UNION "
                      "SELECT {0}.{3}{6} FROM {1} JOIN {0} ON {0}.{4} = {1}.n{7})",
                      e, c, g, to, from, seed, HasGraph(graph) ? ", " + e + ".g" : "", same_graph),
          forward ? fmt::format("SELECT {} AS s, n AS o{} FROM {}", seed, g, c)
                  : fmt::format("SELECT n AS s, {} AS o{} FROM {}", seed, g, c)};
}

}  // namespace

std::string Translator::GraphFilter(const std::string& graph_column, const GraphContext& graph) {
  const bool is_default = graph.mode == GraphContext::Mode::kAny;
  if (is_default ? !dataset_.restricts_default : !dataset_.restricts_named) return "1";
  if (is_default && dataset_.default_is_graph0) return fmt::format("{} = 0", graph_column);
  const std::vector<std::string>& graphs = is_default ? dataset_.default_graphs : dataset_.named_graphs;
  if (graphs.empty()) return "0";
  std::string ids;
  for (const std::string& iri : graphs) ids += (ids.empty() ? "" : ", ") + IriId(iri);
  return fmt::format("{} IN ({})", graph_column, ids);
}

std::string Translator::EdgeGraph(const std::string& graph_column, const GraphContext& graph) {
  std::string condition = GraphFilter(graph_column, graph);
  if (graph.mode == GraphContext::Mode::kVariable) {
    condition += fmt::format(" AND {} > 0", graph_column);
  } else if (const auto* iri = std::get_if<Iri>(&graph.graph); iri && graph.mode == GraphContext::Mode::kIri) {
    condition += fmt::format(" AND {} = {}", graph_column, IriId(iri->iri));
  } else if (graph.mode == GraphContext::Mode::kIri) {
    condition += fmt::format(" AND {} = 0", graph_column);
  }
  return condition;
}

Result<PathTable> Translator::LinkSql(const std::string& iri, const GraphContext& graph) {
  schema::PropertyStorage storage;
  PathTable table;
  // Open mode: every predicate but rdf:type lives in the quad table, objects as term IDs;
  // rdf:type also has quads (classes the ontology lacks) beside the type table.
  const std::string quads =
      open_mode_ ? fmt::format("SELECT {} FROM {} WHERE Predicate = {} AND {}",
                               Columns(graph, "Subject", "Object", "Graph"), schema::kQuadTable,
                               IriId(iri), EdgeGraph("Graph", graph))
                 : std::string();
  if (open_mode_ && iri != kRdfType) {
    table.object_kind = Kind::kTerm;
    table.sql = quads;
    return table;
  }
  if (iri == kRdfType) {
    storage = names_.TypeStorage();
  } else {
    const ontology::Property* property = ontology_.FindProperty(iri);
    if (!property) return Error(Errc::kConstraint, fmt::format("unknown property <{}> in a property path", iri));
    storage = names_.StorageOf(*property);
    table.object_kind = property->type == ValueType::kResource ? Kind::kResource : Kind::kLiteral;
    table.object_type = property->type;
  }
  const std::string value = Quote(storage.column), graph_column = Quote(storage.graph_column);
  table.sql = fmt::format("SELECT {} FROM {} WHERE {} IS NOT NULL AND {}",
                          Columns(graph, "ID", value, graph_column), Quote(storage.table), value,
                          EdgeGraph(graph_column, graph));
  if (!quads.empty()) {  // rdf:type in open mode: resource IDs are term IDs
    table.sql = UnionAll({table.sql, quads});
    table.object_kind = Kind::kTerm;
  }
  return table;
}

Result<PathTable> Translator::PathSql(const Path& path, const GraphContext& graph, const TriplePattern* ends) {
  switch (path.kind) {
    case PathKind::kLink:
      return LinkSql(path.iri, graph);
    case PathKind::kInverse: {
      QUARRY_ASSIGN_OR_RETURN(const PathTable inner, PathSql(path.children.at(0), graph, nullptr));
      return Inverse(inner, graph);
    }
    case PathKind::kSequence: {
      QUARRY_ASSIGN_OR_RETURN(PathTable table, PathSql(path.children.at(0), graph, nullptr));
      for (size_t i = 1; i < path.children.size(); ++i) {
        QUARRY_ASSIGN_OR_RETURN(const PathTable next, PathSql(path.children[i], graph, nullptr));
        table = Sequence(table, next, graph);
      }
      return table;
    }
    case PathKind::kAlternative: {
      std::vector<PathTable> parts;
      for (const Path& child : path.children) {
        QUARRY_ASSIGN_OR_RETURN(PathTable part, PathSql(child, graph, nullptr));
        parts.push_back(std::move(part));
      }
      return UnionOf(parts, graph);
    }
    case PathKind::kZeroOrMore: return ClosureSql(path.children.at(0), graph, ends, true, true);
    case PathKind::kOneOrMore: return ClosureSql(path.children.at(0), graph, ends, false, true);
    case PathKind::kZeroOrOne: return ClosureSql(path.children.at(0), graph, ends, true, false);
    case PathKind::kNegatedSet: return NegatedSql(path, graph);
  }
  return Error(Errc::kInternal, "unknown property path kind");
}

// Zero-length pairs (n, n) for every node when neither end is a constant: every resource (of
// the graph in scope), or for a path between literals the values at its own ends.
std::string Translator::ZeroLengthSql(const PathTable& edges, const std::string& edge_table,
                                      const GraphContext& graph) {
  if (open_mode_) {
    // Every subject and object of the graph (SPARQL §9.3: the nodes of the active graph), as
    // term IDs: the quads and the type table.
    const schema::PropertyStorage types = names_.TypeStorage();
    const std::string quad_graph = EdgeGraph("Graph", graph);
    const std::string type_graph = EdgeGraph(Quote(types.graph_column), graph);
    const std::string nodes = fmt::format(
        "SELECT Subject AS n, Graph AS g FROM {0} WHERE {1} UNION SELECT Object, Graph FROM {0} "
        "WHERE {1} UNION SELECT ID, {2} FROM {3} WHERE {4} UNION SELECT {5}, {2} FROM {3} WHERE {4}",
        schema::kQuadTable, quad_graph, Quote(types.graph_column), Quote(types.table), type_graph,
        Quote(types.column));
    return fmt::format("SELECT DISTINCT {} FROM ({})", Columns(graph, "n", "n", "g"), nodes);
  }
  if (edges.subject_kind != Kind::kResource) {
    return fmt::format("SELECT {0} FROM {1} UNION SELECT {2} FROM {1}",
                       Columns(graph, "s", "s", "g"), edge_table, Columns(graph, "o", "o", "g"));
  }
  const ontology::Class* resource = ontology_.FindClass(ontology::iri::kRdfsResource);
  if (resource && SeesAllGraphs(graph)) {
    return fmt::format("SELECT {} FROM {}", Columns(graph, "ID", "ID", "0"), Quote(names_.ClassTable(*resource)));
  }
  const schema::PropertyStorage types = names_.TypeStorage();
  const std::string graph_column = Quote(types.graph_column);
  return fmt::format("SELECT DISTINCT {} FROM {} WHERE {}", Columns(graph, "ID", "ID", graph_column),
                     Quote(types.table), EdgeGraph(graph_column, graph));
}

Result<PathTable> Translator::ClosureSql(const Path& step, const GraphContext& graph,
                                         const TriplePattern* ends, bool zero_length, bool repeat) {
  QUARRY_ASSIGN_OR_RETURN(const PathTable edges, PathSql(step, graph, nullptr));
  const bool same_kind = (IsId(edges.subject_kind) && IsId(edges.object_kind)) ||
                         (edges.subject_kind == edges.object_kind &&
                          (edges.subject_kind != Kind::kLiteral || edges.subject_type == edges.object_type));
  if (zero_length && !same_kind) {
    return Unsupported("a zero-length path (* or ?) between a resource and a literal");
  }
  // A constant IRI at one end seeds the walk.
  std::string seed;
  const Iri* seed_iri = nullptr;
  bool forward = true;
  const Iri* subject = ends ? std::get_if<Iri>(&ends->subject) : nullptr;
  const Iri* object = ends ? std::get_if<Iri>(&ends->object) : nullptr;
  if (subject && edges.subject_kind == Kind::kResource) {
    seed_iri = subject;
  } else if (object && IsId(edges.object_kind)) {
    seed_iri = object;
    forward = false;
  }
  if (seed_iri) seed = IriId(seed_iri->iri);
  const std::string e = NewAlias("e");
  const std::string g = HasGraph(graph) ? ", g" : "";
  const Walk walk = WalkSql(edges, graph, e, NewAlias("c"), seed, forward, repeat && same_kind);
  const std::string ctes = fmt::format("{}(s, o{}) AS ({}){}", e, g, edges.sql, walk.ctes);
  const std::string& body = walk.body;
  PathTable table = edges;
  if (!zero_length) {
    table.sql = fmt::format("WITH RECURSIVE {} SELECT DISTINCT s, o{} FROM ({})", ctes, g, body);
    return table;
  }
  std::string zero;
  if (!seed.empty()) {
    // The zero-length step binds the constant itself (§18.4), stored or not: open mode's term
    // IDs carry an IRI the store does not hold (quad_table.h UnstoredIriSql).
    std::string node = seed;
    if (open_mode_) {
      node = schema::UnstoredIriSql(BindValue(seed_iri->iri));
      table.subject_kind = table.object_kind = Kind::kTerm;
    }
    zero = HasGraph(graph) ? fmt::format("SELECT {0} AS s, {0} AS o, ID AS g FROM {1} WHERE {2}", node,
                                         Quote(schema::kGraphTable), GraphFilter("ID", graph))
                           : fmt::format("SELECT {0} AS s, {0} AS o", node);
  } else {
    zero = ZeroLengthSql(edges, e, graph);
    // Open mode: the nodes may be literals too (ZeroLengthSql), and resource IDs are term IDs.
    if (open_mode_) table.subject_kind = table.object_kind = Kind::kTerm;
  }
  table.sql = fmt::format("WITH RECURSIVE {} {} UNION {}", ctes, body, zero);
  return table;
}

// !(p1 | ... | ^q1 | ...): every stored triple whose property is not listed, forwards for the
// plain members and backwards for the ^ members (§9.3).
Result<PathTable> Translator::NegatedSql(const Path& path, const GraphContext& graph) {
  std::vector<std::string> forward, inverse;
  for (const NegatedPathItem& item : path.negated) (item.inverse ? inverse : forward).push_back(item.iri);
  if (open_mode_) return OpenNegatedSql(forward, inverse, graph);
  std::vector<std::string> links{std::string(kRdfType)};
  for (const ontology::Property& property : ontology_.properties()) {
    if (property.iri != kRdfType) links.push_back(property.iri);
  }
  const auto listed = [](const std::vector<std::string>& set, const std::string& iri) {
    return std::find(set.begin(), set.end(), iri) != set.end();
  };
  std::vector<PathTable> parts;
  for (const std::string& iri : links) {
    if (!forward.empty() && !listed(forward, iri)) {
      QUARRY_ASSIGN_OR_RETURN(PathTable part, LinkSql(iri, graph));
      parts.push_back(std::move(part));
    }
    if (!inverse.empty() && !listed(inverse, iri)) {
      QUARRY_ASSIGN_OR_RETURN(const PathTable part, LinkSql(iri, graph));
      parts.push_back(Inverse(part, graph));
    }
  }
  return UnionOf(parts, graph);
}

// Open mode: the quads of every predicate not listed (and rdf:type's type table rows unless it is
// listed), so predicates no ontology names count too.
Result<PathTable> Translator::OpenNegatedSql(const std::vector<std::string>& forward,
                                             const std::vector<std::string>& inverse,
                                             const GraphContext& graph) {
  std::vector<PathTable> parts;
  for (const bool backwards : {false, true}) {
    const std::vector<std::string>& listed = backwards ? inverse : forward;
    if (listed.empty()) continue;
    std::string ids = IriId(std::string(kRdfType));
    for (const std::string& iri : listed) ids += ", " + IriId(iri);
    PathTable quads;
    quads.object_kind = Kind::kTerm;
    quads.sql = fmt::format("SELECT {} FROM {} WHERE Predicate NOT IN ({}) AND {}",
                            Columns(graph, "Subject", "Object", "Graph"), schema::kQuadTable, ids,
                            EdgeGraph("Graph", graph));
    parts.push_back(backwards ? Inverse(quads, graph) : quads);
    if (std::find(listed.begin(), listed.end(), kRdfType) == listed.end()) {
      QUARRY_ASSIGN_OR_RETURN(const PathTable types, LinkSql(std::string(kRdfType), graph));
      parts.push_back(backwards ? Inverse(types, graph) : types);
    }
  }
  return UnionOf(parts, graph);
}

Result<void> Translator::AddPath(Fragment& fragment, const TriplePattern& triple, const GraphContext& graph) {
  QUARRY_ASSIGN_OR_RETURN(const PathTable table, PathSql(std::get<Path>(triple.predicate), graph, &triple));
  const std::string alias = NewAlias("p");
  if (!fragment.from.empty()) fragment.from += ", ";
  fragment.from += fmt::format("({}) AS {}", table.sql, alias);
  const auto bind = [&](const Term& term, const std::string& column, Kind kind, ValueType type) {
    if (const auto* iri = std::get_if<Iri>(&term); iri && kind == Kind::kTerm) {
      // Term IDs, the unstored form of an IRI included (a zero-length step from it).
      fragment.conditions.push_back(
          fmt::format("{} = {}", column, schema::UnstoredIriSql(BindValue(iri->iri))));
      return Ok();
    }
    if (kind == Kind::kTerm && VariableKey(term).empty()) {
      // A constant against a term ID compares with the term's value (IRI text or literal).
      const SqlExpr value = TermValue(SqlExpr{column, kind, type});
      return BindTerm(fragment, term, value.sql, value.kind, value.type);
    }
    return BindTerm(fragment, term, column, kind, type);
  };
  QUARRY_TRY(bind(triple.subject, alias + ".s", table.subject_kind, table.subject_type));
  QUARRY_TRY(bind(triple.object, alias + ".o", table.object_kind, table.object_type));
  if (!HasGraph(graph)) return Ok();
  return BindTerm(fragment, graph.graph, alias + ".g", Kind::kResource, ValueType::kResource);
}

}  // namespace quarry::sparql::translate
