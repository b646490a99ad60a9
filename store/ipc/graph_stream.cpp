#include "store/ipc/graph_stream.h"

#include <array>

#include "store/sparql/lexer.h"

namespace quarry::ipc {
namespace {

using engine::ValueKind;

// The datatypes the stream has a value type for.
constexpr std::array<std::pair<std::string_view, ValueKind>, 4> kTypedDatatypes = {{
    {sparql::kXsdInteger, ValueKind::kInteger},
    {sparql::kXsdDouble, ValueKind::kDouble},
    {"http://www.w3.org/2001/XMLSchema#dateTime", ValueKind::kDateTime},
    {sparql::kXsdBoolean, ValueKind::kBoolean},
}};

bool IsKeyword(const sparql::Token& token, sparql::Keyword keyword) {
  return token.kind == sparql::TokenKind::kWord && token.keyword == keyword;
}

// Calls `on_prefix(name, iri)` for each PREFIX of the prologue; returns the first token after it.
template <typename OnPrefix>
sparql::Token WalkPrologue(sparql::Lexer& lexer, OnPrefix on_prefix) {
  for (;;) {
    const sparql::Token token = lexer.Next();
    if (IsKeyword(token, sparql::Keyword::kBase)) {
      lexer.Next();
    } else if (IsKeyword(token, sparql::Keyword::kPrefix)) {
      const sparql::Token name = lexer.Next();
      const sparql::Token iri = lexer.Next();
      if (name.kind != sparql::TokenKind::kPnameNs || iri.kind != sparql::TokenKind::kIriRef) {
        return iri;  // malformed: the parser reports it
      }
      on_prefix(name.text.substr(0, name.text.size() - 1), iri.text);
    } else {
      return token;
    }
  }
}

}  // namespace

std::optional<sparql::QueryForm> QueryFormOf(std::string_view query) {
  sparql::Lexer lexer(query);
  const sparql::Token first = WalkPrologue(lexer, [](std::string_view, std::string_view) {});
  if (IsKeyword(first, sparql::Keyword::kSelect)) return sparql::QueryForm::kSelect;
  if (IsKeyword(first, sparql::Keyword::kConstruct)) return sparql::QueryForm::kConstruct;
  if (IsKeyword(first, sparql::Keyword::kDescribe)) return sparql::QueryForm::kDescribe;
  if (IsKeyword(first, sparql::Keyword::kAsk)) return sparql::QueryForm::kAsk;
  return std::nullopt;
}

bool IsGraphQuery(std::string_view query) {
  const std::optional<sparql::QueryForm> form = QueryFormOf(query);
  return form == sparql::QueryForm::kConstruct || form == sparql::QueryForm::kDescribe;
}

std::map<std::string, std::string> DeclaredPrefixes(std::string_view query) {
  std::map<std::string, std::string> prefixes;
  sparql::Lexer lexer(query);
  WalkPrologue(lexer, [&](std::string_view name, std::string_view iri) {
    prefixes[std::string(name)] = std::string(iri);
  });
  return prefixes;
}

ValueKind StreamKindOf(const schema::RdfTerm& term) {
  switch (term.kind) {
    case schema::RdfTerm::Kind::kIri:
      return ValueKind::kIri;
    case schema::RdfTerm::Kind::kBlank:
      return ValueKind::kBlankNode;
    case schema::RdfTerm::Kind::kLiteral:
      break;
  }
  if (!term.lang.empty()) return ValueKind::kLangString;
  for (const auto& [datatype, kind] : kTypedDatatypes) {
    if (term.datatype == datatype) return kind;
  }
  return ValueKind::kString;
}

std::optional<schema::RdfTerm> TermOfStreamValue(ValueKind kind, std::string_view text,
                                                 std::string_view lang) {
  switch (kind) {
    case ValueKind::kUnbound:
      return std::nullopt;
    case ValueKind::kIri:
      return schema::RdfTerm::Iri(std::string(text));
    case ValueKind::kBlankNode:
      return schema::RdfTerm::Blank(std::string(text.starts_with("_:") ? text.substr(2) : text));
    case ValueKind::kLangString:
      return schema::RdfTerm::Literal(std::string(text), {}, std::string(lang));
    case ValueKind::kString:
      return schema::RdfTerm::Literal(std::string(text));
    case ValueKind::kInteger:
    case ValueKind::kDouble:
    case ValueKind::kDateTime:
    case ValueKind::kBoolean:
      break;
  }
  for (const auto& [datatype, typed_kind] : kTypedDatatypes) {
    if (typed_kind == kind)
      return schema::RdfTerm::Literal(std::string(text), std::string(datatype));
  }
  return schema::RdfTerm::Literal(std::string(text));
}

}  // namespace quarry::ipc
