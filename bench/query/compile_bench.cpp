// bench/query compile time: SPARQL text -> SQL for five typical queries, the work Quarry does
// before SQLite sees a query (goal: < 200 µs). Google Benchmark, two numbers per query:
//   parse/<q>      sparql::ParseQuery with the ontology's prefixes (the front end alone)
//   compile/<q>    engine::Store::Compile, what Connection::Query pays before SQLite: parse
//                  options, parse and translation to SQL; compile - parse = the translator
// Each is 10,000 iterations, repeated 5 times (--iterations=N, --repetitions=N change that); the
// median aggregate is the number to read. Needs a store for the ontology: a fresh one is created
// in a temporary directory and removed at the end.
// Run: compile_bench [--iterations=N] [--repetitions=N] [Google Benchmark flags].
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "store/engine/store.h"
#include "store/sparql/parser.h"

namespace {

const std::vector<std::pair<std::string, std::string>>& TypicalQueries() {
  static const std::vector<std::pair<std::string, std::string>> queries = {
      {"artist_names", "SELECT ?a nmm:artistName(?a) { ?a a nmm:Artist }"},
      {"folder_mtimes",
       "SELECT ?f ?m { ?f nfo:belongsToContainer <file:///bench/d0000> ; "
       "nfo:fileLastModified ?m }"},
      {"titles_sorted",
       "SELECT ?r ?t { ?r a nmm:MusicPiece ; nie:title ?t } ORDER BY ?t LIMIT 100"},
      {"songs_optional",
       "SELECT ?song ?title ?album ?name { ?song a nmm:MusicPiece ; nie:title ?title ; "
       "nmm:musicAlbum ?album . OPTIONAL { ?song nmm:artist ?a . ?a nmm:artistName ?name } "
       "FILTER (?title != \"\") } ORDER BY ?title LIMIT 50"},
      {"genre_counts",
       "SELECT ?genre (COUNT(?s) AS ?n) { ?s a nmm:MusicPiece ; nfo:genre ?genre } "
       "GROUP BY ?genre ORDER BY DESC(?n)"},
  };
  return queries;
}

quarry::sparql::ParseOptions OntologyPrefixes(const quarry::ontology::Ontology& ontology) {
  quarry::sparql::ParseOptions options;
  options.prefixes = ontology.prefixes();
  return options;
}

[[noreturn]] void Fail(const std::string& what, const quarry::Error& error) {
  std::cerr << "compile_bench: " << what << ": " << error.ToString() << "\n";
  std::exit(1);
}

struct Shape {
  int64_t iterations = 10000;
  int repetitions = 5;
};
Shape g_shape;

// Iterations a repetition and repetitions, the aggregates (median, mean, stddev) only.
void Configure(benchmark::internal::Benchmark* bench) {
  bench->Iterations(g_shape.iterations)
      ->Repetitions(g_shape.repetitions)
      ->ReportAggregatesOnly(true)
      ->Unit(benchmark::kMicrosecond);
}

// Takes this program's own --iterations=N and --repetitions=N out of argv (Google Benchmark
// refuses flags it does not know).
void TakeShapeFlags(int& argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--iterations=", 0) == 0) {
      g_shape.iterations = std::max<int64_t>(1, std::atoll(arg.c_str() + 13));
    } else if (arg.rfind("--repetitions=", 0) == 0) {
      g_shape.repetitions = std::max(1, std::atoi(arg.c_str() + 14));
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
}

void Register(quarry::engine::Store& store) {
  const quarry::sparql::ParseOptions parse_options = OntologyPrefixes(store.ontology());
  for (const auto& [name, text] : TypicalQueries()) {
    auto parsed = quarry::sparql::ParseQuery(text, parse_options);
    if (!parsed) Fail("parse " + name, parsed.error());
    if (auto compiled = store.Compile(text); !compiled) Fail("compile " + name, compiled.error());
    auto parse = [text, parse_options](benchmark::State& state) {
      for (auto _ : state) {
        benchmark::DoNotOptimize(quarry::sparql::ParseQuery(text, parse_options));
      }
    };
    auto compile = [text, &store](benchmark::State& state) {
      for (auto _ : state) benchmark::DoNotOptimize(store.Compile(text));
    };
    Configure(benchmark::RegisterBenchmark(("parse/" + name).c_str(), parse));
    Configure(benchmark::RegisterBenchmark(("compile/" + name).c_str(), compile));
  }
}

}  // namespace

int main(int argc, char** argv) {
  TakeShapeFlags(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  const char* tmp = std::getenv("TMPDIR");
  const std::string base = tmp && *tmp ? tmp : "/tmp";
  std::string pattern = base + "/quarry-compile-bench.XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    std::cerr << "compile_bench: cannot create a temporary directory under " << base << "\n";
    return 1;
  }
  const std::filesystem::path directory = pattern;
  int status = 0;
  {
    auto store = quarry::engine::Store::Open({directory, {}, false});
    if (!store) {
      std::cerr << "compile_bench: " << store.error().ToString() << "\n";
      status = 1;
    } else {
      Register(*store.value());
      benchmark::RunSpecifiedBenchmarks();
      benchmark::Shutdown();
    }
  }
  std::filesystem::remove_all(directory);
  return status;
}
