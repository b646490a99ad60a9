// Extractor plugins (extract/core/plugin.h): every built-in plugin loads and its module says
// what the registry's table says; plugins are loaded on first use only; a missing or broken
// plugin is a clear error naming its file. The MIME signature fast path (core/mime.h) agrees
// with libmagic on the whole corpus, hostile set included.
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
    CHECK(message.find("no quarry_extract_module_v1 symbol") != std::string::npos);
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

TEST_CASE("MIME: the signature fast path gives libmagic's answer on every corpus file") {
  CHECK(extract::SniffMimeType("pdf", "%PDF-1.7\n") == "application/pdf");
  CHECK(extract::SniffMimeType("mp3", "%PDF-1.7\n").empty());  // a PDF named .mp3: libmagic
  CHECK(extract::SniffMimeType("pdf", "ID3\x04").empty());
  CHECK(extract::SniffMimeType("txt", "%PDF-1.7\n").empty());  // no signature for text
  CHECK(extract::SniffMimeType("flac", "").empty());
  // Text formats: clean UTF-8 text takes the extension's type; anything libmagic may call
  // something specific (markup, a script, PDF, JSON in a .txt, binary bytes) goes to libmagic.
  CHECK(extract::SniffMimeType("txt", "Some words.\r\n\tcaf\xC3\xA9\n") == "text/plain");
  CHECK(extract::SniffMimeType("md", "\xEF\xBB\xBF# Title\n") == "text/markdown");
  CHECK(extract::SniffMimeType("markdown", "text") == "text/markdown");
  CHECK(extract::SniffMimeType("csv", "a,b\n1,2\n") == "text/csv");
  CHECK(extract::SniffMimeType("json", "  {\"a\": 1}") == "application/json");
  CHECK(extract::SniffMimeType("txt", "{\"a\": 1}").empty());
  CHECK(extract::SniffMimeType("md", "\n  <!DOCTYPE html><html>").empty());
  CHECK(extract::SniffMimeType("txt", "#!/bin/sh\necho\n").empty());
  CHECK(extract::SniffMimeType("txt", "From someone@example.org Mon\n").empty());
  CHECK(extract::SniffMimeType("txt", "\\documentclass{article}").empty());
  CHECK(extract::SniffMimeType("txt", std::string_view("a\0b", 3)).empty());
  CHECK(extract::SniffMimeType("txt", "a\x01" "b").empty());
  CHECK(extract::SniffMimeType("txt", "a\x7f").empty());
  CHECK(extract::SniffMimeType("txt", "colour \x1b[1mbold\x1b[0m") == "text/plain");  // ESC is text
  CHECK(extract::SniffMimeType("txt", "caf\xE9 latin-1").empty());     // not UTF-8: libmagic
  CHECK(extract::SniffMimeType("txt", "\xED\xA0\x80 surrogate").empty());
  CHECK(extract::SniffMimeType("txt", "\xC0\xAF overlong").empty());
  CHECK(extract::SniffMimeType("txt", " \n\t").empty());              // only blanks
  CHECK(extract::SniffMimeType("txt", "cut \xE2\x82").empty());       // cut at the end of file
  CHECK(extract::SniffMimeType("txt", "cut \xE2\x82", true) == "text/plain");  // file goes on
  CHECK(extract::SniffMimeType("html", "\n<!DOCTYPE HTML>\n<html>") == "text/html");
  CHECK(extract::SniffMimeType("htm", "<html lang=en>") == "text/html");
  CHECK(extract::SniffMimeType("html", "<?xml version=\"1.0\"?><html>").empty());
  CHECK(extract::SniffMimeType("html", std::string_view("<!DOCTYPE html>\0", 16)).empty());
  CHECK(extract::SniffMimeType("html", "plain words").empty());
  CHECK(extract::SniffMimeType("py", "print(1)\n").empty());

  size_t compared = 0;
  size_t sniffed = 0;
  std::set<std::string> sniffed_types;
  std::error_code error;
  for (auto it = std::filesystem::recursive_directory_iterator(
           kCorpusDir, std::filesystem::directory_options::skip_permission_denied, error);
       it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (error) break;
    if (it->is_symlink() || !it->is_regular_file()) continue;
    const std::string path = it->path().string();
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;  // hostile/perm/unreadable.txt
    INFO(path);
    auto fast = extract::DetectMimeType(fd, path);
    auto slow = extract::DetectMimeTypeWithLibmagic(fd, path);
    char head[extract::kMimeHeadBytes];
    const ssize_t got = ::pread(fd, head, sizeof head, 0);
    ::close(fd);
    REQUIRE(fast.ok());
    REQUIRE(slow.ok());
    CHECK(*fast == *slow);
    ++compared;
    const std::string_view sniff = extract::SniffMimeType(
        extract::LowerExtension(path), std::string_view(head, got > 0 ? static_cast<size_t>(got) : 0),
        got == static_cast<ssize_t>(sizeof head));
    if (!sniff.empty()) {
      ++sniffed;
      sniffed_types.insert(std::string(sniff));
    }
  }
  CHECK(compared > 150);
  // The fast path really ran: PDFs, FLAC, JPEG, PNG and ID3-tagged MP3s of the corpus, and its
  // plain text, Markdown, CSV, JSON and HTML files.
  CHECK(sniffed > 40);
  CHECK(sniffed_types == std::set<std::string>{"application/json", "application/pdf",
                                               "audio/flac", "audio/mpeg", "image/jpeg",
                                               "image/png", "text/csv", "text/html",
                                               "text/markdown", "text/plain"});
}

}  // namespace
}  // namespace quarry::testing
