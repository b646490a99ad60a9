// Property paths, with the grammar's precedence: '|' binds loosest, then '/', then '^',
// then the postfix modifiers ? * +.
#include "store/sparql/parser_impl.h"

namespace quarry::sparql {

namespace {

Path MakeLink(std::string iri) {
  Path path;
  path.kind = PathKind::kLink;
  path.iri = std::move(iri);
  return path;
}

Path Wrap(PathKind kind, Path child) {
  Path path;
  path.kind = kind;
  path.children.push_back(std::move(child));
  return path;
}

}  // namespace

// [88] Path ::= PathAlternative
// [89] PathAlternative ::= PathSequence ( '|' PathSequence )*
Result<Path> Parser::ParsePath() {
  NestingGuard guard(*this);
  if (guard.too_deep()) return ErrorAt(current_.offset, "property path nested too deeply");
  QUARRY_ASSIGN_OR_RETURN(Path first, ParsePathSequence());
  if (!At(TokenKind::kPipe)) return first;
  Path alternative;
  alternative.kind = PathKind::kAlternative;
  alternative.children.push_back(std::move(first));
  while (Accept(TokenKind::kPipe)) {
    QUARRY_ASSIGN_OR_RETURN(Path next, ParsePathSequence());
    alternative.children.push_back(std::move(next));
  }
  return alternative;
}

// [90] PathSequence ::= PathEltOrInverse ( '/' PathEltOrInverse )*
Result<Path> Parser::ParsePathSequence() {
  QUARRY_ASSIGN_OR_RETURN(Path first, ParsePathEltOrInverse());
  if (!At(TokenKind::kSlash)) return first;
  Path sequence;
  sequence.kind = PathKind::kSequence;
  sequence.children.push_back(std::move(first));
  while (Accept(TokenKind::kSlash)) {
    QUARRY_ASSIGN_OR_RETURN(Path next, ParsePathEltOrInverse());
    sequence.children.push_back(std::move(next));
  }
  return sequence;
}

// [92] PathEltOrInverse ::= PathElt | '^' PathElt
Result<Path> Parser::ParsePathEltOrInverse() {
  if (!Accept(TokenKind::kCaret)) return ParsePathElt();
  QUARRY_ASSIGN_OR_RETURN(Path element, ParsePathElt());
  return Wrap(PathKind::kInverse, std::move(element));
}

// [91] PathElt ::= PathPrimary PathMod?
// [93] PathMod ::= '?' | '*' | '+'
Result<Path> Parser::ParsePathElt() {
  QUARRY_ASSIGN_OR_RETURN(Path primary, ParsePathPrimary());
  if (Accept(TokenKind::kQuestion)) return Wrap(PathKind::kZeroOrOne, std::move(primary));
  if (Accept(TokenKind::kStar)) return Wrap(PathKind::kZeroOrMore, std::move(primary));
  if (Accept(TokenKind::kPlus)) return Wrap(PathKind::kOneOrMore, std::move(primary));
  return primary;
}

// [94] PathPrimary ::= iri | 'a' | '!' PathNegatedPropertySet | '(' Path ')'
Result<Path> Parser::ParsePathPrimary() {
  if (AcceptKeyword(Keyword::kA)) return MakeLink(std::string(kRdfType));
  if (AtIri()) {
    QUARRY_ASSIGN_OR_RETURN(std::string iri, ParseIri());
    return MakeLink(std::move(iri));
  }
  if (Accept(TokenKind::kBang)) return ParsePathNegatedPropertySet();
  if (Accept(TokenKind::kLParen)) {
    QUARRY_ASSIGN_OR_RETURN(Path inner, ParsePath());
    QUARRY_TRY(Expect(TokenKind::kRParen));
    return inner;
  }
  return ErrorExpected("a predicate or property path");
}

// [95] PathNegatedPropertySet ::= PathOneInPropertySet
//      | '(' ( PathOneInPropertySet ( '|' PathOneInPropertySet )* )? ')'
Result<Path> Parser::ParsePathNegatedPropertySet() {
  Path path;
  path.kind = PathKind::kNegatedSet;
  if (Accept(TokenKind::kNil)) return path;  // !() excludes nothing
  if (!Accept(TokenKind::kLParen)) {
    QUARRY_ASSIGN_OR_RETURN(NegatedPathItem item, ParsePathOneInPropertySet());
    path.negated.push_back(std::move(item));
    return path;
  }
  do {
    QUARRY_ASSIGN_OR_RETURN(NegatedPathItem item, ParsePathOneInPropertySet());
    path.negated.push_back(std::move(item));
  } while (Accept(TokenKind::kPipe));
  QUARRY_TRY(Expect(TokenKind::kRParen));
  return path;
}

// [96] PathOneInPropertySet ::= iri | 'a' | '^' ( iri | 'a' )
Result<NegatedPathItem> Parser::ParsePathOneInPropertySet() {
  NegatedPathItem item;
  item.inverse = Accept(TokenKind::kCaret);
  if (AcceptKeyword(Keyword::kA)) {
    item.iri.assign(kRdfType);
    return item;
  }
  if (!AtIri()) return ErrorExpected("an IRI, 'a' or '^' in a negated property set");
  QUARRY_ASSIGN_OR_RETURN(item.iri, ParseIri());
  return item;
}

}  // namespace quarry::sparql
