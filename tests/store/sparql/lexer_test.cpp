#include "store/sparql/lexer.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

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
