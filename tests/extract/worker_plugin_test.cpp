// The sandboxed quarry-extract worker with plugins (extract/core/plugin.h): it loads every
// plugin before its seccomp filter goes in and extracts every format; with its plugins missing
// it still starts, and a file of that format fails with an error naming the plugin's file.
#include <doctest/doctest.h>
#include <stdlib.h>

#include <chrono>
#include <cstdlib>
#include <map>

#include "extract/service/worker_process.h"
#include "tests/extract/extract_test_util.h"
#include "tests/support/temp_dir.h"

namespace quarry::testing {
namespace {

using extract::service::Outcome;
using extract::service::WorkerProcess;
using namespace std::chrono_literals;

std::unique_ptr<WorkerProcess> StartWorker() {
  auto worker = WorkerProcess::Spawn({QUARRY_EXTRACT_BIN, "--worker", "--memory-limit", "1024",
                                      "--max-text-bytes", "1048576"});
  REQUIRE_MESSAGE(worker.ok(), worker.error().ToString());
  auto ready = (*worker)->WaitReady(60s);
  REQUIRE_MESSAGE(ready.ok(), ready.error().ToString());
  return std::move(*worker);
}

// An OpenDocument text (python3's zipfile: the corpus has none).
std::string WriteOdt(const TempDir& dir) {
  const std::string path = (dir / "report.odt").string();
  const std::string script =
      "import sys, zipfile\n"
      "z = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)\n"
      "z.writestr('mimetype', 'application/vnd.oasis.opendocument.text', zipfile.ZIP_STORED)\n"
      "z.writestr('meta.xml', '<?xml version=\"1.0\"?><office:document-meta "
      "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
      "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><office:meta><dc:title>Plugin Report"
      "</dc:title></office:meta></office:document-meta>')\n"
      "z.writestr('content.xml', '<?xml version=\"1.0\"?><office:document-content "
      "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
      "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\"><office:body><office:text>"
      "<text:p>zqxplugin body</text:p></office:text></office:body></office:document-content>')\n"
      "z.close()\n";
  const std::string script_path = dir.Write("make_odt.py", script).string();
  REQUIRE(std::system(("/usr/bin/python3 '" + script_path + "' '" + path + "'").c_str()) == 0);
  return path;
}

TEST_CASE("quarry-extract worker: in its sandbox it extracts every format through the plugins") {
  const TempDir dir;
  // path -> the module that must extract it
  std::map<std::string, std::string> files;
  const std::map<std::string, std::string> kinds = {
      {"pdf", "pdf"},    {"mp3", "audio"}, {"flac", "audio"}, {"ogg", "audio"}, {"opus", "audio"},
      {"jpeg", "image"}, {"png", "image"}, {"txt", "text"},   {"md", "text"},   {"code", "text"},
      {"data", "text"},  {"html", "html"}};
  for (const auto& [kind, module] : kinds) {
    const auto entries = Entries({kind});
    REQUIRE_MESSAGE(!entries.empty(), kind);
    files[CorpusPath(entries.front())] = module;
  }
  files[WriteOdt(dir)] = "office";
  files[dir.Write("mix.m3u", "#EXTM3U\n#EXTINF:61,Artist - Song\nsong.mp3\n").string()] =
      "playlist";

  const auto worker = StartWorker();
  for (const auto& [path, module] : files) {
    INFO(path);
    const Outcome outcome = worker->Run(path, "", "", std::nullopt, 60s);
    CHECK(outcome.module == module);
    CHECK_MESSAGE(outcome.kind == Outcome::Kind::kExtracted, outcome.text);
    CHECK(outcome.text.find("INSERT") != std::string::npos);
  }
  CHECK(worker->alive());
}

TEST_CASE("quarry-extract worker: with its plugins missing it starts, and files fail naming the "
          "plugin") {
  const TempDir dir;
  const std::string missing = (dir / "no-plugins").string();
  REQUIRE(::setenv("QUARRY_EXTRACT_PLUGIN_DIR", missing.c_str(), 1) == 0);
  auto worker = WorkerProcess::Spawn({QUARRY_EXTRACT_BIN, "--worker"});
  ::unsetenv("QUARRY_EXTRACT_PLUGIN_DIR");
  REQUIRE_MESSAGE(worker.ok(), worker.error().ToString());
  auto ready = (*worker)->WaitReady(60s);
  REQUIRE_MESSAGE(ready.ok(), ready.error().ToString());
  const Outcome outcome = (*worker)->Run(CorpusPath(Entries({"pdf"}).front()), "", "", std::nullopt, 60s);
  CHECK(outcome.kind == Outcome::Kind::kFailed);
  CHECK(outcome.module == "pdf");
  CHECK(outcome.text.find(missing + "/quarry-extract-pdf.so") != std::string::npos);
  CHECK((*worker)->alive());
}

}  // namespace
}  // namespace quarry::testing
