// Triple patterns: subjects, property lists, object lists, collections and [ ] lists.
// The path and non-path variants of the grammar share these functions; rules_.paths says
// which one applies (TriplesBlock in WHERE vs. templates and QuadData).
#include <fmt/format.h>

#include "store/sparql/parser_impl.h"

namespace quarry::sparql {

bool Parser::AtTriplesStart() const {
  switch (current_.kind) {
    case TokenKind::kVar:
    case TokenKind::kParameter:
    case TokenKind::kIriRef:
    case TokenKind::kPnameLn:
    case TokenKind::kPnameNs:
    case TokenKind::kString:
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
    case TokenKind::kDouble:
    case TokenKind::kBlankNodeLabel:
    case TokenKind::kAnon:
    case TokenKind::kNil:
    case TokenKind::kLParen:
    case TokenKind::kLBracket:
      return true;
    case TokenKind::kWord:
      return current_.keyword == Keyword::kTrue || current_.keyword == Keyword::kFalse;
    default:
      return false;
  }
}

bool Parser::AtVerbStart() const {
  if (AtVar() || At(TokenKind::kParameter) || AtIri() || AtKeyword(Keyword::kA)) return true;
  return rules_.paths && (At(TokenKind::kCaret) || At(TokenKind::kBang) || At(TokenKind::kLParen));
}

// [55] TriplesBlock ::= TriplesSameSubjectPath ( '.' TriplesBlock? )?
Result<void> Parser::ParseTriplesBlock(std::vector<TriplePattern>& out) {
  while (true) {
    const size_t offset = current_.offset;
    QUARRY_TRY(ParseTriplesSameSubject(out));
    if (data_sink_) QUARRY_TRY(EmitDataTriples(out, offset));  // streamed QuadData
    if (!Accept(TokenKind::kDot) || !AtTriplesStart()) return Ok();
  }
}

// [52] TriplesTemplate ::= TriplesSameSubject ( '.' TriplesTemplate? )?
// [74] ConstructTriples ::= TriplesSameSubject ( '.' ConstructTriples? )?
Result<void> Parser::ParseTriplesTemplate(std::vector<TriplePattern>& out) {
  ScopedValue<bool> no_paths(rules_.paths, false);
  return ParseTriplesBlock(out);
}

// [75] TriplesSameSubject ::= VarOrTerm PropertyListNotEmpty | TriplesNode PropertyList
// [81] TriplesSameSubjectPath ::= VarOrTerm PropertyListPathNotEmpty
//                                 | TriplesNodePath PropertyListPath
Result<void> Parser::ParseTriplesSameSubject(std::vector<TriplePattern>& out) {
  if (At(TokenKind::kLParen) || At(TokenKind::kLBracket)) {
    QUARRY_ASSIGN_OR_RETURN(Term subject, At(TokenKind::kLParen) ? ParseCollection(out)
                                                                 : ParseBlankNodePropertyList(out));
    // [76] PropertyList ::= PropertyListNotEmpty?
    if (!AtVerbStart()) return Ok();
    return ParsePropertyListNotEmpty(subject, out);
  }
  if (!AtTriplesStart()) return ErrorExpected("a triple pattern");
  QUARRY_ASSIGN_OR_RETURN(Term subject, ParseVarOrTerm());
  return ParsePropertyListNotEmpty(subject, out);
}

// [77] PropertyListNotEmpty ::= Verb ObjectList ( ';' ( Verb ObjectList )? )*
// [83] PropertyListPathNotEmpty ::= ( VerbPath | VerbSimple ) ObjectListPath
//                                   ( ';' ( ( VerbPath | VerbSimple ) ObjectList )? )*
Result<void> Parser::ParsePropertyListNotEmpty(const Term& subject,
                                               std::vector<TriplePattern>& out) {
  if (!AtVerbStart()) return ErrorExpected("a predicate");
  do {
    if (!AtVerbStart()) continue;  // ";;" and a trailing ';' are allowed
    QUARRY_ASSIGN_OR_RETURN(Verb verb, ParseVerb());
    QUARRY_TRY(ParseObjectList(subject, verb, out));
  } while (Accept(TokenKind::kSemicolon));
  return Ok();
}

// [78] Verb ::= VarOrIri | 'a'
// [84] VerbPath ::= Path   [85] VerbSimple ::= Var
Result<Verb> Parser::ParseVerb() {
  if (AtVar() || At(TokenKind::kParameter)) {
    QUARRY_ASSIGN_OR_RETURN(Term term, ParseVarOrIri());
    return Verb(std::move(term));
  }
  if (!rules_.paths) {
    if (AcceptKeyword(Keyword::kA)) return Verb(MakeIri(std::string(kRdfType)));
    QUARRY_ASSIGN_OR_RETURN(Term term, ParseVarOrIri());
    return Verb(std::move(term));
  }
  QUARRY_ASSIGN_OR_RETURN(Path path, ParsePath());
  // A path that is one IRI is a plain predicate.
  if (path.kind == PathKind::kLink) return Verb(MakeIri(std::move(path.iri)));
  return Verb(std::move(path));
}

// [79] ObjectList ::= Object ( ',' Object )*     [80] Object ::= GraphNode
// [86] ObjectListPath ::= ObjectPath ( ',' ObjectPath )*   [87] ObjectPath ::= GraphNodePath
Result<void> Parser::ParseObjectList(const Term& subject, const Verb& verb,
                                     std::vector<TriplePattern>& out) {
  do {
    QUARRY_ASSIGN_OR_RETURN(Term object, ParseGraphNode(out));
    out.push_back(TriplePattern{subject, verb, std::move(object)});
  } while (Accept(TokenKind::kComma));
  return Ok();
}

// [104] GraphNode ::= VarOrTerm | TriplesNode
// [105] GraphNodePath ::= VarOrTerm | TriplesNodePath
// [98] TriplesNode ::= Collection | BlankNodePropertyList
Result<Term> Parser::ParseGraphNode(std::vector<TriplePattern>& out) {
  if (At(TokenKind::kLParen)) return ParseCollection(out);
  if (At(TokenKind::kLBracket)) return ParseBlankNodePropertyList(out);
  if (!AtTriplesStart()) return ErrorExpected("an object");
  return ParseVarOrTerm();
}

// [102] Collection ::= '(' GraphNode+ ')'
// [103] CollectionPath ::= '(' GraphNodePath+ ')'
// Expanded to rdf:first/rdf:rest triples over generated blank nodes, ending in rdf:nil.
Result<Term> Parser::ParseCollection(std::vector<TriplePattern>& out) {
  NestingGuard guard(*this);
  if (guard.too_deep()) return ErrorAt(current_.offset, "collections nested too deeply");
  if (!rules_.blank_nodes) {
    return ErrorAt(current_.offset,
                   fmt::format("collections (blank nodes) are not allowed in {}", rules_.context));
  }
  Advance();
  std::vector<Term> items;
  while (!At(TokenKind::kRParen)) {
    QUARRY_ASSIGN_OR_RETURN(Term item, ParseGraphNode(out));
    items.push_back(std::move(item));
  }
  Advance();
  const Term head = NewBlankNode();
  Term node = head;
  for (size_t i = 0; i < items.size(); ++i) {
    out.push_back(TriplePattern{node, MakeIri(std::string(kRdfFirst)), std::move(items[i])});
    Term rest = i + 1 < items.size() ? Term(NewBlankNode()) : MakeIri(std::string(kRdfNil));
    out.push_back(TriplePattern{node, MakeIri(std::string(kRdfRest)), rest});
    node = std::move(rest);
  }
  return head;
}

// [99] BlankNodePropertyList ::= '[' PropertyListNotEmpty ']'
// [101] BlankNodePropertyListPath ::= '[' PropertyListPathNotEmpty ']'
Result<Term> Parser::ParseBlankNodePropertyList(std::vector<TriplePattern>& out) {
  NestingGuard guard(*this);
  if (guard.too_deep()) return ErrorAt(current_.offset, "[ ] lists nested too deeply");
  if (!rules_.blank_nodes) {
    return ErrorAt(current_.offset,
                   fmt::format("blank nodes are not allowed in {}", rules_.context));
  }
  Advance();
  const Term node = NewBlankNode();
  QUARRY_TRY(ParsePropertyListNotEmpty(node, out));
  QUARRY_TRY(Expect(TokenKind::kRBracket));
  return node;
}

}  // namespace quarry::sparql
