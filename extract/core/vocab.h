// Namespaces of the ontology (Tracker 3's Nepomuk IRIs, ontology/*.ontology) and a helper that
// builds full property and class IRIs from them, so modules write Nie("title"), not literals
// repeated in every file. Pure constants; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace quarry::extract::vocab {

inline constexpr std::string_view kRdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
inline constexpr std::string_view kRdfs = "http://www.w3.org/2000/01/rdf-schema#";
inline constexpr std::string_view kXsd = "http://www.w3.org/2001/XMLSchema#";
inline constexpr std::string_view kDc = "http://purl.org/dc/elements/1.1/";
inline constexpr std::string_view kNie = "http://tracker.api.gnome.org/ontology/v3/nie#";
inline constexpr std::string_view kNfo = "http://tracker.api.gnome.org/ontology/v3/nfo#";
inline constexpr std::string_view kNmm = "http://tracker.api.gnome.org/ontology/v3/nmm#";
inline constexpr std::string_view kNco = "http://tracker.api.gnome.org/ontology/v3/nco#";
inline constexpr std::string_view kNao = "http://tracker.api.gnome.org/ontology/v3/nao#";
inline constexpr std::string_view kNmo = "http://tracker.api.gnome.org/ontology/v3/nmo#";
inline constexpr std::string_view kMfo = "http://tracker.api.gnome.org/ontology/v3/mfo#";
inline constexpr std::string_view kSlo = "http://tracker.api.gnome.org/ontology/v3/slo#";
inline constexpr std::string_view kTracker = "http://tracker.api.gnome.org/ontology/v3/tracker#";

struct Prefix {
  std::string_view name;
  std::string_view iri;
};
// The prefixes the serializers compact IRIs with (and declare), in declaration order.
inline constexpr Prefix kPrefixes[] = {
    {"rdf", kRdf}, {"rdfs", kRdfs}, {"xsd", kXsd},         {"dc", kDc},   {"nie", kNie},
    {"nfo", kNfo}, {"nmm", kNmm},   {"nco", kNco},         {"nao", kNao}, {"nmo", kNmo},
    {"mfo", kMfo}, {"slo", kSlo},   {"tracker", kTracker},
};

inline std::string Term(std::string_view ns, std::string_view local) {
  std::string iri;
  iri.reserve(ns.size() + local.size());
  iri.append(ns).append(local);
  return iri;
}
inline std::string Rdf(std::string_view local) { return Term(kRdf, local); }
inline std::string Nie(std::string_view local) { return Term(kNie, local); }
inline std::string Nfo(std::string_view local) { return Term(kNfo, local); }
inline std::string Nmm(std::string_view local) { return Term(kNmm, local); }
inline std::string Nco(std::string_view local) { return Term(kNco, local); }
inline std::string Nao(std::string_view local) { return Term(kNao, local); }
inline std::string Slo(std::string_view local) { return Term(kSlo, local); }

}  // namespace quarry::extract::vocab
