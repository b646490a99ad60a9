// Ontology::Build(): checks every reference of a draft and computes the class closures.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <unordered_set>
#include <utility>

#include "store/ontology/ontology.h"
#include "store/ontology/prefixes.h"

namespace quarry::ontology {

namespace {

Error DefinitionError(const SourceLocation& location, std::string_view kind, std::string_view name,
                      std::string_view message) {
  return Error(Errc::kOntology,
               fmt::format("{}: {} {}: {}", location.ToString(), kind, name, message));
}

template <typename T>
void RemoveDuplicates(std::vector<T>& values) {
  std::vector<T> unique;
  for (T& value : values) {
    if (std::find(unique.begin(), unique.end(), value) == unique.end()) {
      unique.push_back(std::move(value));
    }
  }
  values = std::move(unique);
}

// Direct super classes plus the implied rdfs:Resource, which every other class has.
std::vector<std::string> SuperEdges(const Class& cls, bool has_resource) {
  std::vector<std::string> edges = cls.super_classes;
  if (has_resource && cls.iri != iri::kRdfsResource &&
      std::find(edges.begin(), edges.end(), iri::kRdfsResource) == edges.end()) {
    edges.emplace_back(iri::kRdfsResource);
  }
  return edges;
}

}  // namespace

// Build() runs in steps that each rely on the previous ones; this class holds the state
// between them so that each step stays short.
class OntologyBuilder {
 public:
  explicit OntologyBuilder(Ontology::Draft draft) : draft_(std::move(draft)) {}

  Result<std::shared_ptr<const Ontology>> Run() {
    QUARRY_TRY(IndexDefinitions());
    QUARRY_TRY(CheckClasses());
    QUARRY_TRY(CheckProperties());
    QUARRY_TRY(ComputeClosures());
    QUARRY_TRY(CheckDomainIndexes());
    return std::shared_ptr<const Ontology>(std::move(ontology_));
  }

 private:
  std::string NameOf(std::string_view iri) const { return CompactIri(draft_.prefixes, iri); }

  Result<void> IndexDefinitions();
  Result<void> CheckClasses();
  Result<void> CheckProperty(Property& property);
  Result<void> CheckProperties();
  Result<void> FindCycles();
  Result<void> ComputeClosures();
  Result<void> CheckDomainIndexes();

  Ontology::Draft draft_;
  std::unique_ptr<Ontology> ontology_ = std::make_unique<Ontology>();
  bool has_resource_ = false;
};

Result<void> OntologyBuilder::IndexDefinitions() {
  Ontology& out = *ontology_;
  std::unordered_map<std::string, SourceLocation> names;  // table names must not collide
  auto claim_name = [&](std::string_view kind, const std::string& name,
                        const SourceLocation& location) -> Result<void> {
    const auto [found, inserted] = names.emplace(name, location);
    if (inserted) return Ok();
    return DefinitionError(location, kind, name,
                           fmt::format("defined twice (first at {})", found->second.ToString()));
  };
  for (Class& cls : draft_.classes) {
    cls.name = NameOf(cls.iri);
    QUARRY_TRY(claim_name("class", cls.name, cls.location));
    out.class_index_.emplace(cls.iri, out.classes_.size());
    out.classes_.push_back(std::move(cls));
  }
  for (Property& property : draft_.properties) {
    property.name = NameOf(property.iri);
    if (const Class* cls = out.FindClass(property.iri)) {
      return DefinitionError(
          property.location, "property", property.name,
          fmt::format("is also defined as a class (at {})", cls->location.ToString()));
    }
    QUARRY_TRY(claim_name("property", property.name, property.location));
    out.property_index_.emplace(property.iri, out.properties_.size());
    out.properties_.push_back(std::move(property));
  }
  out.prefixes_ = draft_.prefixes;
  has_resource_ = out.class_index_.contains(std::string(iri::kRdfsResource));
  return Ok();
}

Result<void> OntologyBuilder::CheckClasses() {
  for (Class& cls : ontology_->classes_) {
    RemoveDuplicates(cls.super_classes);
    RemoveDuplicates(cls.domain_indexes);
    for (const std::string& super : cls.super_classes) {
      if (!ontology_->FindClass(super)) {
        return DefinitionError(cls.location, "class", cls.name,
                               fmt::format("unknown super class {}", NameOf(super)));
      }
    }
  }
  return Ok();
}

Result<void> OntologyBuilder::CheckProperty(Property& property) {
  auto fail = [&](std::string message) {
    return DefinitionError(property.location, "property", property.name, message);
  };
  if (property.domain.empty()) return fail("missing rdfs:domain");
  if (property.range.empty()) return fail("missing rdfs:range");
  if (!ontology_->FindClass(property.domain)) {
    return fail(fmt::format("unknown domain class {}", NameOf(property.domain)));
  }
  if (const std::optional<ValueType> literal = DatatypeValueType(property.range)) {
    property.type = *literal;
  } else if (ontology_->FindClass(property.range)) {
    property.type = ValueType::kResource;
  } else {
    return fail(
        fmt::format("unknown range {} (neither a class nor a datatype)", NameOf(property.range)));
  }
  if (property.max_cardinality && *property.max_cardinality < 1) {
    return fail(fmt::format("nrl:maxCardinality must be a positive integer, not {}",
                            *property.max_cardinality));
  }
  RemoveDuplicates(property.super_properties);
  for (const std::string& super : property.super_properties) {
    if (super == property.iri) return fail("rdfs:subPropertyOf itself");
    if (!ontology_->FindProperty(super)) {
      return fail(fmt::format("unknown super property {}", NameOf(super)));
    }
  }
  return Ok();
}

Result<void> OntologyBuilder::CheckProperties() {
  for (Property& property : ontology_->properties_) {
    QUARRY_TRY(CheckProperty(property));
  }
  return Ok();
}

Result<void> OntologyBuilder::FindCycles() {
  enum class Mark { kNew, kOnPath, kDone };
  std::unordered_map<std::string, Mark> marks;
  std::vector<std::string> path;
  // Returns the classes of a cycle, starting and ending with the same class.
  std::function<std::vector<std::string>(const Class&)> visit =
      [&](const Class& cls) -> std::vector<std::string> {
    Mark& mark = marks[cls.iri];
    if (mark == Mark::kDone) return {};
    if (mark == Mark::kOnPath) {
      std::vector<std::string> cycle(std::find(path.begin(), path.end(), cls.iri), path.end());
      cycle.push_back(cls.iri);
      return cycle;
    }
    mark = Mark::kOnPath;
    path.push_back(cls.iri);
    for (const std::string& super : SuperEdges(cls, has_resource_)) {
      std::vector<std::string> cycle = visit(*ontology_->FindClass(super));
      if (!cycle.empty()) return cycle;
    }
    path.pop_back();
    marks[cls.iri] = Mark::kDone;
    return {};
  };
  for (const Class& cls : ontology_->classes_) {
    const std::vector<std::string> cycle = visit(cls);
    if (cycle.empty()) continue;
    std::vector<std::string> names;
    for (const std::string& step : cycle) names.push_back(NameOf(step));
    const Class& first = *ontology_->FindClass(cycle.front());
    return DefinitionError(first.location, "class", first.name,
                           fmt::format("rdfs:subClassOf cycle {}", fmt::join(names, " -> ")));
  }
  return Ok();
}

Result<void> OntologyBuilder::ComputeClosures() {
  QUARRY_TRY(FindCycles());
  Ontology& out = *ontology_;
  for (const Class& cls : out.classes_) out.sub_closure_[cls.iri] = {cls.iri};
  for (const Class& cls : out.classes_) {
    // Reversed post-order of a depth-first walk: every class comes before its super classes,
    // so the class itself is first and rdfs:Resource last.
    std::vector<std::string> post_order;
    std::unordered_set<std::string> seen;
    std::function<void(const Class&)> visit = [&](const Class& current) {
      if (!seen.insert(current.iri).second) return;
      for (const std::string& super : SuperEdges(current, has_resource_)) {
        visit(*out.FindClass(super));
      }
      post_order.push_back(current.iri);
    };
    visit(cls);
    std::reverse(post_order.begin(), post_order.end());
    for (size_t i = 1; i < post_order.size(); ++i) {
      out.sub_closure_[post_order[i]].push_back(cls.iri);
    }
    out.super_closure_[cls.iri] = std::move(post_order);
  }
  return Ok();
}

Result<void> OntologyBuilder::CheckDomainIndexes() {
  for (const Class& cls : ontology_->classes_) {
    for (const std::string& index : cls.domain_indexes) {
      auto fail = [&](std::string_view why) {
        return DefinitionError(cls.location, "class", cls.name,
                               fmt::format("nrl:domainIndex {}: {}", NameOf(index), why));
      };
      const Property* property = ontology_->FindProperty(index);
      if (!property) return fail("unknown property");
      if (property->multi_valued()) return fail("property is not single-valued");
      if (property->domain == cls.iri || !ontology_->IsSubClassOf(cls.iri, property->domain)) {
        return fail(fmt::format("its domain {} is not a strict super class of {}",
                                NameOf(property->domain), cls.name));
      }
    }
  }
  return Ok();
}

Result<std::shared_ptr<const Ontology>> Ontology::Build(Draft draft) {
  return OntologyBuilder(std::move(draft)).Run();
}

}  // namespace quarry::ontology
