#include "store/ontology/definitions.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <utility>

#include "store/ontology/prefixes.h"

namespace quarry::ontology {

namespace {

constexpr std::string_view kSubClassOf = "http://www.w3.org/2000/01/rdf-schema#subClassOf";
constexpr std::string_view kSubPropertyOf = "http://www.w3.org/2000/01/rdf-schema#subPropertyOf";
constexpr std::string_view kDomain = "http://www.w3.org/2000/01/rdf-schema#domain";
constexpr std::string_view kRange = "http://www.w3.org/2000/01/rdf-schema#range";
constexpr std::string_view kComment = "http://www.w3.org/2000/01/rdf-schema#comment";
constexpr std::string_view kMaxCardinality =
    "http://tracker.api.gnome.org/ontology/v3/nrl#maxCardinality";
constexpr std::string_view kIndexed = "http://tracker.api.gnome.org/ontology/v3/nrl#indexed";
constexpr std::string_view kFulltextIndexed =
    "http://tracker.api.gnome.org/ontology/v3/nrl#fulltextIndexed";
constexpr std::string_view kWriteback = "http://tracker.api.gnome.org/ontology/v3/nrl#writeback";
constexpr std::string_view kNotify = "http://tracker.api.gnome.org/ontology/v3/nrl#notify";
constexpr std::string_view kDomainIndex =
    "http://tracker.api.gnome.org/ontology/v3/nrl#domainIndex";

constexpr std::string_view kXsdBoolean = "http://www.w3.org/2001/XMLSchema#boolean";

bool IsClassPredicate(std::string_view predicate) {
  return predicate == kSubClassOf || predicate == kNotify || predicate == kDomainIndex;
}

bool IsPropertyPredicate(std::string_view predicate) {
  return predicate == kSubPropertyOf || predicate == kDomain || predicate == kRange ||
         predicate == kMaxCardinality || predicate == kIndexed || predicate == kFulltextIndexed ||
         predicate == kWriteback;
}

void AddOnce(std::vector<std::string>& values, std::string value) {
  if (std::find(values.begin(), values.end(), value) == values.end()) {
    values.push_back(std::move(value));
  }
}

}  // namespace

class DefinitionCollector {
 public:
  Result<Ontology::Draft> Run(const std::vector<TurtleDocument>& documents);

 private:
  enum class Kind { kClass, kProperty };
  struct Definition {
    Kind kind;
    size_t index;  // into draft_.classes or draft_.properties
    SourceLocation location;
  };

  std::string NameOf(std::string_view iri) const { return CompactIri(draft_.prefixes, iri); }
  std::string Describe(const Statement& statement) const;
  Error ErrorAt(const SourceLocation& where, const Statement& statement,
                std::string_view message) const {
    return Error(Errc::kOntology,
                 fmt::format("{}: {}: {}", where.ToString(), Describe(statement), message));
  }

  Result<void> CollectPrefixes(const TurtleDocument& document);
  Result<void> CollectType(const Statement& statement);
  Result<void> ApplyFact(const Statement& statement);
  Result<void> ApplyClassFact(Class& cls, const Statement& statement);
  Result<void> ApplyPropertyFact(Property& property, const Statement& statement);
  Result<void> CheckSingle(const Statement& statement, const std::string& value,
                           std::string_view shown);
  Result<std::string> IriObject(const Statement& statement) const;
  Result<bool> BooleanObject(const Statement& statement) const;
  Result<int> CardinalityObject(const Statement& statement) const;

  Ontology::Draft draft_;
  std::unordered_map<std::string, SourceLocation> prefix_locations_;
  std::unordered_map<std::string, Definition> definitions_;
  struct StatedValue {
    std::string value;
    std::string shown;  // as error messages print it
    SourceLocation location;
  };
  // Single-valued facts seen so far, keyed by "subject predicate".
  std::unordered_map<std::string, StatedValue> single_facts_;
};

std::string DefinitionCollector::Describe(const Statement& statement) const {
  const auto found = definitions_.find(statement.subject.value);
  const bool is_class = found != definitions_.end() && found->second.kind == Kind::kClass;
  return fmt::format("{} {}", is_class ? "class" : "property", NameOf(statement.subject.value));
}

Result<void> DefinitionCollector::CollectPrefixes(const TurtleDocument& document) {
  for (const PrefixDeclaration& declaration : document.prefixes) {
    const auto [known, inserted] =
        draft_.prefixes.emplace(declaration.prefix, declaration.namespace_iri);
    if (inserted) {
      prefix_locations_.emplace(declaration.prefix, declaration.location);
    } else if (known->second != declaration.namespace_iri) {
      return Error(Errc::kOntology,
                   fmt::format("{}: prefix {}: bound to <{}>, but to <{}> at {}",
                               declaration.location.ToString(), declaration.prefix,
                               declaration.namespace_iri, known->second,
                               prefix_locations_.at(declaration.prefix).ToString()));
    }
  }
  return Ok();
}

Result<void> DefinitionCollector::CollectType(const Statement& statement) {
  if (statement.predicate.value != iri::kRdfType || statement.object.kind != Term::Kind::kIri) {
    return Ok();
  }
  const bool is_class = statement.object.value == iri::kRdfsClass;
  if (!is_class && statement.object.value != iri::kRdfProperty) return Ok();
  const std::string_view kind_name = is_class ? "class" : "property";
  if (statement.subject.kind != Term::Kind::kIri) {
    return Error(Errc::kOntology, fmt::format("{}: a {} must be named by an IRI, not a blank node",
                                              statement.subject_location.ToString(), kind_name));
  }
  const Kind kind = is_class ? Kind::kClass : Kind::kProperty;
  const auto found = definitions_.find(statement.subject.value);
  if (found != definitions_.end()) {
    if (found->second.kind == kind) return Ok();
    return Error(Errc::kOntology,
                 fmt::format("{}: {} is typed both rdfs:Class and rdf:Property (first at {})",
                             statement.subject_location.ToString(), NameOf(statement.subject.value),
                             found->second.location.ToString()));
  }
  const size_t index = is_class ? draft_.classes.size() : draft_.properties.size();
  if (is_class) {
    Class& cls = draft_.classes.emplace_back();
    cls.iri = statement.subject.value;
    cls.location = statement.subject_location;
  } else {
    Property& property = draft_.properties.emplace_back();
    property.iri = statement.subject.value;
    property.location = statement.subject_location;
  }
  definitions_.emplace(statement.subject.value,
                       Definition{kind, index, statement.subject_location});
  return Ok();
}

Result<void> DefinitionCollector::CheckSingle(const Statement& statement, const std::string& value,
                                              std::string_view shown) {
  const std::string key = statement.subject.value + " " + statement.predicate.value;
  const auto [first, inserted] =
      single_facts_.emplace(key, StatedValue{value, std::string(shown), statement.object_location});
  if (inserted || first->second.value == value) return Ok();
  return ErrorAt(
      statement.object_location, statement,
      fmt::format("conflicting {}: {} here, but {} at {}", NameOf(statement.predicate.value), shown,
                  first->second.shown, first->second.location.ToString()));
}

Result<std::string> DefinitionCollector::IriObject(const Statement& statement) const {
  if (statement.object.kind == Term::Kind::kIri) return statement.object.value;
  return ErrorAt(statement.object_location, statement,
                 fmt::format("{} needs an IRI, not {}", NameOf(statement.predicate.value),
                             statement.object.kind == Term::Kind::kBlank
                                 ? std::string("a blank node")
                                 : fmt::format("the literal \"{}\"", statement.object.value)));
}

Result<bool> DefinitionCollector::BooleanObject(const Statement& statement) const {
  const Term& object = statement.object;
  const bool is_boolean_literal = object.kind == Term::Kind::kLiteral &&
                                  (object.datatype.empty() || object.datatype == kXsdBoolean) &&
                                  (object.value == "true" || object.value == "false");
  if (is_boolean_literal) return object.value == "true";
  return ErrorAt(statement.object_location, statement,
                 fmt::format("{} needs true or false, not {}", NameOf(statement.predicate.value),
                             object.kind == Term::Kind::kLiteral ? "\"" + object.value + "\""
                                                                 : NameOf(object.value)));
}

Result<int> DefinitionCollector::CardinalityObject(const Statement& statement) const {
  const Term& object = statement.object;
  int value = 0;
  if (object.kind == Term::Kind::kLiteral) {
    const char* const end = object.value.data() + object.value.size();
    const auto [stop, error] = std::from_chars(object.value.data(), end, value);
    if (error == std::errc() && stop == end && value > 0) return value;
  }
  return ErrorAt(statement.object_location, statement,
                 fmt::format("nrl:maxCardinality needs a positive integer, not {}",
                             object.kind == Term::Kind::kLiteral ? "\"" + object.value + "\""
                                                                 : NameOf(object.value)));
}

Result<void> DefinitionCollector::ApplyClassFact(Class& cls, const Statement& statement) {
  const std::string& predicate = statement.predicate.value;
  if (predicate == kSubClassOf || predicate == kDomainIndex) {
    QUARRY_ASSIGN_OR_RETURN(std::string target, IriObject(statement));
    AddOnce(predicate == kSubClassOf ? cls.super_classes : cls.domain_indexes, std::move(target));
  } else if (predicate == kNotify) {
    QUARRY_ASSIGN_OR_RETURN(const bool notify, BooleanObject(statement));
    QUARRY_TRY(CheckSingle(statement, notify ? "true" : "false", notify ? "true" : "false"));
    cls.notify = notify;
  } else if (IsPropertyPredicate(predicate)) {
    return ErrorAt(statement.predicate_location, statement,
                   fmt::format("{} applies to properties, not classes", NameOf(predicate)));
  }
  return Ok();
}

Result<void> DefinitionCollector::ApplyPropertyFact(Property& property,
                                                    const Statement& statement) {
  const std::string& predicate = statement.predicate.value;
  if (predicate == kSubPropertyOf) {
    QUARRY_ASSIGN_OR_RETURN(std::string target, IriObject(statement));
    AddOnce(property.super_properties, std::move(target));
  } else if (predicate == kDomain || predicate == kRange) {
    QUARRY_ASSIGN_OR_RETURN(std::string target, IriObject(statement));
    QUARRY_TRY(CheckSingle(statement, target, NameOf(target)));
    (predicate == kDomain ? property.domain : property.range) = std::move(target);
  } else if (predicate == kMaxCardinality) {
    QUARRY_ASSIGN_OR_RETURN(const int cardinality, CardinalityObject(statement));
    QUARRY_TRY(CheckSingle(statement, std::to_string(cardinality), std::to_string(cardinality)));
    property.max_cardinality = cardinality;
  } else if (predicate == kIndexed || predicate == kFulltextIndexed || predicate == kWriteback) {
    QUARRY_ASSIGN_OR_RETURN(const bool flag, BooleanObject(statement));
    QUARRY_TRY(CheckSingle(statement, flag ? "true" : "false", flag ? "true" : "false"));
    (predicate == kIndexed           ? property.indexed
     : predicate == kFulltextIndexed ? property.fulltext
                                     : property.writeback) = flag;
  } else if (IsClassPredicate(predicate)) {
    return ErrorAt(statement.predicate_location, statement,
                   fmt::format("{} applies to classes, not properties", NameOf(predicate)));
  }
  return Ok();
}

Result<void> DefinitionCollector::ApplyFact(const Statement& statement) {
  const auto found = definitions_.find(statement.subject.value);
  if (statement.subject.kind != Term::Kind::kIri || found == definitions_.end()) return Ok();
  const Definition& definition = found->second;
  if (statement.predicate.value == kComment) {
    if (statement.object.kind != Term::Kind::kLiteral) {
      return ErrorAt(statement.object_location, statement, "rdfs:comment needs a literal");
    }
    QUARRY_TRY(CheckSingle(statement, statement.object.value,
                           fmt::format("\"{}\"", statement.object.value)));
    std::string& comment = definition.kind == Kind::kClass
                               ? draft_.classes[definition.index].comment
                               : draft_.properties[definition.index].comment;
    comment = statement.object.value;
    return Ok();
  }
  if (definition.kind == Kind::kClass) {
    return ApplyClassFact(draft_.classes[definition.index], statement);
  }
  return ApplyPropertyFact(draft_.properties[definition.index], statement);
}

Result<Ontology::Draft> DefinitionCollector::Run(const std::vector<TurtleDocument>& documents) {
  for (const TurtleDocument& document : documents) QUARRY_TRY(CollectPrefixes(document));
  for (const TurtleDocument& document : documents) {
    for (const Statement& statement : document.statements) QUARRY_TRY(CollectType(statement));
  }
  for (const TurtleDocument& document : documents) {
    for (const Statement& statement : document.statements) QUARRY_TRY(ApplyFact(statement));
  }
  return std::move(draft_);
}

Result<Ontology::Draft> CollectDefinitions(const std::vector<TurtleDocument>& documents) {
  return DefinitionCollector().Run(documents);
}

}  // namespace quarry::ontology
