// Open mode: triple patterns over the quad table (store/schema/quad_table.h, SCHEMA.md "Open
// mode"). A pattern goes there when its predicate is not rdf:type (open mode routes every other
// predicate there, base-ontology ones too: arbitrary RDF breaks their domains and ranges), is a
// variable, or is rdf:type with a class the ontology lacks. Objects bind as kTerm values (term IDs): equal IDs
// are the same RDF term, so joins keep SPARQL's term equality, and a projected kTerm column
// returns each literal with its exact lexical form, datatype and language.
#include <fmt/format.h>

#include "store/schema/quad_table.h"
#include "store/sparql/translate/translator_impl.h"

namespace quarry::sparql::translate {
namespace {

using schema::Quote;

const Iri* PredicateIri(const TriplePattern& triple) {
  const Term* predicate = std::get_if<Term>(&triple.predicate);
  return predicate ? std::get_if<Iri>(predicate) : nullptr;
}

}  // namespace

bool Translator::UsesQuads(const TriplePattern& triple) const {
  if (!open_mode_) return false;
  const Term* predicate = std::get_if<Term>(&triple.predicate);
  if (!predicate) return false;  // a path: translate_path.cpp
  const Iri* iri = PredicateIri(triple);
  if (!iri) return !std::holds_alternative<Parameter>(*predicate);
  if (iri->iri != kRdfType) return true;  // open mode stores every other predicate as quads
  const Iri* cls = std::get_if<Iri>(&triple.object);
  return !cls || !ontology_.FindClass(cls->iri);
}

SqlExpr Translator::TermValue(const SqlExpr& value) {
  if (value.kind != Kind::kTerm) return value;
  if (value.is_aggregate) {  // MIN/MAX/SAMPLE's term ID: no aggregate inside a subquery
    return SqlExpr{fmt::format("quarry_term_value({})", value.sql), Kind::kDynamic,
                   ontology::ValueType::kString, true, value.sql};
  }
  return SqlExpr{schema::TermValueSql(value.sql), Kind::kDynamic, ontology::ValueType::kString,
                 value.is_aggregate, value.sql};
}

std::string TermEqual(const SqlExpr& a, const SqlExpr& b) {
  // Resource IDs and term IDs share one space: positive IDs are the same resources.
  const bool a_id = a.kind == Kind::kTerm || a.kind == Kind::kResource;
  const bool b_id = b.kind == Kind::kTerm || b.kind == Kind::kResource;
  if (a_id && b_id) return fmt::format("{} = {}", a.sql, b.sql);
  const SqlExpr& term = a.kind == Kind::kTerm ? a : b;
  const SqlExpr& other = a.kind == Kind::kTerm ? b : a;
  return fmt::format("{} = {}", schema::TermValueSql(term.sql), other.sql);
}

Result<void> Translator::AddQuadTriple(Fragment& fragment, const TriplePattern& triple,
                                       const GraphContext& graph) {
  if (std::holds_alternative<Literal>(triple.subject)) {
    fragment.conditions.push_back("0");  // a literal subject matches nothing
    return Ok();
  }
  const Iri* predicate_iri = PredicateIri(triple);
  const std::string alias = NewAlias("q");
  std::string source(schema::kQuadTable);
  if (!predicate_iri || predicate_iri->iri == kRdfType) {
    // A variable predicate or an open type: the type table's rows (known classes) count too.
    const schema::PropertyStorage types = names_.TypeStorage();
    source = fmt::format(
        "(SELECT Graph, Subject, Predicate, Object FROM {} UNION ALL "
        "SELECT {}, ID, {}, {} FROM {})",
        schema::kQuadTable, Quote(types.graph_column), IriId(std::string(kRdfType)),
        Quote(types.column), Quote(types.table));
  }
  if (!fragment.from.empty()) fragment.from += ", ";
  fragment.from += fmt::format("{} AS {}", source, alias);
  QUARRY_TRY(BindTerm(fragment, triple.subject, alias + ".Subject", Kind::kResource,
                      ontology::ValueType::kResource));
  QUARRY_TRY(BindTerm(fragment, std::get<Term>(triple.predicate), alias + ".Predicate",
                      Kind::kResource, ontology::ValueType::kResource));
  const std::string object = alias + ".Object";
  if (const auto* literal = std::get_if<Literal>(&triple.object)) {
    const bool tagged = !literal->lang.empty();
    const schema::RdfTerm term = schema::RdfTerm::Literal(
        literal->lexical, tagged ? "" : literal->datatype_iri, literal->lang);
    // Language tags match case-insensitively (RDF 1.1 §3.3): "a"@EN is the term "a"@en.
    fragment.conditions.push_back(fmt::format(
        "{} {} (SELECT ID FROM {} WHERE Lexical = {} AND Datatype = {} AND Lang = {}{})", object,
        tagged ? "IN" : "=", schema::kLiteralTable, BindValue(term.value),
        BindValue(schema::LiteralDatatype(term)), BindValue(term.lang),
        tagged ? " COLLATE NOCASE" : ""));
  } else if (VariableKey(triple.object).empty()) {
    QUARRY_TRY(
        BindTerm(fragment, triple.object, object, Kind::kResource, ontology::ValueType::kResource));
  } else {
    QUARRY_TRY(
        BindTerm(fragment, triple.object, object, Kind::kTerm, ontology::ValueType::kResource));
  }
  return BindGraph(fragment, alias + ".Graph", graph);
}

}  // namespace quarry::sparql::translate
