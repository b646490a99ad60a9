// Prologue, IRIs, prefixed names, variables, literals and blank nodes.
#include <fmt/format.h>

#include "store/sparql/iri.h"
#include "store/sparql/parser_impl.h"

namespace quarry::sparql {

// [4] Prologue ::= ( BaseDecl | PrefixDecl )*
Result<void> Parser::ParsePrologue() {
  while (true) {
    if (AtKeyword(Keyword::kBase)) {
      QUARRY_TRY(ParseBaseDecl());
    } else if (AtKeyword(Keyword::kPrefix)) {
      QUARRY_TRY(ParsePrefixDecl());
    } else {
      return Ok();
    }
  }
}

// [5] BaseDecl ::= 'BASE' IRIREF
Result<void> Parser::ParseBaseDecl() {
  Advance();
  if (!At(TokenKind::kIriRef)) return ErrorExpected("an IRI in <...> after BASE");
  QUARRY_ASSIGN_OR_RETURN(std::string base, ResolveIriRef(current_));
  Advance();
  base_ = std::move(base);
  return Ok();
}

// [6] PrefixDecl ::= 'PREFIX' PNAME_NS IRIREF
Result<void> Parser::ParsePrefixDecl() {
  Advance();
  if (!At(TokenKind::kPnameNs)) return ErrorExpected("a prefix name ending in ':'");
  std::string prefix(current_.text.substr(0, current_.text.size() - 1));
  Advance();
  if (!At(TokenKind::kIriRef)) return ErrorExpected("an IRI in <...>");
  QUARRY_ASSIGN_OR_RETURN(std::string iri, ResolveIriRef(current_));
  Advance();
  prefixes_[std::move(prefix)] = std::move(iri);
  return Ok();
}

bool Parser::AtIri() const {
  return At(TokenKind::kIriRef) || At(TokenKind::kPnameLn) || At(TokenKind::kPnameNs);
}

// [136] iri ::= IRIREF | PrefixedName
Result<std::string> Parser::ParseIri() {
  if (!AtIri()) return ErrorExpected("an IRI");
  Result<std::string> iri =
      At(TokenKind::kIriRef) ? ResolveIriRef(current_) : ExpandPrefixedName(current_);
  if (iri) Advance();
  return iri;
}

Result<std::string> Parser::ResolveIriRef(const Token& token) {
  std::string decoded;
  std::string error;
  if (!DecodeIri(token.text, token.has_escape, decoded, error)) {
    return ErrorAt(token.offset, error);
  }
  if (base_.empty() && HasScheme(decoded)) return decoded;
  return ResolveIri(base_, decoded);
}

// [137] PrefixedName ::= PNAME_LN | PNAME_NS
Result<std::string> Parser::ExpandPrefixedName(const Token& token) {
  const size_t colon = token.text.find(':');
  const std::string_view prefix = token.text.substr(0, colon);
  const std::string_view local = token.text.substr(colon + 1);
  const auto it = prefixes_.find(prefix);
  if (it == prefixes_.end()) {
    return ErrorAt(token.offset, fmt::format("undeclared prefix '{}:'", prefix));
  }
  // One allocation of the final size (a copy of the namespace then an append reallocated).
  std::string iri;
  iri.reserve(it->second.size() + local.size());
  iri.append(it->second);
  if (token.has_escape) {
    UnescapeLocalName(local, iri);
  } else {
    iri.append(local);
  }
  return iri;
}

// [108] Var ::= VAR1 | VAR2
Result<Variable> Parser::ParseVar() {
  if (!AtVar()) return ErrorExpected("a variable");
  Variable variable{std::string(current_.text)};
  Advance();
  return variable;
}

// Tracker extension: PARAMETERIZED_VAR ::= '~' VARNAME
Result<Term> Parser::ParseParameter() {
  QUARRY_TRY(CheckExtension(current_.offset, "a ~parameter"));
  Parameter parameter{std::string(current_.text)};
  Advance();
  return Term(std::move(parameter));
}

// [107] VarOrIri ::= Var | iri   (and Tracker's ~parameter)
Result<Term> Parser::ParseVarOrIri() {
  if (At(TokenKind::kParameter)) return ParseParameter();
  if (AtVar()) {
    if (!rules_.variables) {
      return ErrorAt(current_.offset,
                     fmt::format("variables are not allowed in {}", rules_.context));
    }
    QUARRY_ASSIGN_OR_RETURN(Variable variable, ParseVar());
    return Term(std::move(variable));
  }
  if (!AtIri()) return ErrorExpected("a variable or an IRI");
  QUARRY_ASSIGN_OR_RETURN(std::string iri, ParseIri());
  return Term(Iri{std::move(iri)});
}

// [135] String ::= STRING_LITERAL1 | STRING_LITERAL2 | STRING_LITERAL_LONG1 | STRING_LITERAL_LONG2
Result<std::string> Parser::ParseString() {
  if (!At(TokenKind::kString)) return ErrorExpected("a string");
  std::string value;
  std::string error;
  if (!DecodeString(current_.text, current_.has_escape, value, error)) {
    return ErrorAt(current_.offset, error);
  }
  Advance();
  return value;
}

// [129] RDFLiteral ::= String ( LANGTAG | ( '^^' iri ) )?
Result<Literal> Parser::ParseRdfLiteral() {
  Literal literal;
  QUARRY_ASSIGN_OR_RETURN(literal.lexical, ParseString());
  if (At(TokenKind::kLangTag)) {
    literal.lang.assign(current_.text);
    literal.datatype_iri.assign(kRdfLangString);
    Advance();
  } else if (Accept(TokenKind::kCaretCaret)) {
    QUARRY_ASSIGN_OR_RETURN(literal.datatype_iri, ParseIri());
  } else {
    literal.datatype_iri.assign(kXsdString);
  }
  return literal;
}

// [130] NumericLiteral ::= NumericLiteralUnsigned | NumericLiteralPositive | NumericLiteralNegative
// (the sign is part of the token; the lexical form is kept as written)
Literal Parser::ParseNumericLiteral() {
  Literal literal;
  literal.lexical.assign(current_.text);
  literal.datatype_iri.assign(At(TokenKind::kInteger)   ? kXsdInteger
                              : At(TokenKind::kDecimal) ? kXsdDecimal
                                                        : kXsdDouble);
  Advance();
  return literal;
}

// [134] BooleanLiteral ::= 'true' | 'false'
Literal Parser::ParseBooleanLiteral() {
  Literal literal{AtKeyword(Keyword::kTrue) ? "true" : "false", std::string(kXsdBoolean), {}};
  Advance();
  return literal;
}

bool Parser::AtLiteralStart() const {
  return At(TokenKind::kString) || At(TokenKind::kInteger) || At(TokenKind::kDecimal) ||
         At(TokenKind::kDouble) || AtKeyword(Keyword::kTrue) || AtKeyword(Keyword::kFalse);
}

// [109] GraphTerm ::= iri | RDFLiteral | NumericLiteral | BooleanLiteral | BlankNode | NIL
// [138] BlankNode ::= BLANK_NODE_LABEL | ANON
Result<Term> Parser::ParseGraphTerm() {
  if (AtIri()) {
    QUARRY_ASSIGN_OR_RETURN(std::string iri, ParseIri());
    return Term(Iri{std::move(iri)});
  }
  if (At(TokenKind::kString)) {
    QUARRY_ASSIGN_OR_RETURN(Literal literal, ParseRdfLiteral());
    return Term(std::move(literal));
  }
  if (At(TokenKind::kInteger) || At(TokenKind::kDecimal) || At(TokenKind::kDouble)) {
    return Term(ParseNumericLiteral());
  }
  if (AtKeyword(Keyword::kTrue) || AtKeyword(Keyword::kFalse)) return Term(ParseBooleanLiteral());
  if (At(TokenKind::kBlankNodeLabel)) {
    QUARRY_ASSIGN_OR_RETURN(BlankNode node, UseBlankNodeLabel(current_));
    Advance();
    return Term(std::move(node));
  }
  if (At(TokenKind::kAnon)) {
    if (!rules_.blank_nodes) {
      return ErrorAt(current_.offset,
                     fmt::format("blank nodes are not allowed in {}", rules_.context));
    }
    Advance();
    return Term(NewBlankNode());
  }
  if (At(TokenKind::kNil)) {
    Advance();
    return Term(Iri{std::string(kRdfNil)});
  }
  return ErrorExpected("an RDF term");
}

// [106] VarOrTerm ::= Var | GraphTerm   (and Tracker's ~parameter)
Result<Term> Parser::ParseVarOrTerm() {
  if (AtVar() || At(TokenKind::kParameter)) return ParseVarOrIri();
  return ParseGraphTerm();
}

BlankNode Parser::NewBlankNode() {
  return BlankNode{fmt::format("#{}", ++generated_blank_nodes_), true};
}

Result<BlankNode> Parser::UseBlankNodeLabel(const Token& token) {
  if (!rules_.blank_nodes) {
    return ErrorAt(token.offset, fmt::format("blank nodes are not allowed in {}", rules_.context));
  }
  BlankNode node{std::string(token.text), false};
  if (rules_.check_label_scope && strict()) {
    const auto [it, inserted] = label_scopes_.emplace(node.label, label_scope_);
    if (!inserted && it->second != label_scope_) {
      return ErrorAt(token.offset,
                     fmt::format("blank node label '_:{}' is already used in another basic graph "
                                 "pattern or update operation",
                                 node.label));
    }
  }
  return node;
}

}  // namespace quarry::sparql
