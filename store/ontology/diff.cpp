#include "store/ontology/diff.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <utility>

#include "store/ontology/prefixes.h"

namespace quarry::ontology {

namespace {

std::vector<std::string> Sorted(std::vector<std::string> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

// Values in `from` that are not in `without`; both sorted.
std::vector<std::string> Minus(const std::vector<std::string>& from,
                               const std::vector<std::string>& without) {
  std::vector<std::string> result;
  std::set_difference(from.begin(), from.end(), without.begin(), without.end(),
                      std::back_inserter(result));
  return result;
}

template <typename T>
std::optional<Change<T>> Compare(T before, T after) {
  if (before == after) return std::nullopt;
  return Change<T>{std::move(before), std::move(after)};
}

PropertyDiff DiffProperty(const Property& before, const Property& after) {
  return PropertyDiff{
      .iri = after.iri,
      .name = after.name,
      .domain = Compare(before.domain, after.domain),
      .range = Compare(before.range, after.range),
      .type = Compare(before.type, after.type),
      .max_cardinality = Compare(before.max_cardinality, after.max_cardinality),
      .indexed = Compare(before.indexed, after.indexed),
      .fulltext = Compare(before.fulltext, after.fulltext),
      .writeback = Compare(before.writeback, after.writeback),
      .super_properties = Compare(Sorted(before.super_properties), Sorted(after.super_properties)),
  };
}

ClassDiff DiffClass(const Class& before, const Class& after) {
  const std::vector<std::string> old_indexes = Sorted(before.domain_indexes);
  const std::vector<std::string> new_indexes = Sorted(after.domain_indexes);
  return ClassDiff{
      .iri = after.iri,
      .name = after.name,
      .domain_indexes_added = Minus(new_indexes, old_indexes),
      .domain_indexes_removed = Minus(old_indexes, new_indexes),
      .super_classes = Compare(Sorted(before.super_classes), Sorted(after.super_classes)),
      .notify = Compare(before.notify, after.notify),
  };
}

template <typename T>
void SortByIri(std::vector<T>& values) {
  std::sort(values.begin(), values.end(), [](const T& a, const T& b) { return a.iri < b.iri; });
}

// Prints the changes of one diff, one line each; names come from the diff's prefixes.
class DiffPrinter {
 public:
  explicit DiffPrinter(const PrefixMap& prefixes) : prefixes_(prefixes) {}

  void Definitions(std::string_view what, const std::vector<DefinitionRef>& refs) {
    for (const DefinitionRef& ref : refs) Line("{}: {}", what, ref.name);
  }

  void Class(const ClassDiff& change) {
    const std::string& name = change.name;
    for (const std::string& p : change.domain_indexes_added) {
      Line("class {}: domain index {} added", name, Name(p));
    }
    for (const std::string& p : change.domain_indexes_removed) {
      Line("class {}: domain index {} removed", name, Name(p));
    }
    if (change.super_classes) {
      Line("class {}: super classes {} -> {}", name, Names(change.super_classes->before),
           Names(change.super_classes->after));
    }
    Flag("class", name, "notify", change.notify);
  }

  void Property(const PropertyDiff& change) {
    const std::string& name = change.name;
    if (change.domain) {
      Line("property {}: domain {} -> {}", name, Name(change.domain->before),
           Name(change.domain->after));
    }
    if (change.range) {
      Line("property {}: range {} -> {}", name, Name(change.range->before),
           Name(change.range->after));
    }
    if (change.type) {
      Line("property {}: type {} -> {}", name, ValueTypeName(change.type->before),
           ValueTypeName(change.type->after));
    }
    if (change.max_cardinality) {
      Line("property {}: maxCardinality {} -> {}", name,
           Cardinality(change.max_cardinality->before), Cardinality(change.max_cardinality->after));
    }
    Flag("property", name, "indexed", change.indexed);
    Flag("property", name, "fulltextIndexed", change.fulltext);
    Flag("property", name, "writeback", change.writeback);
    if (change.super_properties) {
      Line("property {}: super properties {} -> {}", name, Names(change.super_properties->before),
           Names(change.super_properties->after));
    }
  }

  std::string Take() { return std::move(text_); }

 private:
  template <typename... Args>
  void Line(fmt::format_string<Args...> format, Args&&... args) {
    text_ += fmt::format(format, std::forward<Args>(args)...);
    text_ += '\n';
  }
  void Flag(std::string_view kind, const std::string& name, std::string_view flag,
            const std::optional<Change<bool>>& change) {
    if (change) Line("{} {}: {} {}", kind, name, flag, change->after ? "added" : "removed");
  }
  std::string Name(std::string_view iri) const { return CompactIri(prefixes_, iri); }
  std::string Names(const std::vector<std::string>& iris) const {
    std::vector<std::string> names;
    for (const std::string& iri : iris) names.push_back(Name(iri));
    return names.empty() ? "(none)" : fmt::format("{}", fmt::join(names, ", "));
  }
  static std::string Cardinality(const std::optional<int>& cardinality) {
    return cardinality ? std::to_string(*cardinality) : "unbounded";
  }

  const PrefixMap& prefixes_;
  std::string text_;
};

}  // namespace

bool PropertyDiff::storage_changed() const {
  if (!max_cardinality) return false;
  auto multi = [](const std::optional<int>& cardinality) {
    return !cardinality || *cardinality > 1;
  };
  return multi(max_cardinality->before) != multi(max_cardinality->after);
}

bool PropertyDiff::empty() const {
  return !domain && !range && !type && !max_cardinality && !indexed && !fulltext && !writeback &&
         !super_properties;
}

bool ClassDiff::empty() const {
  return domain_indexes_added.empty() && domain_indexes_removed.empty() && !super_classes &&
         !notify;
}

bool OntologyDiff::empty() const {
  return added_classes.empty() && removed_classes.empty() && added_properties.empty() &&
         removed_properties.empty() && changed_classes.empty() && changed_properties.empty();
}

std::string OntologyDiff::ToString() const {
  DiffPrinter printer(prefixes);
  printer.Definitions("class added", added_classes);
  printer.Definitions("class removed", removed_classes);
  printer.Definitions("property added", added_properties);
  printer.Definitions("property removed", removed_properties);
  for (const ClassDiff& change : changed_classes) printer.Class(change);
  for (const PropertyDiff& change : changed_properties) printer.Property(change);
  return printer.Take();
}

OntologyDiff DiffOntologies(const Ontology& before, const Ontology& after) {
  OntologyDiff diff;
  diff.prefixes = after.prefixes();
  diff.prefixes.insert(before.prefixes().begin(), before.prefixes().end());
  for (const Class& cls : after.classes()) {
    const Class* old = before.FindClass(cls.iri);
    if (!old) {
      diff.added_classes.push_back({cls.iri, cls.name});
    } else if (ClassDiff change = DiffClass(*old, cls); !change.empty()) {
      diff.changed_classes.push_back(std::move(change));
    }
  }
  for (const Class& cls : before.classes()) {
    if (!after.FindClass(cls.iri)) diff.removed_classes.push_back({cls.iri, cls.name});
  }
  for (const Property& property : after.properties()) {
    const Property* old = before.FindProperty(property.iri);
    if (!old) {
      diff.added_properties.push_back({property.iri, property.name});
    } else if (PropertyDiff change = DiffProperty(*old, property); !change.empty()) {
      diff.changed_properties.push_back(std::move(change));
    }
  }
  for (const Property& property : before.properties()) {
    if (!after.FindProperty(property.iri)) {
      diff.removed_properties.push_back({property.iri, property.name});
    }
  }
  SortByIri(diff.added_classes);
  SortByIri(diff.removed_classes);
  SortByIri(diff.added_properties);
  SortByIri(diff.removed_properties);
  SortByIri(diff.changed_classes);
  SortByIri(diff.changed_properties);
  return diff;
}

}  // namespace quarry::ontology
