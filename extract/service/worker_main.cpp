#include "extract/service/worker_main.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <new>
#include <string>
#include <string_view>

#include "extract/core/iri.h"
#include "extract/core/mime.h"
#include "extract/core/pipeline.h"
#include "extract/core/plugin.h"
#include "extract/service/extract_state.h"
#include "extract/service/sandbox.h"
#include "extract/service/worker_protocol.h"
#include "store/common/process_memory.h"

namespace quarry::extract::service {
namespace {

// A tagged answer frame; tag 0: the pipe broke, nothing to send.
struct Answer {
  char tag = 0;
  std::string text;
};

Answer Tagged(char tag, std::string text) { return Answer{tag, std::move(text)}; }

// One file: the module's name first, then the outcome. Exceptions a module lets escape (a
// std::bad_alloc under RLIMIT_AS above all) become the file's error instead of a crash.
Answer ExtractOne(const Registry& registry, const std::string& path, const std::string& url,
                  const std::string& file_iri, const std::string& mtime, const Limits& limits) {
  auto prepared = PrepareFile(registry, path);
  if (!prepared) {
    const bool nothing = prepared.error().code() == Errc::kUnsupported;
    return Tagged(nothing ? kTagNothing : kTagError, prepared.error().ToString());
  }
  if (!WriteTaggedFrame(STDOUT_FILENO, kTagModule, prepared->module->name())) return {};
  try {
    auto result = ExtractPrepared(*prepared, limits);
    if (!result) return Tagged(kTagError, result.error().ToString());
    // The URL as the store spells it, so nie:url and the element's IRI stay what they are.
    if (!url.empty()) {
      result->file_url = url;
      result->element_iri = ElementIri(url);
    }
    result->file_iri = file_iri;
    if (!mtime.empty()) result->file_state = SuccessState(std::stoll(mtime));
    return Tagged(kTagResult, ToSparqlUpdate(*result));
  } catch (const std::bad_alloc&) {
    return Tagged(kTagError, fmt::format("{}: out of memory (the worker's memory limit)", path));
  } catch (const std::exception& error) {
    return Tagged(kTagError, fmt::format("{}: extractor threw: {}", path, error.what()));
  }
}

}  // namespace

std::string WorkerGlibcTunables(const char* current) {
  const std::string_view existing = current == nullptr ? std::string_view() : current;
  // Items are colon-separated name=value pairs; only a whole name counts as set.
  constexpr std::string_view kName = "glibc.malloc.tcache_count=";
  for (size_t start = 0; start <= existing.size();) {
    const size_t colon = std::min(existing.find(':', start), existing.size());
    if (existing.substr(start, colon - start).starts_with(kName)) return std::string(existing);
    start = colon + 1;
  }
  return fmt::format("{}{}{}{}", existing, existing.empty() ? "" : ":", kName, kWorkerTcacheCount);
}

int RunWorker(const WorkerSettings& settings) {
  // Every plugin, ICU and libmagic are loaded before the seccomp filter goes in: after it,
  // nothing new is mapped as code (the filter would allow dlopen's read-only opens and mmap,
  // but a worker that has begun reading hostile files should not load code), and no file pays
  // for a load. A plugin that fails to load is reported here; its files then fail with the
  // same error naming the plugin's file.
  const Registry registry = BuiltinRegistry();
  if (auto loaded = LoadAllPlugins(registry); !loaded) {
    std::fprintf(stderr, "quarry-extract worker: %s\n", loaded.error().ToString().c_str());
  }
  if (auto loaded = LoadMimeDetection(); !loaded) {
    std::fprintf(stderr, "quarry-extract worker: %s\n", loaded.error().ToString().c_str());
  }
  if (auto sandboxed = EnterWorkerSandbox(settings.memory_limit_bytes); !sandboxed) {
    std::fprintf(stderr, "quarry-extract worker: %s\n", sandboxed.error().ToString().c_str());
    return 2;
  }
  if (!WriteFrame(STDOUT_FILENO, std::string(1, kTagReady))) return 3;
  FrameReader reader(STDIN_FILENO);
  BusyHeapTrimmer trimmer(settings.trim_heap);
  std::string path;
  std::string url;
  std::string file_iri;
  std::string mtime;
  for (;;) {
    for (std::string* field : {&path, &url, &file_iri, &mtime}) {
      if (reader.Read(*field) != FrameReader::Status::kFrame) return 0;
    }
    const Answer answer = ExtractOne(registry, path, url, file_iri, mtime, settings.limits);
    if (answer.tag == 0 || !WriteTaggedFrame(STDOUT_FILENO, answer.tag, answer.text)) return 3;
    trimmer.AfterWork();
  }
}

}  // namespace quarry::extract::service
