// quarry_extract_bench [--verbose] [--threads N] [--max-text-bytes B] [--output FILE]
//                      (--list FILE | FILE...)
// Extracts every file (MIME detection, module, SPARQL update text), in one process as the
// extract service would, and prints one stable line:
//   extract files=N failed=F seconds=S files_per_s=R sparql_bytes=B
// --output writes every update (or the error of a failed file) to FILE, one per input file in
// order, to compare two builds' RDF byte for byte.
// Failures are counted, not fatal (a benchmark corpus may hold files no module reads);
// --verbose prints each one's error on stderr.
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "extract/core/pipeline.h"
#include "extract/core/serialize.h"

namespace {

struct Options {
  quarry::extract::Limits limits;
  bool verbose = false;
  std::string output;
  std::vector<std::string> files;
};

bool ParseOptions(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--verbose") {
      options.verbose = true;
    } else if (arg == "--threads" && has_value) {
      options.limits.max_threads = static_cast<unsigned>(std::atoi(argv[++i]));
    } else if (arg == "--max-text-bytes" && has_value) {
      options.limits.max_text_bytes = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--output" && has_value) {
      options.output = argv[++i];
    } else if (arg == "--list" && has_value) {
      std::ifstream list(argv[++i]);
      if (!list) {
        std::cerr << "quarry_extract_bench: cannot read the list " << argv[i] << '\n';
        return false;
      }
      for (std::string line; std::getline(list, line);) {
        if (!line.empty()) options.files.push_back(line);
      }
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "quarry_extract_bench: unknown option " << arg << '\n';
      return false;
    } else {
      options.files.push_back(arg);
    }
  }
  return !options.files.empty();
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseOptions(argc, argv, options)) {
    std::cerr << "usage: quarry_extract_bench [--verbose] [--threads N] [--max-text-bytes B] "
                 "[--output FILE] (--list FILE | FILE...)\n";
    return 2;
  }
  const quarry::extract::Registry registry = quarry::extract::BuiltinRegistry();
  std::ofstream output;
  if (!options.output.empty()) {
    output.open(options.output, std::ios::binary);
    if (!output) {
      std::cerr << "quarry_extract_bench: cannot write " << options.output << '\n';
      return 2;
    }
  }
  size_t failed = 0;
  size_t sparql_bytes = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& file : options.files) {
    const auto result = quarry::extract::ExtractFile(registry, file, options.limits);
    if (!result) {
      ++failed;
      if (options.verbose) std::cerr << result.error().ToString() << '\n';
      if (output.is_open()) output << "# error " << result.error().ToString() << '\n';
      continue;
    }
    const std::string update = quarry::extract::ToSparqlUpdate(*result);
    sparql_bytes += update.size();
    if (output.is_open()) output << update << '\n';
  }
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
  std::cout << fmt::format(
      "extract files={} failed={} seconds={:.4f} files_per_s={:.1f} "
      "sparql_bytes={}\n",
      options.files.size(), failed, seconds.count(),
      static_cast<double>(options.files.size()) / seconds.count(), sparql_bytes);
  return failed == options.files.size() ? 1 : 0;
}
