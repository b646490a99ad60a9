// The pure core: deterministic IRIs, file URLs, registry choice, MIME detection.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "extract/core/iri.h"
#include "extract/core/mime.h"
#include "extract/core/module.h"
#include "extract/core/rdf_text.h"
#include "store/common/sparql_quote.h"
#include "store/common/unique_fd.h"
#include "tests/support/temp_dir.h"

namespace quarry::extract {
namespace {

// The escaper as it was written before it appended runs whole: one byte at a time.
std::string EscapedByteByByte(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  return out + "\"";
}

TEST_CASE("AppendStringLiteral: every escape, appended in place after what is there") {
  std::string every_byte;
  for (int c = 0; c < 256; ++c) every_byte.push_back(static_cast<char>(c));
  const std::vector<std::string> texts = {
      "", "plain", "\\", "\"", "\n\r\t", "a\"b\\c\nd\re\tf", "\"\"\\\\\n\n", "end\\",
      "\tstart", "caf\xC3\xA9 \xE2\x80\x94 \xF0\x9F\x98\x80", every_byte, every_byte + every_byte,
      std::string(70000, 'x') + "\"" + std::string(3, '\n')};
  for (const std::string& text : texts) {
    std::string out = "prefix ";
    rdf_text::AppendStringLiteral(text, out);
    CHECK(out == "prefix " + EscapedByteByByte(text));
    CHECK(SparqlString(text) == EscapedByteByByte(text));
  }
  std::string out;
  rdf_text::AppendStringLiteral("say \"hi\"\\\n", out);
  CHECK(out == R"("say \"hi\"\\\n")");
}

TEST_CASE("DeterministicIri: one resource however the name is cased or composed") {
  CHECK(DeterministicIri("artist", {"ABBA"}) == DeterministicIri("artist", {"abba"}));
  // "é" precomposed (U+00E9) and decomposed (e + U+0301) are one name.
  CHECK(DeterministicIri("artist", {"Beyonc\xC3\xA9"}) ==
        DeterministicIri("artist", {"Beyonce\xCC\x81"}));
  CHECK(DeterministicIri("artist", {"Stra\xC3\x9F"
                                    "e"}) == DeterministicIri("artist", {"STRASSE"}));
  CHECK(DeterministicIri("artist", {"ABBA"}) != DeterministicIri("album", {"ABBA"}));
  CHECK(DeterministicIri("artist", {"ABBA"}) == "urn:quarry:artist:abba");
  // Non-ASCII goes through ICU (loaded at run time): folded, NFC, invalid UTF-8 as U+FFFD.
  CHECK(DeterministicIri("artist", {"BEYONCE\xCC\x81"}) == "urn:quarry:artist:beyonc%C3%A9");
  CHECK(DeterministicIri("artist", {"\xCE\xA3\xCE\x9F\xCE\xA6\xCE\x99\xCE\x91"}) ==
        "urn:quarry:artist:%CF%83%CE%BF%CF%86%CE%B9%CE%B1");  // ΣΟΦΙΑ → σοφια
  CHECK(DeterministicIri("tag", {"A\xFF" "B"}) == "urn:quarry:tag:a%EF%BF%BDb");
}

// ICU's own answer (the C++ API, linked into this test): fold, NFC, UTF-8.
std::string IcuFolded(std::string_view text) {
  icu::UnicodeString unicode =
      icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  unicode.foldCase();
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  REQUIRE(U_SUCCESS(status));
  const icu::UnicodeString normalized = nfc->normalize(unicode, status);
  REQUIRE(U_SUCCESS(status));
  std::string out;
  return normalized.toUTF8String(out);
}

TEST_CASE("DeterministicIri: ICU's folding and NFC, whether ICU runs or the Latin-1 path does") {
  std::vector<std::string> names = {"ABBA", "Stra\xC3\x9F" "e", "\xC2\xB5-Tron", "caf\xC3\xA9",
                                    "Beyonce\xCC\x81", "\xC3\x89" "e\xCC\x81", "\xE1\xBA\x9E",
                                    "\xCE\xA3\xCE\x9F\xCE\xA6", "bad \xC3 byte", "\xC0\xAF",
                                    "\xED\x9F\xBF", "\xEF\xAC\x80", "A\xC3\x97" "B"};
  for (unsigned code_point = 0x80; code_point <= 0xFF; ++code_point) {
    names.push_back(std::string("X") + static_cast<char>(0xC0 | code_point >> 6) +
                    static_cast<char>(0x80 | (code_point & 0x3F)) + "y");
  }
  for (const std::string& name : names) {
    INFO(name);
    std::string expected = "urn:quarry:artist:";
    AppendIriEncoded(IcuFolded(name), "", expected);
    CHECK(DeterministicIri("artist", {name}) == expected);
  }
}

TEST_CASE("DeterministicIri: parts are separated unambiguously and encoded") {
  CHECK(DeterministicIri("album", {"a b", "c"}) != DeterministicIri("album", {"a", "b c"}));
  CHECK(DeterministicIri("album", {"a/b", "c"}) != DeterministicIri("album", {"a", "b/c"}));
  CHECK(DeterministicIri("album", {"a b", "c"}) == "urn:quarry:album:a%20b/c");
  CHECK(DeterministicIri("tag", {"<x> \"y\""}) == "urn:quarry:tag:%3Cx%3E%20%22y%22");
}

TEST_CASE("FileUrl and ElementIri keep the case and encode every odd byte") {
  CHECK(FileUrl("/home/u/A b#1.pdf") == "file:///home/u/A%20b%231.pdf");
  CHECK(FileUrl("/x/bad-\xFF.txt") == "file:///x/bad-%FF.txt");
  CHECK(ElementIri(FileUrl("/a/A.pdf")) != ElementIri(FileUrl("/a/a.pdf")));
  CHECK(ElementIri("file:///a.pdf") == "urn:quarry:ie:file:///a.pdf");
}

class FakeModule final : public Module {
 public:
  FakeModule(std::string name, std::vector<std::string> types, std::vector<std::string> exts)
      : name_(std::move(name)), types_(std::move(types)), extensions_(std::move(exts)) {}
  std::string_view name() const override { return name_; }
  std::vector<std::string> mime_types() const override { return types_; }
  std::vector<std::string> extensions() const override { return extensions_; }
  Result<void> Extract(const FileInput&, const Limits&, Extraction&) const override { return Ok(); }

 private:
  std::string name_;
  std::vector<std::string> types_;
  std::vector<std::string> extensions_;
};

TEST_CASE("Registry: a type no module names goes to its shared-mime-info ancestors' module") {
  REQUIRE_MESSAGE(!MimeInfo().empty(), "shared-mime-info is not installed (scripts/install-deps)");
  Registry registry;
  registry.Register(std::make_unique<FakeModule>("text", std::vector<std::string>{"text/*"},
                                                 std::vector<std::string>{"txt"}));
  const auto name_of = [&](std::string_view mime, std::string_view file) -> std::string {
    const Module* module = registry.Find(mime, file);
    return module ? std::string(module->name()) : "none";
  };
  CHECK(name_of("application/toml", "Cargo.toml") == "text");     // toml < text/plain
  CHECK(name_of("application/x-yaml", "ci.yaml") == "text");
  CHECK(name_of("application/json", "a.json") == "text");         // json < javascript < text
  CHECK(name_of("application/x-shellscript", "run.sh") == "text");
  CHECK(name_of("image/png", "a.png") == "none");
  CHECK(name_of("application/x-compressed-tar", "a.tar.gz") == "none");  // not text
}

TEST_CASE("Registry: exact MIME type, then wildcard, then extension for vague types only") {
  Registry registry;
  registry.Register(std::make_unique<FakeModule>("audio", std::vector<std::string>{"audio/*"},
                                                 std::vector<std::string>{"mp3"}));
  registry.Register(std::make_unique<FakeModule>(
      "playlist", std::vector<std::string>{"audio/x-mpegurl"}, std::vector<std::string>{"m3u"}));
  registry.Register(std::make_unique<FakeModule>("pdf", std::vector<std::string>{"application/pdf"},
                                                 std::vector<std::string>{"pdf"}));
  const auto name_of = [&](std::string_view mime, std::string_view file) -> std::string {
    const Module* module = registry.Find(mime, file);
    return module ? std::string(module->name()) : "none";
  };
  CHECK(name_of("audio/x-mpegurl", "a.m3u") == "playlist");  // exact beats an earlier wildcard
  CHECK(name_of("audio/flac", "a.flac") == "audio");
  CHECK(name_of("application/pdf", "really-a-pdf.mp3") == "pdf");  // content beats the name
  CHECK(name_of("application/octet-stream", "x/A.PDF") == "pdf");
  CHECK(name_of("inode/x-empty", "empty.mp3") == "audio");
  CHECK(name_of("application/x-zerosize", "empty.mp3") == "audio");
  CHECK(name_of("image/png", "a.pdf") == "none");  // a known other type keeps its type
  CHECK(name_of("application/octet-stream", "noext") == "none");
}

// A small shared-mime-info directory: weights, a case-sensitive glob, literal names, a longer
// suffix, patterns, conflicting globs, aliases and subclasses.
const char kGlobs2[] =
    "# This file was automatically generated by the\n"
    "# update-mime-database command. DO NOT EDIT!\n"
    "80:text/html:*.htm\n"
    "60:text/x-python:*.py\n"
    "50:application/xhtml+xml:*.htm\n"
    "50:text/x-python3:*.py\n"
    "50:text/plain:*.txt\n"
    "50:text/x-csrc:*.c\n"
    "50:text/x-c++src:*.C:cs\n"
    "50:application/gzip:*.gz\n"
    "50:application/x-compressed-tar:*.tar.gz\n"
    "50:audio/ogg:*.ogg\n"
    "50:video/ogg:*.ogg\n"
    "50:audio/x-vorbis+ogg:*.ogg\n"
    "50:text/vnd.trolltech.linguist:*.ts\n"
    "50:video/mp2t:*.ts\n"
    "50:text/x-makefile:makefile\n"
    "50:application/x-core:core:cs\n"
    "50:application/x-troff-man:*.[1-9]\n"
    "50:application/x-trash:*~\n"
    "10:text/x-readme:readme*\n"
    "10:text/x-makefile:makefile.*\n";
const char kAliases[] =
    "text/x-c text/x-csrc\n"
    "audio/x-flac audio/flac\n"
    "application/x-pdf application/pdf\n";
const char kSubclasses[] =
    "text/x-python3 text/x-python\n"
    "text/x-python text/plain\n"
    "text/vnd.trolltech.linguist application/xml\n"
    "application/xml text/plain\n"
    "audio/x-vorbis+ogg audio/ogg\n"
    "video/mp2t application/octet-stream\n";

MimeDatabase SmallDatabase(const testing::TempDir& dir) {
  dir.Write("mime/globs2", kGlobs2);
  dir.Write("mime/aliases", kAliases);
  dir.Write("mime/subclasses", kSubclasses);
  auto loaded = MimeDatabase::Load((dir.path() / "mime").string());
  REQUIRE_MESSAGE(loaded.ok(), (loaded ? std::string() : loaded.error().ToString()));
  return std::move(*loaded);
}

std::string Joined(const std::vector<std::string_view>& types) {
  std::string joined;
  for (std::string_view type : types) {
    if (!joined.empty()) joined += ' ';
    joined += type;
  }
  return joined;
}

TEST_CASE("MimeDatabase: globs by weight, case and length, as GIO matches them") {
  testing::TempDir dir;
  const MimeDatabase database = SmallDatabase(dir);
  CHECK(database.glob_count() == 20);
  const auto match = [&](std::string_view name) { return Joined(database.MatchName(name)); };
  CHECK(match("notes.txt") == "text/plain");
  CHECK(match("/home/me/NOTES.TXT") == "text/plain");        // case-insensitive, folder ignored
  CHECK(match("main.c") == "text/x-csrc");
  CHECK(match("main.C") == "text/x-c++src");                 // the case-sensitive glob first
  CHECK(match("page.htm") == "text/html");                   // weight 80 over 50
  CHECK(match("run.py") == "text/x-python");                 // weight 60 over 50
  CHECK(match("backup.tar.gz") == "application/x-compressed-tar");  // longest suffix
  CHECK(match("x.gz") == "application/gzip");
  CHECK(match("Makefile") == "text/x-makefile");             // a literal name, any case
  CHECK(match("Makefile.am") == "text/x-makefile");          // a pattern
  CHECK(match("core") == "application/x-core");
  CHECK(match("CORE").empty());                              // case-sensitive literal
  CHECK(match("README.md") == "text/x-readme");
  CHECK(match("ls.1") == "application/x-troff-man");
  CHECK(match("draft~") == "application/x-trash");
  CHECK(match("song.ogg") == "audio/ogg video/ogg audio/x-vorbis+ogg");  // a conflict
  CHECK(match("app.ts") == "text/vnd.trolltech.linguist video/mp2t");
  CHECK(match("noextension").empty());
  CHECK(match("photo.heic").empty());
  CHECK(match(".txt") == "text/plain");  // "*" matches the empty string
}

TEST_CASE("MimeDatabase: aliases and libmagic names map to shared-mime-info names") {
  testing::TempDir dir;
  const MimeDatabase database = SmallDatabase(dir);
  CHECK(database.Canonical("text/x-c") == "text/x-csrc");
  CHECK(database.Canonical("audio/x-flac") == "audio/flac");
  CHECK(database.Canonical("application/x-pdf") == "application/pdf");
  CHECK(database.Canonical("text/x-c++") == "text/x-c++src");  // libmagic's own names
  CHECK(database.Canonical("text/x-shellscript") == "application/x-shellscript");
  CHECK(database.Canonical("inode/x-empty") == "application/x-zerosize");
  CHECK(database.Canonical("application/pdf") == "application/pdf");
  CHECK(database.Canonical("application/x-unknown") == "application/x-unknown");
  CHECK(database.IsA("text/x-python3", "text/plain"));
  CHECK(database.IsA("text/x-csrc", "text/plain"));  // every text/* is text/plain
  CHECK(database.IsA("audio/x-vorbis+ogg", "audio/ogg"));
  CHECK_FALSE(database.IsA("audio/ogg", "audio/x-vorbis+ogg"));
  CHECK(database.IsA("image/png", "application/octet-stream"));
  CHECK_FALSE(database.IsA("video/mp2t", "text/plain"));
  // Conflicting globs: the first that derives from the sniffed type; a sniffed refinement of
  // one of them; a non-text sniff over unrelated globs; else the first glob.
  const std::vector<std::string_view> ts{"text/vnd.trolltech.linguist", "video/mp2t"};
  CHECK(database.Resolve(ts, "text/plain") == "text/vnd.trolltech.linguist");
  CHECK(database.Resolve(ts, "application/octet-stream") == "text/vnd.trolltech.linguist");
  CHECK(database.Resolve(ts, "text/x-c") == "text/vnd.trolltech.linguist");
  CHECK(database.Resolve(ts, "application/x-pdf") == "application/pdf");
  const std::vector<std::string_view> ogg{"video/ogg", "audio/ogg"};
  CHECK(database.Resolve(ogg, "audio/ogg") == "audio/ogg");
  CHECK(database.Resolve(ogg, "audio/x-vorbis+ogg") == "audio/x-vorbis+ogg");
  CHECK(database.Resolve({}, "text/x-c") == "text/x-csrc");
}

TEST_CASE("GuessMimeType: the name decides without a read, content only when it cannot") {
  testing::TempDir dir;
  const MimeDatabase database = SmallDatabase(dir);
  int sniffs = 0;
  std::string last_candidates;
  const auto guess = [&](std::string_view name, std::string sniffed) {
    auto type = GuessMimeType(database, name, [&](const std::vector<std::string_view>& candidates) -> Result<std::string> {
      ++sniffs;
      last_candidates = Joined(candidates);
      return sniffed;
    });
    REQUIRE(type.ok());
    return *type;
  };
  CHECK(guess("paper.txt", "application/pdf") == "text/plain");  // a PDF named .txt: GIO's answer
  CHECK(guess("main.c", "text/x-c") == "text/x-csrc");
  CHECK(sniffs == 0);
  CHECK(guess("paper", "application/pdf") == "application/pdf");
  CHECK(guess("script", "text/x-shellscript") == "application/x-shellscript");
  CHECK(guess("empty", "inode/x-empty") == "application/x-zerosize");
  CHECK(last_candidates.empty());
  CHECK(guess("song.ogg", "audio/ogg") == "audio/ogg");
  CHECK(sniffs == 4);
  CHECK(last_candidates == "audio/ogg video/ogg audio/x-vorbis+ogg");
  // Content that cannot be read: a conflict takes the first glob, no glob is the error.
  const auto unreadable = [](const std::vector<std::string_view>&) {
    return Result<std::string>(Error(Errc::kIo, "unreadable"));
  };
  auto conflict = GuessMimeType(database, "song.ogg", unreadable);
  REQUIRE(conflict.ok());
  CHECK(*conflict == "audio/ogg");
  CHECK_FALSE(GuessMimeType(database, "paper", unreadable).ok());
}

TEST_CASE("MimeDatabase: a missing globs2 is an error naming it, and libmagic decides alone") {
  testing::TempDir dir;
  auto missing = MimeDatabase::Load((dir.path() / "nowhere").string());
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().ToString().find((dir.path() / "nowhere/globs2").string()) !=
        std::string::npos);
  dir.Write("empty/globs2", "# nothing\n");
  CHECK_FALSE(MimeDatabase::Load((dir.path() / "empty").string()).ok());
  const MimeDatabase none;
  CHECK(none.empty());
  const auto guess = [&](std::string_view name, std::string sniffed) {
    auto type = GuessMimeType(none, name, [&](const std::vector<std::string_view>& candidates)
                                              -> Result<std::string> {
      CHECK(candidates.empty());
      return sniffed;
    });
    REQUIRE(type.ok());
    return *type;
  };
  // libmagic's answer, the extension breaking its vague ones (the pre-shared-mime-info rules).
  CHECK(guess("paper.txt", "application/pdf") == "application/pdf");
  CHECK(guess("notes.md", "text/plain") == "text/markdown");
  CHECK(guess("report.docx", "application/zip") ==
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
  CHECK(guess("main.c", "text/x-c") == "text/x-c");
}

TEST_CASE("DetectMimeType: shared-mime-info names for real files, as GIO gives them") {
  REQUIRE_MESSAGE(!MimeInfo().empty(), "shared-mime-info is not installed (scripts/install-deps)");
  testing::TempDir dir;
  const auto type_of = [&](const std::string& name, const std::string& bytes) {
    const auto path = dir.Write(name, bytes);
    const UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
    REQUIRE(fd.valid());
    auto mime = DetectMimeType(fd.get(), path.string());
    REQUIRE(mime.ok());
    return *mime;
  };
  const std::string pdf = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<<>>\nendobj\n";
  CHECK(type_of("paper.txt", pdf) == "text/plain");  // the name decides, as in GIO
  CHECK(type_of("paper", pdf) == "application/pdf");
  CHECK(type_of("PAPER.PDF", pdf) == "application/pdf");
  CHECK(type_of("notes.md", "# Title\n\nSome text.\n") == "text/markdown");
  CHECK(type_of("main.c", "#include <stdio.h>\nint main(void) { return 0; }\n") == "text/x-csrc");
  CHECK(type_of("util.h", "int f(void);\n") == "text/x-chdr");
  CHECK(type_of("Main.C", "int main() {}\n") == "text/x-c++src");
  CHECK(type_of("tool.py", "print(1)\n") == "text/x-python");
  CHECK(type_of("run.sh", "echo hi\n") == "application/x-shellscript");
  CHECK(type_of("run", "#!/bin/sh\necho hi\n") == "application/x-shellscript");
  CHECK(type_of("lib.rs", "fn main() {}\n") == "text/rust");
  CHECK(type_of("app.js", "let a = 1;\n") == "application/javascript");
  CHECK(type_of("song.flac", "fLaC") == "audio/flac");
  CHECK(type_of("photo.JPG", "\xff\xd8\xff\xe0") == "image/jpeg");
  CHECK(type_of("Makefile", "all:\n") == "text/x-makefile");
  CHECK(type_of("backup.tar.gz", "") == "application/x-compressed-tar");
  // Conflicting globs: text for a text glob without libmagic, an Ogg stream by its codec.
  CHECK(type_of("data.json", "{\"a\": 1}\n") == "application/json");
  CHECK(type_of("app.ts", "let a: number = 1;\n") == "text/vnd.trolltech.linguist");
  const std::string ogg_page = std::string("OggS\0\x02", 6) + std::string(22, '\0');
  CHECK(type_of("song.ogg", ogg_page + "\x01vorbis\0\0\0\0") == "audio/x-vorbis+ogg");
  CHECK(type_of("talk.opus", ogg_page + "OpusHead\x01\x02") == "audio/x-opus+ogg");
  CHECK(type_of("clip.ogg", ogg_page + "\x80theora\x03\x02") == "video/x-theora+ogg");
  CHECK(type_of("empty.pdf", "") == "application/pdf");
  CHECK(type_of("empty", "") == "application/x-zerosize");
}

}  // namespace
}  // namespace quarry::extract
