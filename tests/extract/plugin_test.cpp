// Extractor plugins (extract/core/plugin.h): every built-in plugin loads and its module says
// what the registry's table says; plugins are loaded on first use only; a missing or broken
// plugin is a clear error naming its file. Every corpus format gets its shared-mime-info name
// (core/mime.h) and the module made for it.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "extract/core/mime.h"
#include "extract/core/pipeline.h"
#include "extract/core/plugin.h"
#include "tests/extract/extract_test_util.h"
#include "tests/support/temp_dir.h"

namespace quarry::testing {
namespace {

using extract::PluginModule;

const PluginModule& Plugin(const extract::Registry& registry, std::string_view name) {
  for (const auto& module : registry.modules()) {
    if (module->name() == name) {
      const auto* plugin = dynamic_cast<const PluginModule*>(module.get());
      REQUIRE(plugin != nullptr);
      return *plugin;
    }
  }
  FAIL("no module " << name);
  std::abort();
}

std::string FirstOfKind(std::string_view kind) {
  const auto entries = Entries({kind});
  REQUIRE(!entries.empty());
  return CorpusPath(entries.front());
}

TEST_CASE("plugins: each built-in plugin loads and its module matches the registry's table") {
  const extract::Registry registry = extract::BuiltinRegistry();
  REQUIRE(registry.modules().size() == extract::BuiltinPluginSpecs().size());
  for (const extract::PluginSpec& spec : extract::BuiltinPluginSpecs()) {
    INFO(spec.name);
    const PluginModule& plugin = Plugin(registry, spec.name);
    CHECK(plugin.path() == extract::PluginDirectory() + "/" + spec.file);
    auto loaded = plugin.Load();
    REQUIRE_MESSAGE(loaded.ok(), loaded.error().ToString());
    CHECK((*loaded)->name() == spec.name);
    CHECK((*loaded)->mime_types() == spec.mime_types);
    CHECK((*loaded)->extensions() == spec.extensions);
    CHECK(plugin.loaded());
  }
  CHECK(extract::LoadAllPlugins(registry).ok());
}

TEST_CASE("plugins: a PDF loads the PDF plugin and no other") {
  const extract::Registry registry = extract::BuiltinRegistry();
  for (const auto& module : registry.modules()) {
    CHECK_FALSE(dynamic_cast<const PluginModule&>(*module).loaded());
  }
  auto result = extract::ExtractFile(registry, FirstOfKind("pdf"), {});
  REQUIRE_MESSAGE(result.ok(), result.error().ToString());
  CHECK(result->extraction.extractor == "pdf");
  for (const auto& module : registry.modules()) {
    INFO(module->name());
    CHECK(dynamic_cast<const PluginModule&>(*module).loaded() == (module->name() == "pdf"));
  }
}

TEST_CASE("plugins: a missing plugin directory is an error naming the plugin's file") {
  const TempDir dir;
  const std::string missing = (dir / "no-such-dir").string();
  const extract::Registry registry = extract::PluginRegistry(missing);
  auto result = extract::ExtractFile(registry, FirstOfKind("pdf"), {});
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().code() == Errc::kUnsupported);
  const std::string message = result.error().ToString();
  CHECK(message.find(missing + "/quarry-extract-pdf.so") != std::string::npos);
  CHECK(message.find("cannot load") != std::string::npos);
  // The same error again, without a second attempt hiding the first reason.
  auto again = extract::ExtractFile(registry, FirstOfKind("pdf"), {});
  REQUIRE_FALSE(again.ok());
  CHECK(again.error().ToString() == message);
  // Every plugin is named by LoadAllPlugins.
  auto all = extract::LoadAllPlugins(registry);
  REQUIRE_FALSE(all.ok());
  for (const extract::PluginSpec& spec : extract::BuiltinPluginSpecs()) {
    CHECK(all.error().ToString().find(missing + "/" + spec.file) != std::string::npos);
  }
}

TEST_CASE("plugins: a broken plugin is an error naming its file and what is wrong") {
  const TempDir dir;
  const std::string built = extract::PluginDirectory();
  const std::string pdf_plugin = (dir / "quarry-extract-pdf.so").string();
  const auto extract_pdf = [&] {
    // A fresh registry each time: a plugin's load is attempted once per registry.
    const extract::Registry registry = extract::PluginRegistry(dir.path().string());
    return extract::ExtractFile(registry, FirstOfKind("pdf"), {});
  };

  SUBCASE("not a shared object") {
    dir.Write("quarry-extract-pdf.so", "this is not an ELF file\n");
    auto result = extract_pdf();
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().ToString().find(pdf_plugin + ": cannot load") != std::string::npos);
  }
  SUBCASE("a shared object without the entry symbol") {
    // Any real library will do; libmagic is always there (the core links it).
    bool copied = false;
    for (const char* candidate : {"/usr/lib/x86_64-linux-gnu/libmagic.so.1",
                                  "/usr/lib/aarch64-linux-gnu/libmagic.so.1", "/usr/lib/libmagic.so.1"}) {
      if (std::filesystem::exists(candidate)) {
        std::filesystem::copy_file(candidate, pdf_plugin);
        copied = true;
        break;
      }
    }
    REQUIRE(copied);
    auto result = extract_pdf();
    REQUIRE_FALSE(result.ok());
    const std::string message = result.error().ToString();
    CHECK(message.find(pdf_plugin) != std::string::npos);
    CHECK(message.find("no quarry_extract_module_v2 symbol") != std::string::npos);
  }
  SUBCASE("another module's plugin under the PDF plugin's name") {
    std::filesystem::copy_file(built + "/quarry-extract-audio.so", pdf_plugin);
    auto result = extract_pdf();
    REQUIRE_FALSE(result.ok());
    const std::string message = result.error().ToString();
    CHECK(message.find(pdf_plugin) != std::string::npos);
    CHECK(message.find("holds the module \"audio\", expected \"pdf\"") != std::string::npos);
  }
}

TEST_CASE("plugins: QUARRY_EXTRACT_PLUGIN_DIR overrides where plugins are looked for") {
  const std::string built = extract::PluginDirectory();
  REQUIRE(std::filesystem::exists(built + "/quarry-extract-pdf.so"));
  ::setenv("QUARRY_EXTRACT_PLUGIN_DIR", "/elsewhere", 1);
  CHECK(extract::PluginDirectory() == "/elsewhere");
  ::unsetenv("QUARRY_EXTRACT_PLUGIN_DIR");
  CHECK(extract::PluginDirectory() == built);
}

TEST_CASE("MIME: every corpus format gets its shared-mime-info name and its module") {
  REQUIRE_MESSAGE(!extract::MimeInfo().empty(), "shared-mime-info is not installed");
  // What GIO names each format of the corpus (Gio.content_type_guess with the file's bytes,
  // checked by hand), and the module the registry must choose for it.
  struct Expected {
    std::string_view extension;
    std::string_view mime_type;
    std::string_view module;
  };
  constexpr Expected kExpected[] = {
      {".txt", "text/plain", "text"},
      {".md", "text/markdown", "text"},
      {".pdf", "application/pdf", "pdf"},
      {".mp3", "audio/mpeg", "audio"},
      {".flac", "audio/flac", "audio"},
      {".ogg", "audio/x-vorbis+ogg", "audio"},
      {".opus", "audio/x-opus+ogg", "audio"},
      {".jpg", "image/jpeg", "image"},
      {".JPG", "image/jpeg", "image"},
      {".png", "image/png", "image"},
      {".html", "text/html", "html"},
      {".js", "application/javascript", "text"},
      {".c", "text/x-csrc", "text"},
      {".h", "text/x-chdr", "text"},
      {".py", "text/x-python", "text"},
      {".sh", "application/x-shellscript", "text"},
      {".rs", "text/rust", "text"},
      {".json", "application/json", "text"},
      {".csv", "text/csv", "text"},
      {".xml", "application/xml", "text"},
  };
  const extract::Registry registry = extract::BuiltinRegistry();
  std::set<std::string> seen;
  for (const auto& entry : Manifest()["files"]) {
    if (!entry.contains("ext")) continue;
    const std::string extension = entry["ext"];
    const Expected* expected = nullptr;
    for (const Expected& candidate : kExpected) {
      if (candidate.extension == extension) expected = &candidate;
    }
    if (expected == nullptr) continue;  // .zip, .bin: no module
    const std::string path = CorpusPath(entry);
    INFO(path);
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    REQUIRE(fd >= 0);
    auto mime = extract::DetectMimeType(fd, path);
    ::close(fd);
    REQUIRE(mime.ok());
    CHECK(*mime == expected->mime_type);
    const extract::Module* module = registry.Find(*mime, path);
    REQUIRE(module != nullptr);
    CHECK(module->name() == expected->module);
    seen.insert(extension);
  }
  CHECK(seen.size() == std::size(kExpected));
}

}  // namespace
}  // namespace quarry::testing
