#include "extract/modules/text_module.h"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "extract/core/mime.h"
#include "extract/core/vocab.h"
#include "extract/modules/text_reader.h"

namespace quarry::extract {
namespace {

enum class TextKind { kPlain, kMarkdown, kCode, kData };

struct KindRule {
  std::string_view key;  // an extension or a MIME type
  TextKind kind;
  std::string_view language;  // nfo:programmingLanguage, for code
};

constexpr std::array kExtensionRules = {
    KindRule{"txt", TextKind::kPlain, ""},        KindRule{"text", TextKind::kPlain, ""},
    KindRule{"log", TextKind::kPlain, ""},        KindRule{"md", TextKind::kMarkdown, ""},
    KindRule{"markdown", TextKind::kMarkdown, ""}, KindRule{"csv", TextKind::kData, ""},
    KindRule{"tsv", TextKind::kData, ""},         KindRule{"json", TextKind::kData, ""},
    KindRule{"xml", TextKind::kData, ""},         KindRule{"yaml", TextKind::kData, ""},
    KindRule{"yml", TextKind::kData, ""},         KindRule{"toml", TextKind::kData, ""},
    KindRule{"ini", TextKind::kData, ""},         KindRule{"c", TextKind::kCode, "C"},
    KindRule{"h", TextKind::kCode, "C"},          KindRule{"cpp", TextKind::kCode, "C++"},
    KindRule{"cc", TextKind::kCode, "C++"},       KindRule{"cxx", TextKind::kCode, "C++"},
    KindRule{"hpp", TextKind::kCode, "C++"},      KindRule{"hh", TextKind::kCode, "C++"},
    KindRule{"py", TextKind::kCode, "Python"},    KindRule{"js", TextKind::kCode, "JavaScript"},
    KindRule{"mjs", TextKind::kCode, "JavaScript"}, KindRule{"ts", TextKind::kCode, "TypeScript"},
    KindRule{"rs", TextKind::kCode, "Rust"},      KindRule{"java", TextKind::kCode, "Java"},
    KindRule{"sh", TextKind::kCode, "Shell"},     KindRule{"bash", TextKind::kCode, "Shell"},
    KindRule{"go", TextKind::kCode, "Go"},        KindRule{"rb", TextKind::kCode, "Ruby"},
    KindRule{"pl", TextKind::kCode, "Perl"},      KindRule{"php", TextKind::kCode, "PHP"},
    KindRule{"cs", TextKind::kCode, "C#"},        KindRule{"kt", TextKind::kCode, "Kotlin"},
    KindRule{"swift", TextKind::kCode, "Swift"},  KindRule{"lua", TextKind::kCode, "Lua"},
    KindRule{"sql", TextKind::kCode, "SQL"},      KindRule{"css", TextKind::kCode, "CSS"},
    KindRule{"cmake", TextKind::kCode, "CMake"},
};

// When the extension says nothing, the content's type decides (shared-mime-info's names, and
// libmagic's for a process without shared-mime-info).
constexpr std::array kMimeRules = {
    KindRule{"text/markdown", TextKind::kMarkdown, ""},
    KindRule{"text/x-markdown", TextKind::kMarkdown, ""},
    KindRule{"text/csv", TextKind::kData, ""},
    KindRule{"application/json", TextKind::kData, ""},
    KindRule{"application/xml", TextKind::kData, ""},
    KindRule{"text/xml", TextKind::kData, ""},
    KindRule{"text/x-csrc", TextKind::kCode, "C"},
    KindRule{"text/x-chdr", TextKind::kCode, "C"},
    KindRule{"text/x-c++src", TextKind::kCode, "C++"},
    KindRule{"text/x-c++hdr", TextKind::kCode, "C++"},
    KindRule{"text/x-python3", TextKind::kCode, "Python"},
    KindRule{"text/x-c", TextKind::kCode, "C"},
    KindRule{"text/x-c++", TextKind::kCode, "C++"},
    KindRule{"text/x-script.python", TextKind::kCode, "Python"},
    KindRule{"text/x-python", TextKind::kCode, "Python"},
    KindRule{"text/x-shellscript", TextKind::kCode, "Shell"},
    KindRule{"application/x-shellscript", TextKind::kCode, "Shell"},
    KindRule{"text/x-java", TextKind::kCode, "Java"},
    KindRule{"text/javascript", TextKind::kCode, "JavaScript"},
    KindRule{"application/javascript", TextKind::kCode, "JavaScript"},
};

KindRule Classify(const FileInput& file) {
  const std::string extension = LowerExtension(file.path);
  for (const KindRule& rule : kExtensionRules) {
    if (rule.key == extension) return rule;
  }
  for (const KindRule& rule : kMimeRules) {
    if (rule.key == file.mime_type) return rule;
  }
  return {"", TextKind::kPlain, ""};
}

std::string_view TrimSpaces(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

// The first level-1 ATX heading ("# Title", optional closing #s), the Markdown title.
std::string MarkdownTitle(std::string_view text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (line.starts_with("# ") || line.starts_with("#\t")) {
      line = TrimSpaces(line.substr(2));
      while (!line.empty() && line.back() == '#') line.remove_suffix(1);
      line = TrimSpaces(line);
      if (!line.empty()) return std::string(line);
    }
    start = end + 1;
  }
  return {};
}

// Whether the file's name (not its folders) matches a glob of the allowlist, as Tracker's
// text-allowlist matches: any case, so NOTES.TXT is a "*.txt".
bool IsTextAllowed(std::string_view path, const std::vector<std::string>& allowlist) {
  const size_t slash = path.rfind('/');
  const std::string name(slash == std::string_view::npos ? path : path.substr(slash + 1));
  return std::any_of(allowlist.begin(), allowlist.end(), [&](const std::string& glob) {
    return ::fnmatch(glob.c_str(), name.c_str(), FNM_CASEFOLD) == 0;
  });
}

class TextModule final : public Module {
 public:
  std::string_view name() const override { return "text"; }
  std::vector<std::string> mime_types() const override {
    std::vector<std::string> types{"text/*"};
    for (const KindRule& rule : kMimeRules) {
      if (!rule.key.starts_with("text/")) types.emplace_back(rule.key);
    }
    return types;
  }
  std::vector<std::string> extensions() const override {
    std::vector<std::string> extensions;
    for (const KindRule& rule : kExtensionRules) extensions.emplace_back(rule.key);
    return extensions;
  }

  Result<void> Extract(const FileInput& file, const Limits& limits,
                       Extraction& out) const override {
    QUARRY_ASSIGN_OR_RETURN(DecodedText text, ReadTextFile(file.path, limits.max_text_bytes));
    const KindRule kind = Classify(file);
    Description& element = out.element;
    element.AddType(kind.kind == TextKind::kCode ? vocab::Nfo("SourceCode")
                                                 : vocab::Nfo("PlainTextDocument"));
    if (kind.kind == TextKind::kMarkdown) {
      if (std::string title = MarkdownTitle(text.utf8); !title.empty()) {
        element.Add(vocab::Nie("title"), std::move(title));
      }
    }
    if (!kind.language.empty()) {
      element.Add(vocab::Nfo("programmingLanguage"), std::string(kind.language));
    }
    element.Add(vocab::Nie("characterSet"), text.charset);
    // Counts describe the whole file, so a file cut to the budget gets none rather than wrong ones.
    if (text.is_complete) {
      const TextCounts counts = CountText(text.utf8);
      element.Add(vocab::Nfo("lineCount"), counts.lines);
      element.Add(vocab::Nfo("wordCount"), counts.words);
      element.Add(vocab::Nfo("characterCount"), counts.characters);
    }
    // A file off the allowlist (source code, data dumps by default) keeps its class, language
    // and counts, and its name stays searchable (nfo:fileName), but its text is not stored:
    // on 100k text files that text was 39 % of all the text stored (issue 5).
    if (!text.utf8.empty() && IsTextAllowed(file.path, limits.text_allowlist)) {
      element.Add(vocab::Nie("plainTextContent"), std::move(text.utf8));
    }
    return Ok();
  }
};

}  // namespace

std::unique_ptr<Module> MakeTextModule() { return std::make_unique<TextModule>(); }

}  // namespace quarry::extract
