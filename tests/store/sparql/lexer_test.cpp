#include "store/sparql/lexer.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "store/common/sparql_quote.h"
#include "store/sparql/ast.h"

namespace quarry::sparql {
namespace {

std::vector<Token> LexAll(std::string_view text) {
  Lexer lexer(text);
  std::vector<Token> tokens;
  for (int guard = 0; guard < 1000; ++guard) {
    const Token token = lexer.Next();
    if (token.kind == TokenKind::kEnd) break;
    tokens.push_back(token);
    if (token.kind == TokenKind::kError) break;
  }
  return tokens;
}

std::vector<TokenKind> Kinds(std::string_view text) {
  std::vector<TokenKind> kinds;
  for (const Token& token : LexAll(text)) kinds.push_back(token.kind);
  return kinds;
}

using K = TokenKind;

TEST_CASE("Lexer: IRIs versus the less-than operator (longest match)") {
  CHECK(Kinds("<http://a/b>") == std::vector{K::kIriRef});
  CHECK(LexAll("<http://a/b>")[0].text == "http://a/b");
  CHECK(Kinds("?a < ?b") == std::vector{K::kVar, K::kLess, K::kVar});
  CHECK(Kinds("?a <= 3") == std::vector{K::kVar, K::kLessEq, K::kInteger});
  CHECK(Kinds("?a<?b}") == std::vector{K::kVar, K::kLess, K::kVar, K::kRBrace});
  CHECK(Kinds("<>") == std::vector{K::kIriRef});
}

TEST_CASE("Lexer: numbers keep their sign and type") {
  CHECK(Kinds("1 1.5 .5 1e3 1.e3 -2 +3.0 -.5e-2") ==
        std::vector{K::kInteger, K::kDecimal, K::kDecimal, K::kDouble, K::kDouble, K::kInteger,
                    K::kDecimal, K::kDouble});
  CHECK(LexAll("-2")[0].text == "-2");
  SUBCASE("a trailing dot ends the triple") {
    CHECK(Kinds("1.") == std::vector{K::kInteger, K::kDot});
  }
  SUBCASE("a sign before a space is an operator") {
    CHECK(Kinds("- 1") == std::vector{K::kMinus, K::kInteger});
  }
  SUBCASE("an exponent needs digits") { CHECK(Kinds("1e") == std::vector{K::kError}); }
}

TEST_CASE("Lexer: strings in all four quote styles") {
  CHECK(Kinds(R"('a' "b" '''c''' """d""")") ==
        std::vector{K::kString, K::kString, K::kString, K::kString});
  CHECK(LexAll(R"("""a "quoted" b""")")[0].text == R"("""a "quoted" b""")");
  CHECK(LexAll(R"('it\'s')")[0].has_escape);
  CHECK(Kinds("\"line\nbreak\"") == std::vector{K::kError});
  CHECK(Kinds("'''line\nbreak'''") == std::vector{K::kString});
  CHECK(Kinds("\"unterminated") == std::vector{K::kError});
}

// LexString skips the characters it need not look at in runs (issue 5: the extractor's text
// content); every stop inside a long run must still be seen where it is.
TEST_CASE("Lexer: long string literals end, escape and fail where their stop character is") {
  const std::string run(5000, 'x');
  const std::string plain = "\"" + run + "'" + run + "\"";
  REQUIRE(Kinds(plain + " ?v") == std::vector{K::kString, K::kVar});
  CHECK(LexAll(plain)[0].text == plain);
  CHECK_FALSE(LexAll(plain)[0].has_escape);
  const std::string escaped = "'" + run + "\\'" + run + "\\\\'";
  REQUIRE(Kinds(escaped) == std::vector{K::kString});
  CHECK(LexAll(escaped)[0].text.size() == escaped.size());
  CHECK(LexAll(escaped)[0].has_escape);
  CHECK(Kinds("\"" + run + "\n" + run + "\"") == std::vector{K::kError});
  CHECK(Kinds("\"" + run + "\r\"") == std::vector{K::kError});
  CHECK(Kinds("\"" + run) == std::vector{K::kError});
  CHECK(Kinds("\"" + run + "\\") == std::vector{K::kError});
  const std::string long_form = "\"\"\"" + run + "\n\"\"" + run + "\"\"\"";
  REQUIRE(Kinds(long_form + " .") == std::vector{K::kString, K::kDot});
  CHECK(LexAll(long_form)[0].text == long_form);
}

// LexString skips 16 bytes at a time while none is a stop (issue 5): a stop at any position of
// a block, and in the tail shorter than a block, must end, escape or fail the string there.
TEST_CASE("Lexer: a string's stop character is seen at every position of a block") {
  for (size_t before = 0; before < 40; ++before) {
    CAPTURE(before);
    const std::string head = "\"" + std::string(before, 'y');
    const auto ended = LexAll(head + "\" ?v");
    REQUIRE(ended.size() == 2);
    CHECK(ended[0].text.size() == before + 2);
    CHECK_FALSE(ended[0].has_escape);
    CHECK(ended[1].kind == K::kVar);
    const auto escaped = LexAll(head + "\\\"" + std::string(20, 'z') + "\"");
    REQUIRE(escaped.size() == 1);
    CHECK(escaped[0].has_escape);
    CHECK(escaped[0].text.size() == before + 24);
    CHECK(LexAll(head + "'" + std::string(20, 'z') + "\"")[0].text.size() == before + 23);
    CHECK(Kinds(head + "\n" + std::string(20, 'z') + "\"") == std::vector{K::kError});
    CHECK(Kinds(head + "\r\"") == std::vector{K::kError});
    CHECK(Kinds(head) == std::vector{K::kError});
  }
}

// In a long string only a backslash and its own quote stop the 16-byte skip (issue 5): line
// breaks and the other quote are content at every position of a block; the closing quotes and
// an escape still end or escape it there.
TEST_CASE("Lexer: a long string's line breaks are content at every position of a block") {
  for (size_t before = 0; before < 40; ++before) {
    CAPTURE(before);
    const std::string head = R"(""")" + std::string(before, 'y');
    const std::string tail = std::string(20, 'z') + R"(""")";
    for (const char content : {'\n', '\r', '\'', '\t'}) {
      CAPTURE(static_cast<int>(content));
      const std::string text = head + content + tail;
      const std::string source = text + " ?v";  // the tokens' text points into it
      const auto lexed = LexAll(source);
      REQUIRE(lexed.size() == 2);
      CHECK(lexed[0].text == text);
      CHECK_FALSE(lexed[0].has_escape);
    }
    const std::string one_quote = head + "\"" + tail;
    CHECK(LexAll(one_quote)[0].text == one_quote);
    const std::string ended_source = head + R"(""" ?v)";
    const auto ended = LexAll(ended_source);
    REQUIRE(ended.size() == 2);
    CHECK(ended[0].text.size() == before + 6);
    CHECK(ended[1].kind == TokenKind::kVar);
    const std::string escaped_source = head + R"(\""")" + tail;  // \" then "": not the end
    const auto escaped = LexAll(escaped_source);
    REQUIRE(escaped.size() == 1);
    CHECK(escaped[0].has_escape);
    CHECK(escaped[0].text.size() == before + 3 + 4 + 23);
    CHECK(Kinds(head + "\n") == std::vector{TokenKind::kError});
  }
  // In a short "..." string an apostrophe is content, wherever it is.
  for (size_t before = 0; before < 40; ++before) {
    const std::string text = "\"" + std::string(before, 'y') + "'" + std::string(20, 'z') + "\"";
    CHECK(LexAll(text)[0].text == text);
    CHECK_FALSE(LexAll(text)[0].has_escape);
  }
}

// The extractor writes a text of many lines as one long literal (AppendSparqlText): lexed and
// decoded, every text comes back as it was, and one without " or \ needs no unescaping.
TEST_CASE("AppendSparqlText: long literals lex and decode back to the text") {
  std::string every_byte;
  for (int c = 1; c < 256; ++c) every_byte.push_back(static_cast<char>(c));
  const std::vector<std::string> texts = {"one line",
                                          "two\nlines",
                                          "\n",
                                          "ends with a quote\n\"",
                                          "\"lone\" quotes\n",
                                          "quote \"\" pairs\n\"x\"\"\"y\"",
                                          "\"\"\"\n\"\"\"",
                                          "back\\slash\n\\",
                                          "crlf\r\nand\ttab\r\n",
                                          "'''\n'''",
                                          every_byte,
                                          std::string(70000, 'x') + "\n\"\"\"\\"};
  for (const std::string& text : texts) {
    CAPTURE(text.substr(0, 40));
    std::string written = "prefix ";
    AppendSparqlText(text, written);
    REQUIRE(written.starts_with("prefix "));
    const std::string literal = written.substr(7);
    const bool is_long = text.find('\n') != std::string::npos;
    CHECK(literal.starts_with(R"(""")") == is_long);
    if (!is_long) CHECK(literal == SparqlString(text));
    const std::string source = literal + " .";
    const auto lexed = LexAll(source);
    REQUIRE(lexed.size() == 2);
    CHECK(lexed[0].text == literal);
    // The long form escapes \ and only the quotes that another quote follows or that end it.
    const bool long_escapes = text.find('\\') != std::string::npos ||
                              text.find("\"\"") != std::string::npos || text.ends_with('"');
    const bool short_escapes = text.find_first_of("\"\\\n\r\t") != std::string::npos;
    CHECK(lexed[0].has_escape == (is_long ? long_escapes : short_escapes));
    std::string decoded;
    std::string error;
    REQUIRE(DecodeString(lexed[0].text, lexed[0].has_escape, decoded, error));
    CHECK(decoded == text);
  }
}

// LexIriOrLess skips the bytes an IRIREF allows by a table; each excluded byte still ends it.
TEST_CASE("Lexer: an IRI ends or turns into '<' at the first excluded character wherever it is") {
  for (size_t before = 0; before < 20; ++before) {
    CAPTURE(before);
    const std::string body = "http://a/" + std::string(before, 'p');
    const std::string written = "<" + body + ">";  // the tokens' text points into it
    const auto iri = LexAll(written);
    REQUIRE(iri.size() == 1);
    CHECK(iri[0].kind == K::kIriRef);
    CHECK(iri[0].text == body);
    CHECK_FALSE(iri[0].has_escape);
    for (const char excluded : {' ', '<', '"', '{', '}', '|', '^', '`', '\n'}) {
      CAPTURE(excluded);
      CHECK(LexAll("<" + body + excluded + "x>")[0].kind == K::kLess);
    }
    CHECK(LexAll("<" + body + "\\q>")[0].kind == K::kLess);
    const std::string written_escaped = "<" + body + "\\u0041>";
    const auto escaped = LexAll(written_escaped);
    REQUIRE(escaped.size() == 1);
    CHECK(escaped[0].has_escape);
    std::string decoded;
    std::string error;
    REQUIRE(DecodeIri(escaped[0].text, true, decoded, error));
    CHECK(decoded == body + "A");
  }
}

TEST_CASE("Lexer: ASCII and non-ASCII name characters mix in prefixes and local names") {
  const std::string_view names = "a.b-c_9:x-1.y:z9 ns\xC3\xA9:\xC3\xA9t\xC3\xA9_2 ex:_a\xC2\xB7" "b. ";
  const auto tokens = LexAll(names);
  REQUIRE(tokens.size() == 4);
  CHECK(tokens[0].kind == K::kPnameLn);
  CHECK(tokens[0].text == "a.b-c_9:x-1.y:z9");
  CHECK(tokens[1].text == "ns\xC3\xA9:\xC3\xA9t\xC3\xA9_2");
  CHECK(tokens[2].text == "ex:_a\xC2\xB7" "b");
  CHECK(tokens[3].kind == K::kDot);
  CHECK(Kinds("ex:a+b") == std::vector{K::kPnameLn, K::kPlus, K::kWord});
  CHECK(Kinds("prefix-with-dash.:x") == std::vector{K::kError});
}

TEST_CASE("Lexer: variables and parameters and blank nodes and language tags") {
  CHECK(Kinds("?x $y ~limit _:b1 @en-GB") ==
        std::vector{K::kVar, K::kVar, K::kParameter, K::kBlankNodeLabel, K::kLangTag});
  const auto tokens = LexAll("?x $y ~limit _:b1 @en-GB");
  CHECK(tokens[0].text == "x");
  CHECK(tokens[1].text == "y");
  CHECK(tokens[2].text == "limit");
  CHECK(tokens[3].text == "b1");
  CHECK(tokens[4].text == "en-GB");
  SUBCASE("a lone '?' is the path modifier") {
    CHECK(Kinds(":p? ?o") == std::vector{K::kPnameLn, K::kQuestion, K::kVar});
  }
  SUBCASE("a blank node label does not end with '.'") {
    CHECK(Kinds("_:a.") == std::vector{K::kBlankNodeLabel, K::kDot});
  }
}

TEST_CASE("Lexer: keywords are case-insensitive except 'a'") {
  const auto tokens = LexAll("select SeLeCt a A group_concat strlen");
  REQUIRE(tokens.size() == 6);
  CHECK(tokens[0].keyword == Keyword::kSelect);
  CHECK(tokens[1].keyword == Keyword::kSelect);
  CHECK(tokens[2].keyword == Keyword::kA);
  CHECK(tokens[3].keyword == Keyword::kNone);
  CHECK(tokens[4].keyword == Keyword::kGroupConcat);
  CHECK(tokens[5].builtin != kNoBuiltin);
}

// The lexer classifies words through one hash table of keywords and built-in names: every name
// is found in any case, a word that is both keeps both, near misses are neither.
TEST_CASE("Lexer: every keyword and built-in name is found in any case, near misses are not") {
  const auto lower = [](std::string_view name) {
    std::string out(name);
    for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return out;
  };
  size_t keywords = 0;
  for (int k = static_cast<int>(Keyword::kAdd); k <= static_cast<int>(Keyword::kWith); ++k) {
    const auto keyword = static_cast<Keyword>(k);
    const std::string_view name = KeywordName(keyword);
    CAPTURE(name);
    REQUIRE_FALSE(name.empty());
    CHECK(LookupKeyword(name) == keyword);
    CHECK(LookupKeyword(lower(name)) == keyword);
    CHECK(LookupKeyword(std::string(name) + "X") == Keyword::kNone);
    CHECK(LookupKeyword(name.substr(0, name.size() - 1)) != keyword);
    ++keywords;
  }
  CHECK(keywords == 60);
  for (int b = 0; b <= static_cast<int>(Builtin::kRegex); ++b) {
    const std::string_view name = BuiltinName(static_cast<Builtin>(b));
    CAPTURE(name);
    CHECK(LookupBuiltin(name) == b);
    CHECK(LookupBuiltin(lower(name)) == b);
    CHECK(LookupBuiltin(std::string(name) + "_") == kNoBuiltin);
  }
  Keyword keyword = Keyword::kNone;
  uint8_t builtin = 0;
  LookupWord("Replace", keyword, builtin);
  CHECK(keyword == Keyword::kNone);
  CHECK(builtin == static_cast<uint8_t>(Builtin::kReplace));
  LookupWord("a", keyword, builtin);
  CHECK(keyword == Keyword::kA);
  CHECK(builtin == kNoBuiltin);
  LookupWord("where", keyword, builtin);
  CHECK(keyword == Keyword::kWhere);
  CHECK(builtin == kNoBuiltin);
  LookupWord("strlen", keyword, builtin);
  CHECK(keyword == Keyword::kNone);
  CHECK(builtin == static_cast<uint8_t>(Builtin::kStrlen));
  LookupWord("averyveryverylongword", keyword, builtin);
  CHECK(keyword == Keyword::kNone);
  CHECK(builtin == kNoBuiltin);
  LookupWord("", keyword, builtin);
  CHECK(keyword == Keyword::kNone);
  CHECK(builtin == kNoBuiltin);
}

TEST_CASE("Lexer: prefixed names") {
  CHECK(Kinds("ex: ex:a :b nie:title a:b.c") ==
        std::vector{K::kPnameNs, K::kPnameLn, K::kPnameLn, K::kPnameLn, K::kPnameLn});
  SUBCASE("a local name does not end with '.'") {
    const auto tokens = LexAll("ex:a.b. ");
    REQUIRE(tokens.size() == 2);
    CHECK(tokens[0].text == "ex:a.b");
    CHECK(tokens[1].kind == K::kDot);
  }
  SUBCASE("escapes and percent codes") {
    const auto tokens = LexAll(R"(ex:a\.b%20c)");
    REQUIRE(tokens.size() == 1);
    CHECK(tokens[0].has_escape);
    std::string local;
    UnescapeLocalName("a\\.b%20c", local);
    CHECK(local == "a.b%20c");
  }
  SUBCASE("a keyword followed by ':' is a prefix") {
    CHECK(Kinds("select:x") == std::vector{K::kPnameLn});
  }
  SUBCASE("non-ASCII names") {
    CHECK(Kinds("ex:café ?naïve") == std::vector{K::kPnameLn, K::kVar});
  }
}

TEST_CASE("Lexer: NIL and ANON allow whitespace and comments inside") {
  CHECK(Kinds("() ( ) [] [ # note\n ]") == std::vector{K::kNil, K::kNil, K::kAnon, K::kAnon});
  CHECK(Kinds("( 1 )") == std::vector{K::kLParen, K::kInteger, K::kRParen});
}

TEST_CASE("Lexer: operators and comments") {
  CHECK(Kinds("&& || != >= ^^ ^ ! | / * # comment\n=") ==
        std::vector{K::kAndAnd, K::kOrOr, K::kNotEq, K::kGreaterEq, K::kCaretCaret, K::kCaret,
                    K::kBang, K::kPipe, K::kSlash, K::kStar, K::kEq});
  CHECK(Kinds("&") == std::vector{K::kError});
}

TEST_CASE("DecodeString handles ECHAR and codepoint escapes") {
  std::string out;
  std::string error;
  CHECK(DecodeString(R"("a\tb\n\"c\\")", true, out, error));
  CHECK(out == "a\tb\n\"c\\");
  CHECK(DecodeString(R"('\u00E9\U0001F46A')", true, out, error));
  CHECK(out == "\xC3\xA9\xF0\x9F\x91\xAA");
  CHECK(DecodeString(R"('''x''')", false, out, error));
  CHECK(out == "x");
  CHECK_FALSE(DecodeString(R"("\q")", true, out, error));
  CHECK_FALSE(DecodeString(R"("\uD800")", true, out, error));
  CHECK_FALSE(DecodeString(R"("\u12")", true, out, error));
}

// DecodeString copies the text between escapes in runs: escapes first, last, adjacent and far
// apart decode as the one-character-at-a-time reading of ECHAR does.
TEST_CASE("DecodeString: text between escapes comes through whole wherever the escapes are") {
  std::string out;
  std::string error;
  const std::string run(37, 'r');
  REQUIRE(DecodeString("\"\\n" + run + "\\t\\t" + run + "\\\\\"", true, out, error));
  CHECK(out == "\n" + run + "\t\t" + run + "\\");
  REQUIRE(DecodeString("'''" + run + "\\u00e9" + run + "'''", true, out, error));
  CHECK(out == run + "\xC3\xA9" + run);
  REQUIRE(DecodeString("\"" + run + "\\\"\"", true, out, error));
  CHECK(out == run + "\"");
  CHECK_FALSE(DecodeString("\"" + run + "\\x" + run + "\"", true, out, error));
  CHECK(error == "invalid escape sequence '\\x' in a string");
  out = "stale";
  REQUIRE(DecodeString("\"a\\nb\"", true, out, error));
  CHECK(out == "a\nb");
}

TEST_CASE("DecodeUtf8 rejects malformed input") {
  char32_t codepoint = 0;
  CHECK(DecodeUtf8("\xC3\xA9", 0, codepoint) == 2);
  CHECK(codepoint == 0xE9);
  CHECK(DecodeUtf8("\xC0\x80", 0, codepoint) == 0);      // overlong
  CHECK(DecodeUtf8("\xED\xA0\x80", 0, codepoint) == 0);  // surrogate
  CHECK(DecodeUtf8("\xE2\x82", 0, codepoint) == 0);      // truncated
}

}  // namespace
}  // namespace quarry::sparql
