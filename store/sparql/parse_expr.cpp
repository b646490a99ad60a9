// Expressions: the operator precedence levels of rules [110]-[120], function calls and
// argument lists.
#include "store/sparql/parser_impl.h"

namespace quarry::sparql {

namespace {

Expr MakeTerm(Term term) { return Expr{std::move(term)}; }

std::optional<BinaryOp> RelationalOp(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEq:
      return BinaryOp::kEqual;
    case TokenKind::kNotEq:
      return BinaryOp::kNotEqual;
    case TokenKind::kLess:
      return BinaryOp::kLess;
    case TokenKind::kGreater:
      return BinaryOp::kGreater;
    case TokenKind::kLessEq:
      return BinaryOp::kLessEqual;
    case TokenKind::kGreaterEq:
      return BinaryOp::kGreaterEqual;
    default:
      return std::nullopt;
  }
}

bool IsNumeric(TokenKind kind) {
  return kind == TokenKind::kInteger || kind == TokenKind::kDecimal || kind == TokenKind::kDouble;
}

}  // namespace

Result<Expr> Parser::Combine(BinaryOp op, Expr left, Expr right, ChainGuard& chain) {
  if (!chain.Step()) return ErrorAt(current_.offset, "expression nested too deeply");
  return Expr{BinaryExpr{op, std::make_unique<Expr>(std::move(left)),
                         std::make_unique<Expr>(std::move(right))}};
}

// [110] Expression ::= ConditionalOrExpression
Result<Expr> Parser::ParseExpression() {
  NestingGuard guard(*this);
  if (guard.too_deep()) return ErrorAt(current_.offset, "expression nested too deeply");
  return ParseConditionalOrExpression();
}

// [111] ConditionalOrExpression ::= ConditionalAndExpression ( '||' ConditionalAndExpression )*
Result<Expr> Parser::ParseConditionalOrExpression() {
  ChainGuard chain(*this);
  QUARRY_ASSIGN_OR_RETURN(Expr left, ParseConditionalAndExpression());
  while (Accept(TokenKind::kOrOr)) {
    QUARRY_ASSIGN_OR_RETURN(Expr right, ParseConditionalAndExpression());
    QUARRY_ASSIGN_OR_RETURN(left, Combine(BinaryOp::kOr, std::move(left), std::move(right), chain));
  }
  return left;
}

// [112] ConditionalAndExpression ::= ValueLogical ( '&&' ValueLogical )*
// [113] ValueLogical ::= RelationalExpression
Result<Expr> Parser::ParseConditionalAndExpression() {
  ChainGuard chain(*this);
  QUARRY_ASSIGN_OR_RETURN(Expr left, ParseRelationalExpression());
  while (Accept(TokenKind::kAndAnd)) {
    QUARRY_ASSIGN_OR_RETURN(Expr right, ParseRelationalExpression());
    QUARRY_ASSIGN_OR_RETURN(left,
                            Combine(BinaryOp::kAnd, std::move(left), std::move(right), chain));
  }
  return left;
}

// [114] RelationalExpression ::= NumericExpression ( '=' NumericExpression
//       | '!=' NumericExpression | '<' NumericExpression | '>' NumericExpression
//       | '<=' NumericExpression | '>=' NumericExpression | 'IN' ExpressionList
//       | 'NOT' 'IN' ExpressionList )?
// [115] NumericExpression ::= AdditiveExpression
Result<Expr> Parser::ParseRelationalExpression() {
  QUARRY_ASSIGN_OR_RETURN(Expr left, ParseAdditiveExpression());
  if (const std::optional<BinaryOp> op = RelationalOp(current_.kind)) {
    Advance();
    ChainGuard chain(*this);
    QUARRY_ASSIGN_OR_RETURN(Expr right, ParseAdditiveExpression());
    return Combine(*op, std::move(left), std::move(right), chain);
  }
  const bool negated = AtKeyword(Keyword::kNot) && PeekNext().kind == TokenKind::kWord &&
                       PeekNext().keyword == Keyword::kIn;
  if (!negated && !AtKeyword(Keyword::kIn)) return left;
  Advance();
  if (negated) Advance();
  In in;
  in.negated = negated;
  in.operand = std::make_unique<Expr>(std::move(left));
  QUARRY_ASSIGN_OR_RETURN(in.list, ParseExpressionList());
  return Expr{std::move(in)};
}

// [116] AdditiveExpression ::= MultiplicativeExpression ( '+' MultiplicativeExpression
//       | '-' MultiplicativeExpression | ( NumericLiteralPositive | NumericLiteralNegative )
//       ( ( '*' UnaryExpression ) | ( '/' UnaryExpression ) )* )*
// "?x -1" lexes as ?x and -1; the literal's sign is the operator: ?x - 1.
Result<Expr> Parser::ParseAdditiveExpression() {
  ChainGuard chain(*this);
  QUARRY_ASSIGN_OR_RETURN(Expr left, ParseMultiplicativeExpression());
  while (true) {
    Expr right;
    BinaryOp op;
    if (At(TokenKind::kPlus) || At(TokenKind::kMinus)) {
      op = At(TokenKind::kPlus) ? BinaryOp::kAdd : BinaryOp::kSubtract;
      Advance();
      QUARRY_ASSIGN_OR_RETURN(right, ParseMultiplicativeExpression());
    } else if (IsNumeric(current_.kind) &&
               (current_.text.front() == '+' || current_.text.front() == '-')) {
      op = current_.text.front() == '+' ? BinaryOp::kAdd : BinaryOp::kSubtract;
      Literal literal = ParseNumericLiteral();
      literal.lexical.erase(0, 1);
      ChainGuard tail_chain(*this);
      QUARRY_ASSIGN_OR_RETURN(right,
                              ParseMultiplicativeTail(MakeTerm(std::move(literal)), tail_chain));
    } else {
      return left;
    }
    QUARRY_ASSIGN_OR_RETURN(left, Combine(op, std::move(left), std::move(right), chain));
  }
}

// [117] MultiplicativeExpression ::= UnaryExpression ( '*' UnaryExpression
//       | '/' UnaryExpression )*
Result<Expr> Parser::ParseMultiplicativeExpression() {
  ChainGuard chain(*this);
  QUARRY_ASSIGN_OR_RETURN(Expr left, ParseUnaryExpression());
  return ParseMultiplicativeTail(std::move(left), chain);
}

Result<Expr> Parser::ParseMultiplicativeTail(Expr left, ChainGuard& chain) {
  while (At(TokenKind::kStar) || At(TokenKind::kSlash)) {
    const BinaryOp op = At(TokenKind::kStar) ? BinaryOp::kMultiply : BinaryOp::kDivide;
    Advance();
    QUARRY_ASSIGN_OR_RETURN(Expr right, ParseUnaryExpression());
    QUARRY_ASSIGN_OR_RETURN(left, Combine(op, std::move(left), std::move(right), chain));
  }
  return left;
}

// [118] UnaryExpression ::= '!' PrimaryExpression | '+' PrimaryExpression
//       | '-' PrimaryExpression | PrimaryExpression
Result<Expr> Parser::ParseUnaryExpression() {
  UnaryOp op;
  if (At(TokenKind::kBang)) {
    op = UnaryOp::kNot;
  } else if (At(TokenKind::kPlus)) {
    op = UnaryOp::kPlus;
  } else if (At(TokenKind::kMinus)) {
    op = UnaryOp::kMinus;
  } else {
    return ParsePrimaryExpression();
  }
  Advance();
  QUARRY_ASSIGN_OR_RETURN(Expr operand, ParsePrimaryExpression());
  return Expr{UnaryExpr{op, std::make_unique<Expr>(std::move(operand))}};
}

// [119] PrimaryExpression ::= BrackettedExpression | BuiltInCall | iriOrFunction | RDFLiteral
//       | NumericLiteral | BooleanLiteral | Var   (and Tracker's ~parameter)
Result<Expr> Parser::ParsePrimaryExpression() {
  if (At(TokenKind::kLParen)) return ParseBrackettedExpression();
  if (AtBuiltInCall()) return ParseBuiltInCall();
  if (AtIri()) return ParseIriOrFunction();
  if (AtVar()) {
    QUARRY_ASSIGN_OR_RETURN(Variable variable, ParseVar());
    return MakeTerm(std::move(variable));
  }
  if (At(TokenKind::kParameter)) {
    QUARRY_ASSIGN_OR_RETURN(Term parameter, ParseParameter());
    return MakeTerm(std::move(parameter));
  }
  if (AtLiteralStart()) {
    QUARRY_ASSIGN_OR_RETURN(Term literal, ParseGraphTerm());
    return MakeTerm(std::move(literal));
  }
  return ErrorExpected("an expression");
}

// [120] BrackettedExpression ::= '(' Expression ')'
Result<Expr> Parser::ParseBrackettedExpression() {
  QUARRY_TRY(Expect(TokenKind::kLParen));
  QUARRY_ASSIGN_OR_RETURN(Expr expr, ParseExpression());
  QUARRY_TRY(Expect(TokenKind::kRParen));
  return expr;
}

// [69] Constraint ::= BrackettedExpression | BuiltInCall | FunctionCall
Result<Expr> Parser::ParseConstraint() {
  if (At(TokenKind::kLParen)) return ParseBrackettedExpression();
  if (AtBuiltInCall()) return ParseBuiltInCall();
  if (AtIri()) return ParseFunctionCall();
  return ErrorExpected("'(', a built-in call or a function call");
}

// [128] iriOrFunction ::= iri ArgList?
Result<Expr> Parser::ParseIriOrFunction() {
  if (PeekNext().kind == TokenKind::kNil || PeekNext().kind == TokenKind::kLParen) {
    return ParseFunctionCall();
  }
  QUARRY_ASSIGN_OR_RETURN(std::string iri, ParseIri());
  return MakeTerm(Iri{std::move(iri)});
}

// [70] FunctionCall ::= iri ArgList
Result<Expr> Parser::ParseFunctionCall() {
  FunctionCall call;
  QUARRY_ASSIGN_OR_RETURN(call.iri, ParseIri());
  QUARRY_ASSIGN_OR_RETURN(call.args, ParseArgList(call.distinct));
  return Expr{std::move(call)};
}

// [71] ArgList ::= NIL | '(' 'DISTINCT'? Expression ( ',' Expression )* ')'
Result<std::vector<Expr>> Parser::ParseArgList(bool& distinct) {
  std::vector<Expr> args;
  if (Accept(TokenKind::kNil)) return args;
  if (!Accept(TokenKind::kLParen)) return ErrorExpected("'(' starting the arguments");
  distinct = AcceptKeyword(Keyword::kDistinct);
  do {
    QUARRY_ASSIGN_OR_RETURN(Expr arg, ParseExpression());
    args.push_back(std::move(arg));
  } while (Accept(TokenKind::kComma));
  QUARRY_TRY(Expect(TokenKind::kRParen));
  return args;
}

// [72] ExpressionList ::= NIL | '(' Expression ( ',' Expression )* ')'
Result<std::vector<Expr>> Parser::ParseExpressionList() {
  std::vector<Expr> list;
  if (Accept(TokenKind::kNil)) return list;
  if (!Accept(TokenKind::kLParen)) return ErrorExpected("'(' starting a list");
  do {
    QUARRY_ASSIGN_OR_RETURN(Expr expr, ParseExpression());
    list.push_back(std::move(expr));
  } while (Accept(TokenKind::kComma));
  QUARRY_TRY(Expect(TokenKind::kRParen));
  return list;
}

}  // namespace quarry::sparql
