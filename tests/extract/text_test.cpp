// The text module against the generated corpus (txt, md, code, data) and built files: encoding
// conversion, the text cap, counts, classes, and binary input refused with a clear error.
#include <doctest/doctest.h>

#include <sstream>

#include "extract/core/vocab.h"
#include "extract/modules/text_module.h"
#include "extract/modules/text_reader.h"
#include "tests/extract/extract_test_util.h"
#include "tests/support/temp_dir.h"

namespace quarry::extract {
namespace {

using testing::CorpusPath;
using testing::Entries;
using testing::One;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::string Latin1ToUtf8(std::string_view latin1) {
  std::string utf8;
  for (const char c : latin1) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80) {
      utf8.push_back(c);
    } else {
      utf8.push_back(static_cast<char>(0xC0 | (byte >> 6)));
      utf8.push_back(static_cast<char>(0x80 | (byte & 0x3F)));
    }
  }
  return utf8;
}

Result<Extraction> RunText(const std::string& path, const Limits& limits = {},
                           const std::string& mime = "text/plain") {
  Extraction out;
  out.extractor = "text";
  QUARRY_TRY(MakeTextModule()->Extract({path, mime}, limits, out));
  return out;
}

bool HasType(const Description& description, const std::string& type) {
  return std::find(description.types.begin(), description.types.end(), type) !=
         description.types.end();
}

// The allowlist quarry-extract uses unless quarry.toml says otherwise (MinerConfig's default,
// checked in tests/miner-fs/config_test.cpp).
const std::vector<std::string> kDefaultAllowlist = {"*.txt",  "*.text", "*.md",  "*.markdown",
                                                    "*.mdwn", "*.rst",  "*.org", "*.tex"};

Limits WithAllowlist(std::vector<std::string> globs) {
  Limits limits;
  limits.text_allowlist = std::move(globs);
  return limits;
}

TEST_CASE("text: with [\"*\"] corpus txt/md/code/data keep their needle, markers and titles") {
  const Registry registry = BuiltinRegistry();
  const auto entries = Entries({"txt", "md", "code", "data"});
  REQUIRE(entries.size() >= 10);
  for (const auto& entry : entries) {
    const std::string path = CorpusPath(entry);
    CAPTURE(path);
    auto result = ExtractFile(registry, path, WithAllowlist({"*"}));
    REQUIRE_MESSAGE(result.ok(), result.error().ToString());
    CHECK(result->extraction.extractor == "text");
    const Description& element = result->extraction.element;
    const auto content = One<std::string>(element, vocab::Nie("plainTextContent"));
    REQUIRE(content.has_value());
    CHECK(content->find(entry["needle"].get<std::string>()) != std::string::npos);
    for (const auto& marker : entry["markers"]) {
      CHECK(content->find(marker.get<std::string>()) != std::string::npos);
    }
    const std::string kind = entry["kind"];
    if (kind == "md") {
      CHECK(One<std::string>(element, vocab::Nie("title")) == entry["title"].get<std::string>());
    }
    CHECK(HasType(element, kind == "code" ? vocab::Nfo("SourceCode")
                                          : vocab::Nfo("PlainTextDocument")));
    if (kind == "code") {
      CHECK(One<std::string>(element, vocab::Nfo("programmingLanguage")).has_value());
    }
  }
}

TEST_CASE("text: Limits{} keeps the text of every file (quarry extract, the other tests)") {
  CHECK(Limits{}.text_allowlist == std::vector<std::string>{"*"});
}

TEST_CASE("text: the default allowlist stores the text of notes, not of code and data (issue 5)") {
  const Registry registry = BuiltinRegistry();
  const Limits limits = WithAllowlist(kDefaultAllowlist);
  int with_text = 0;
  int without_text = 0;
  for (const auto& entry : Entries({"txt", "md", "code", "data"})) {
    const std::string path = CorpusPath(entry);
    CAPTURE(path);
    auto result = ExtractFile(registry, path, limits);
    REQUIRE_MESSAGE(result.ok(), result.error().ToString());
    const Description& element = result->extraction.element;
    const std::string kind = entry["kind"];
    const auto content = One<std::string>(element, vocab::Nie("plainTextContent"));
    // The corpus names notes *.txt and *.md, code and data by their language or format.
    if (kind == "txt" || kind == "md") {
      ++with_text;
      REQUIRE(content.has_value());
      CHECK(content->find(entry["needle"].get<std::string>()) != std::string::npos);
    } else {
      ++without_text;
      CHECK_FALSE(content.has_value());
    }
    // Everything else stays.
    CHECK(One<std::string>(element, vocab::Nie("characterSet")).has_value());
    CHECK(One<int64_t>(element, vocab::Nfo("lineCount")).has_value());
    CHECK(One<int64_t>(element, vocab::Nfo("wordCount")).has_value());
    CHECK(HasType(element, kind == "code" ? vocab::Nfo("SourceCode")
                                          : vocab::Nfo("PlainTextDocument")));
    if (kind == "code") {
      CHECK(One<std::string>(element, vocab::Nfo("programmingLanguage")).has_value());
    }
    if (kind == "md") {
      CHECK(One<std::string>(element, vocab::Nie("title")) == entry["title"].get<std::string>());
    }
  }
  CHECK(with_text >= 5);
  CHECK(without_text >= 5);
}

TEST_CASE("text: the allowlist matches the file's name, in any case") {
  const testing::TempDir dir;
  const auto has_text = [](const Result<Extraction>& extraction) {
    REQUIRE_MESSAGE(extraction.ok(), extraction.error().ToString());
    return One<std::string>(extraction->element, vocab::Nie("plainTextContent")).has_value();
  };
  const Limits defaults = WithAllowlist(kDefaultAllowlist);
  SUBCASE("built files: notes, code, data") {
    CHECK(has_text(RunText(dir.Write("notes.txt", "kilo\n").string(), defaults)));
    CHECK(has_text(RunText(dir.Write("NOTES.TXT", "kilo\n").string(), defaults)));
    CHECK(has_text(RunText(dir.Write("Read.Me.Md", "# kilo\n").string(), defaults,
                           "text/markdown")));
    CHECK(has_text(RunText(dir.Write("paper.tex", "kilo\n").string(), defaults)));
    CHECK_FALSE(has_text(RunText(dir.Write("tool.py", "kilo = 1\n").string(), defaults)));
    CHECK_FALSE(has_text(RunText(dir.Write("rows.json", "{\"kilo\": 1}\n").string(), defaults,
                                 "application/json")));
    CHECK_FALSE(has_text(RunText(dir.Write("server.log", "kilo\n").string(), defaults)));
    CHECK_FALSE(has_text(RunText(dir.Write("README", "kilo\n").string(), defaults)));
  }
  SUBCASE("the folders' names do not count") {
    std::filesystem::create_directories(dir / "notes.txt");
    CHECK_FALSE(has_text(RunText(dir.Write("notes.txt/tool.py", "kilo\n").string(), defaults)));
    std::filesystem::create_directories(dir / "src.py");
    CHECK(has_text(RunText(dir.Write("src.py/todo.txt", "kilo\n").string(), defaults)));
  }
  SUBCASE("[\"*\"]: every file; []: none, yet counts and language stay") {
    const std::string code = dir.Write("tool.py", "kilo = 1\n").string();
    CHECK(has_text(RunText(code, WithAllowlist({"*"}))));
    CHECK(has_text(RunText(code, WithAllowlist({"*.PY"}))));
    auto none = RunText(code, WithAllowlist({}));
    CHECK_FALSE(has_text(none));
    CHECK(One<std::string>(none->element, vocab::Nfo("programmingLanguage")) == "Python");
    CHECK(One<int64_t>(none->element, vocab::Nfo("wordCount")) == 3);
    CHECK_FALSE(has_text(RunText(dir.Write("n.txt", "kilo\n").string(), WithAllowlist({}))));
  }
}

TEST_CASE("text: Latin-1 files are converted to the same UTF-8 as a Latin-1 decoder gives") {
  int latin1_files = 0;
  for (const auto& entry : Entries({"txt"})) {
    if (entry["encoding"] != "latin-1") continue;
    ++latin1_files;
    const std::string path = CorpusPath(entry);
    CAPTURE(path);
    auto extraction = RunText(path);
    REQUIRE_MESSAGE(extraction.ok(), extraction.error().ToString());
    CHECK(One<std::string>(extraction->element, vocab::Nie("plainTextContent")) ==
          Latin1ToUtf8(ReadAll(path)));
    CHECK(One<std::string>(extraction->element, vocab::Nie("characterSet")) != "UTF-8");
  }
  // The corpus promises ~2 % Latin-1 text files; the built one below covers a corpus without.
  const testing::TempDir dir;
  const std::string latin1 = "na\xEFve caf\xE9 r\xE9sum\xE9 \xFC" "ber fa\xE7" "ade\n";
  const auto path = dir.Write("latin1.txt", latin1);
  auto extraction = RunText(path.string());
  REQUIRE(extraction.ok());
  CHECK(One<std::string>(extraction->element, vocab::Nie("plainTextContent")) ==
        Latin1ToUtf8(latin1));
  MESSAGE(latin1_files << " Latin-1 files in the corpus");
}

TEST_CASE("text: line, word and character counts of a complete file") {
  const testing::TempDir dir;
  SUBCASE("LF, trailing newline") {
    auto extraction = RunText(dir.Write("a.txt", "one two\nthree  f\xC3\xBCnf\n").string());
    REQUIRE(extraction.ok());
    CHECK(One<int64_t>(extraction->element, vocab::Nfo("lineCount")) == 2);
    CHECK(One<int64_t>(extraction->element, vocab::Nfo("wordCount")) == 4);
    CHECK(One<int64_t>(extraction->element, vocab::Nfo("characterCount")) == 20);
  }
  SUBCASE("CRLF, no trailing newline") {
    auto extraction = RunText(dir.Write("b.txt", "a\r\nb\r\nc").string());
    REQUIRE(extraction.ok());
    CHECK(One<int64_t>(extraction->element, vocab::Nfo("lineCount")) == 3);
    CHECK(One<int64_t>(extraction->element, vocab::Nfo("wordCount")) == 3);
  }
  SUBCASE("empty file: no text, zero counts, not an error") {
    auto extraction = RunText(dir.Write("c.txt", "").string());
    REQUIRE(extraction.ok());
    CHECK(testing::Values(extraction->element, vocab::Nie("plainTextContent")).empty());
    CHECK(One<int64_t>(extraction->element, vocab::Nfo("lineCount")) == 0);
  }
}

TEST_CASE("text: the cap cuts on a character boundary and drops the counts") {
  const testing::TempDir dir;
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "\xC3\xA9";  // é, 2 bytes each
  const auto path = dir.Write("long.txt", text);
  Limits limits;
  limits.max_text_bytes = 101;  // odd: the cut falls inside an é
  auto extraction = RunText(path.string(), limits);
  REQUIRE(extraction.ok());
  const auto content = One<std::string>(extraction->element, vocab::Nie("plainTextContent"));
  REQUIRE(content.has_value());
  CHECK(*content == text.substr(0, 100));
  CHECK(testing::Values(extraction->element, vocab::Nfo("lineCount")).empty());
}

TEST_CASE("text: markdown title and code language by extension") {
  const testing::TempDir dir;
  auto md = RunText(dir.Write("n.md", "intro\n\n# The  Title ##\n\n## sub\n").string());
  REQUIRE(md.ok());
  CHECK(One<std::string>(md->element, vocab::Nie("title")) == "The  Title");
  auto code = RunText(dir.Write("m.rs", "fn main() {}\n").string());
  REQUIRE(code.ok());
  CHECK(HasType(code->element, vocab::Nfo("SourceCode")));
  CHECK(One<std::string>(code->element, vocab::Nfo("programmingLanguage")) == "Rust");
  auto script = RunText(dir.Write("run", "echo hi\n").string(), {}, "text/x-shellscript");
  REQUIRE(script.ok());
  CHECK(One<std::string>(script->element, vocab::Nfo("programmingLanguage")) == "Shell");
}

TEST_CASE("text: UTF-16 with a byte-order mark is converted") {
  const testing::TempDir dir;
  const std::string utf16le("\xFF\xFEh\0i\0 \0\xE9\0", 10);
  auto extraction = RunText(dir.Write("w.txt", utf16le).string());
  REQUIRE_MESSAGE(extraction.ok(), extraction.error().ToString());
  CHECK(One<std::string>(extraction->element, vocab::Nie("plainTextContent")) == "hi \xC3\xA9");
}

TEST_CASE("text: hostile files give clear errors or bounded text, never a hang") {
  const std::string hostile = testing::kCorpusDir + "/hostile/";
  SUBCASE("16 MiB on one line: only the cap is read") {
    auto extraction = RunText(hostile + "text/huge-single-line-16MiB.txt");
    REQUIRE(extraction.ok());
    const auto content = One<std::string>(extraction->element, vocab::Nie("plainTextContent"));
    REQUIRE(content.has_value());
    CHECK(content->size() <= Limits{}.max_text_bytes);
    CHECK(content->size() > Limits{}.max_text_bytes - 4);
  }
  SUBCASE("NUL bytes and random binary are refused as binary") {
    for (const char* name : {"wrong-ext/nul-bytes.txt", "wrong-ext/binary.txt",
                             "huge/sparse-zeros-64MiB.txt"}) {
      CAPTURE(name);
      auto extraction = RunText(hostile + name);
      REQUIRE_FALSE(extraction.ok());
      CHECK(extraction.error().message().find(name) != std::string::npos);
      CHECK(extraction.error().message().find("binary") != std::string::npos);
    }
  }
  SUBCASE("invalid UTF-8 still yields valid UTF-8 text") {
    auto extraction = RunText(hostile + "wrong-ext/invalid-utf8.txt");
    REQUIRE_MESSAGE(extraction.ok(), extraction.error().ToString());
    const auto content = One<std::string>(extraction->element, vocab::Nie("plainTextContent"));
    REQUIRE(content.has_value());
    auto again = DecodeText(*content, true, content->size(), "check");
    REQUIRE(again.ok());
    CHECK(again->charset == "UTF-8");
  }
  SUBCASE("a FIFO is refused without opening it for a blocking read") {
    auto extraction = RunText(hostile + "special/named-pipe.txt");
    REQUIRE_FALSE(extraction.ok());
    CHECK(extraction.error().message().find("not a regular file") != std::string::npos);
  }
  SUBCASE("50 lines of 100k characters: cut at the cap, so no counts") {
    auto extraction = RunText(hostile + "text/long-lines.md", {}, "text/markdown");
    REQUIRE(extraction.ok());
    const auto content = One<std::string>(extraction->element, vocab::Nie("plainTextContent"));
    REQUIRE(content.has_value());
    CHECK(content->size() <= Limits{}.max_text_bytes);
    CHECK(testing::Values(extraction->element, vocab::Nfo("lineCount")).empty());
  }
}

}  // namespace
}  // namespace quarry::extract
