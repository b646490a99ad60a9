// SPARQL functions on RDF terms (§17.4.2), numbers (§17.4.4), dates (§17.4.5) and hashes
// (§17.4.6): DATATYPE, IRI, BNODE, STRDT, is*, sameTerm, ABS … RAND, NOW, YEAR … TZ, MD5 …
// SHA512, UUID, STRUUID.
#include <fmt/format.h>

#include "store/sparql/iri.h"
#include "store/sparql/translate/builtin_helpers.h"

namespace quarry::sparql::translate {
namespace {

std::string Xsd(std::string_view local) { return std::string(kXsdNs) + std::string(local); }

// The datatype IRI of a statically typed literal; empty when only the stored value tells
// (strings: a lang-tagged value may sit in an xsd:string column).
std::string StaticDatatype(ValueType type) {
  switch (type) {
    case ValueType::kInteger:
      return Xsd("integer");
    case ValueType::kDouble:
      return Xsd("double");
    case ValueType::kBoolean:
      return Xsd("boolean");
    case ValueType::kDateTime:
      return Xsd("dateTime");
    case ValueType::kDate:
      return Xsd("date");
    default:
      return {};
  }
}

// `result` when `value` is bound, NULL (unbound) otherwise.
std::string IfBound(const std::string& value, std::string_view result) {
  return fmt::format("(CASE WHEN {} IS NOT NULL THEN {} END)", value, result);
}

SqlExpr Datatype(Translator& translator, const SqlExpr& arg) {
  if (IsIriLike(arg)) return TypeError(ValueType::kResource);
  const std::string known = arg.kind == Kind::kLiteral ? StaticDatatype(arg.type) : "";
  if (known.empty()) return IriText(fmt::format("quarry_datatype({})", arg.sql));
  return IriText(IfBound(arg.sql, translator.BindValue(known)));
}

SqlExpr TermTest(Builtin function, const SqlExpr& arg) {
  const bool resource = arg.kind == Kind::kResource;
  switch (function) {
    case Builtin::kIsIri:
    case Builtin::kIsUri:
      if (resource)
        return Boolean(
            fmt::format("((SELECT Uri FROM Resource WHERE ID = {}) IS NOT NULL)", arg.sql));
      if (IsIriText(arg)) return Boolean(fmt::format("(substr({}, 1, 2) != '_:')", arg.sql));
      return Boolean(IfBound(arg.sql, "0"));
    case Builtin::kIsBlank:
      if (resource) {
        return Boolean(fmt::format(
            "({0} IS NOT NULL AND (SELECT Uri FROM Resource WHERE ID = {0}) IS NULL)", arg.sql));
      }
      if (IsIriText(arg)) return Boolean(fmt::format("(substr({}, 1, 2) = '_:')", arg.sql));
      return Boolean(IfBound(arg.sql, "0"));
    case Builtin::kIsLiteral:
      return Boolean(IfBound(arg.sql, IsIriLike(arg) ? "0" : "1"));
    default:  // kIsNumeric
      if (IsNumericTyped(arg)) return Boolean(IfBound(arg.sql, "1"));
      if (!IsDynamicValue(arg)) return Boolean(IfBound(arg.sql, "0"));
      return Boolean(IfBound(arg.sql, fmt::format("typeof({}) IN ('integer', 'real')", arg.sql)));
  }
}

// Literal kinds that can never be the same term.
bool DifferentTermTypes(const SqlExpr& a, const SqlExpr& b) {
  if (a.kind == Kind::kDynamic || b.kind == Kind::kDynamic) return false;
  if ((a.kind == Kind::kResource) != (b.kind == Kind::kResource)) return true;
  return a.kind == Kind::kLiteral && a.type != b.type && !(IsStringTyped(a) && IsStringTyped(b));
}

SqlExpr SameTerm(const SqlExpr& a, const SqlExpr& b) {
  const std::string both = fmt::format("{} IS NOT NULL AND {} IS NOT NULL", a.sql, b.sql);
  if (DifferentTermTypes(a, b) || IsIriText(a) != IsIriText(b)) {
    return Boolean(fmt::format("(CASE WHEN {} THEN 0 END)", both));
  }
  return Boolean(fmt::format("(CASE WHEN {2} THEN ({0} = {1} AND typeof({0}) = typeof({1})) END)",
                             a.sql, b.sql, both));
}

SqlExpr Math(Builtin function, const SqlExpr& arg) {
  if (!MayBeNumeric(arg)) return TypeError(ValueType::kDouble);
  const int op = function == Builtin::kAbs     ? 0
                 : function == Builtin::kCeil  ? 1
                 : function == Builtin::kFloor ? 2
                                               : 3;
  return SqlExpr{fmt::format("quarry_math({}, {})", arg.sql, op), arg.kind, arg.type};
}

SqlExpr DatePart(Builtin function, const SqlExpr& arg) {
  const bool date_ok =
      HasType(arg, ValueType::kDateTime) || HasType(arg, ValueType::kDate) || IsDynamicValue(arg);
  int part = 0;
  ValueType type = ValueType::kInteger;
  switch (function) {
    case Builtin::kYear:
      part = 0;
      break;
    case Builtin::kMonth:
      part = 1;
      break;
    case Builtin::kDay:
      part = 2;
      break;
    case Builtin::kHours:
      part = 3;
      break;
    case Builtin::kMinutes:
      part = 4;
      break;
    case Builtin::kSeconds:
      part = 5;
      type = ValueType::kDouble;
      break;
    case Builtin::kTimezone:
      part = 6;
      type = ValueType::kString;
      break;
    default:
      part = 7;
      type = ValueType::kString;
      break;  // kTz
  }
  if (!date_ok) return TypeError(type);
  return SqlExpr{fmt::format("quarry_date_part({}, {})", arg.sql, part), Kind::kLiteral, type};
}

std::string_view DigestName(Builtin function) {
  switch (function) {
    case Builtin::kMd5:
      return "MD5";
    case Builtin::kSha1:
      return "SHA1";
    case Builtin::kSha256:
      return "SHA256";
    case Builtin::kSha384:
      return "SHA384";
    default:
      return "SHA512";
  }
}

// STRDT(lexical, <datatype>): the datatype must be written in the query, so the result's
// storage type is known. A datatype Quarry does not store (a custom one) stays a string.
Result<SqlExpr> StrDt(const BuiltinCall& call, const std::vector<SqlExpr>& args) {
  const Term* term = std::get_if<Term>(&call.args.at(1).node);
  const Iri* datatype = term ? std::get_if<Iri>(term) : nullptr;
  if (!datatype)
    return Unsupported("STRDT with a datatype that is not an IRI written in the query");
  if (!MayBeString(args.at(0))) return TypeError(ValueType::kString);
  const ValueType type = ontology::DatatypeValueType(datatype->iri).value_or(ValueType::kString);
  if (type == ValueType::kResource) return TypeError(ValueType::kString);
  return SqlExpr{fmt::format("quarry_cast({}, {})", args[0].sql, static_cast<int>(type)),
                 Kind::kLiteral, type};
}

}  // namespace

Result<SqlExpr> TermBuiltin(Translator& translator, const BuiltinCall& call,
                            const std::vector<SqlExpr>& args) {
  switch (call.function) {
    case Builtin::kDatatype:
      return Datatype(translator, args.at(0));
    case Builtin::kIri:
    case Builtin::kUri:
      if (const Term* term = std::get_if<Term>(&call.args.at(0).node)) {
        // A constant IRI need not be stored: IRI(<x>) is <x> itself, not its Resource ID.
        if (const Iri* iri = std::get_if<Iri>(term)) return IriText(translator.BindValue(iri->iri));
      }
      if (IsIriLike(args.at(0))) return args[0];
      if (const Literal* literal = ConstantLiteral(call.args.at(0));
          literal && literal->lang.empty() && !translator.base_iri().empty() &&
          !HasScheme(literal->lexical) &&
          (literal->datatype_iri.empty() || literal->datatype_iri == std::string(kXsdNs) + "string")) {
        // A relative IRI resolves against the query's BASE (§17.4.2.8); it need not be stored.
        return IriText(translator.BindValue(ResolveIri(translator.base_iri(), literal->lexical)));
      }
      if (!MayBeString(args[0])) return TypeError(ValueType::kResource);
      return SqlExpr{
          fmt::format("(SELECT ID FROM Resource WHERE Uri = quarry_text({}))", args[0].sql),
          Kind::kResource, ValueType::kResource};
    case Builtin::kBnode:
      if (args.empty()) return IriText("('_:q' || lower(hex(randomblob(8))))");
      if (!MayBeString(args[0])) return TypeError(ValueType::kResource);
      return IriText(fmt::format("('_:q' || quarry_hash(quarry_text({}), 'MD5'))", args[0].sql));
    case Builtin::kStrDt:
      return StrDt(call, args);
    case Builtin::kIsIri:
    case Builtin::kIsUri:
    case Builtin::kIsBlank:
    case Builtin::kIsLiteral:
    case Builtin::kIsNumeric:
      return TermTest(call.function, args.at(0));
    case Builtin::kSameTerm:
      return SameTerm(args.at(0), args.at(1));
    case Builtin::kAbs:
    case Builtin::kCeil:
    case Builtin::kFloor:
    case Builtin::kRound:
      return Math(call.function, args.at(0));
    case Builtin::kRand:
      return Double("(abs(random()) / 9223372036854775808.0)");
    case Builtin::kNow:
      return SqlExpr{"quarry_now(0)", Kind::kLiteral, ValueType::kDateTime};
    case Builtin::kYear:
    case Builtin::kMonth:
    case Builtin::kDay:
    case Builtin::kHours:
    case Builtin::kMinutes:
    case Builtin::kSeconds:
    case Builtin::kTimezone:
    case Builtin::kTz:
      return DatePart(call.function, args.at(0));
    case Builtin::kMd5:
    case Builtin::kSha1:
    case Builtin::kSha256:
    case Builtin::kSha384:
    case Builtin::kSha512:
      if (!MayBeString(args.at(0))) return TypeError(ValueType::kString);
      return Text(fmt::format("quarry_hash({}, '{}')", args[0].sql, DigestName(call.function)));
    case Builtin::kUuid:
      return IriText("quarry_uuid(1)");
    case Builtin::kStrUuid:
      return Text("quarry_uuid(0)");
    default:
      return Unsupported(fmt::format("the function {}", BuiltinName(call.function)));
  }
}

}  // namespace quarry::sparql::translate
