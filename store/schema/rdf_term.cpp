#include "store/schema/rdf_term.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "store/common/datetime.h"

namespace quarry::schema {
namespace {

using ontology::ValueType;

std::string Xsd(std::string_view local) { return std::string(ontology::iri::kXsd) + std::string(local); }

bool IsXsd(std::string_view datatype, std::initializer_list<std::string_view> locals) {
  if (datatype.substr(0, ontology::iri::kXsd.size()) != ontology::iri::kXsd) return false;
  const std::string_view local = datatype.substr(ontology::iri::kXsd.size());
  for (const std::string_view candidate : locals) {
    if (local == candidate) return true;
  }
  return false;
}

bool IsIntegerType(std::string_view datatype) {
  return IsXsd(datatype, {"integer", "int", "long", "short", "byte", "nonNegativeInteger",
                          "positiveInteger", "nonPositiveInteger", "negativeInteger",
                          "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte"});
}

bool IsStringType(std::string_view datatype) {
  return datatype.empty() || IsXsd(datatype, {"string"}) ||
         datatype == std::string(ontology::iri::kRdf) + "langString";
}

Error Mismatch(const RdfTerm& literal, ValueType type, std::string_view why = {}) {
  return Error(Errc::kConstraint,
               fmt::format("{} is not a valid {}{}{}", literal.ToString(),
                           ontology::ValueTypeName(type), why.empty() ? "" : ": ", why));
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\n')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n')) {
    text.remove_suffix(1);
  }
  return text;
}

Result<SqlValue> EncodeInteger(const RdfTerm& literal) {
  std::string_view text = Trim(literal.value);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int64_t number = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return Mismatch(literal, ValueType::kInteger,
                    ec == std::errc::result_out_of_range ? "out of the 64-bit range" : "");
  }
  return SqlValue(number);
}

Result<SqlValue> EncodeDouble(const RdfTerm& literal) {
  const std::string text(Trim(literal.value));
  if (text == "INF" || text == "+INF") return SqlValue(HUGE_VAL);
  if (text == "-INF") return SqlValue(-HUGE_VAL);
  if (text == "NaN") return SqlValue(std::nan(""));
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  const bool is_word = !text.empty() && (std::isalpha(static_cast<unsigned char>(text[0])) ||
                                         text.find_first_of("xXnN") != std::string::npos);
  if (text.empty() || is_word || end != text.c_str() + text.size()) {
    return Mismatch(literal, ValueType::kDouble);
  }
  return SqlValue(number);
}

Result<SqlValue> EncodeBoolean(const RdfTerm& literal) {
  const std::string_view text = Trim(literal.value);
  if (text == "true" || text == "1") return SqlValue(int64_t{1});
  if (text == "false" || text == "0") return SqlValue(int64_t{0});
  return Mismatch(literal, ValueType::kBoolean);
}

Result<SqlValue> EncodeString(const RdfTerm& literal) {
  if (!literal.lang.empty()) return SqlValue(EncodeLangString(literal.value, literal.lang));
  return SqlValue(literal.value);
}

}  // namespace

std::string RdfTerm::ToString() const {
  switch (kind) {
    case Kind::kIri: return "<" + value + ">";
    case Kind::kBlank: return "_:" + value;
    case Kind::kLiteral: break;
  }
  std::string text = "\"" + value + "\"";
  if (!lang.empty()) return text + "@" + lang;
  if (!datatype.empty() && datatype != Xsd("string")) text += "^^<" + datatype + ">";
  return text;
}

Result<SqlValue> EncodeLiteral(const RdfTerm& literal, ValueType type) {
  if (literal.is_resource()) {
    return Error(Errc::kConstraint, fmt::format("{} is a resource where a {} literal is expected",
                                                literal.ToString(), ontology::ValueTypeName(type)));
  }
  const std::string& datatype = literal.datatype;
  // An untyped string is accepted for every literal type when its lexical form is valid
  // (Tracker accepts "2024-01-01T00:00:00Z" for a dateTime); a typed literal must match.
  const bool plain = datatype.empty() || IsXsd(datatype, {"string"});
  switch (type) {
    case ValueType::kString:
    case ValueType::kLangString:
      if (!IsStringType(datatype)) return Mismatch(literal, type);
      return EncodeString(literal);
    case ValueType::kInteger:
      if (!plain && !IsIntegerType(datatype)) return Mismatch(literal, type);
      return EncodeInteger(literal);
    case ValueType::kDouble:
      if (!plain && !IsIntegerType(datatype) && !IsXsd(datatype, {"double", "float", "decimal"})) {
        return Mismatch(literal, type);
      }
      return EncodeDouble(literal);
    case ValueType::kBoolean:
      if (!plain && !IsXsd(datatype, {"boolean"})) return Mismatch(literal, type);
      return EncodeBoolean(literal);
    case ValueType::kDateTime: {
      if (!plain && !IsXsd(datatype, {"dateTime", "date"})) return Mismatch(literal, type);
      std::string lexical(Trim(literal.value));
      if (lexical.size() == 10 && lexical.find('T') == std::string::npos) lexical += "T00:00:00";
      auto encoded = EncodeDateTime(lexical);
      if (!encoded) return Mismatch(literal, type, encoded.error().message());
      return SqlValue(std::move(*encoded));
    }
    case ValueType::kDate: {
      if (!plain && !IsXsd(datatype, {"date"})) return Mismatch(literal, type);
      auto encoded = EncodeDate(Trim(literal.value));
      if (!encoded) return Mismatch(literal, type, encoded.error().message());
      return SqlValue(std::move(*encoded));
    }
    case ValueType::kResource:
      break;
  }
  return Error(Errc::kConstraint,
               fmt::format("{} is a literal where a resource is expected", literal.ToString()));
}

RdfTerm DecodeLiteral(const SqlValue& value, ValueType type) {
  if (const Blob* blob = std::get_if<Blob>(&value)) {
    std::string_view text, lang;
    if (DecodeLangString(blob->bytes, &text, &lang)) {
      return RdfTerm::Literal(std::string(text), {}, std::string(lang));
    }
    return RdfTerm::Literal(blob->bytes);
  }
  if (const int64_t* number = std::get_if<int64_t>(&value)) {
    if (type == ValueType::kBoolean) return RdfTerm::Literal(*number ? "true" : "false", Xsd("boolean"));
    if (type == ValueType::kDouble) return RdfTerm::Literal(fmt::format("{}", double(*number)), Xsd("double"));
    return RdfTerm::Literal(std::to_string(*number), Xsd("integer"));
  }
  if (const double* number = std::get_if<double>(&value)) {
    return RdfTerm::Literal(fmt::format("{}", *number), Xsd("double"));
  }
  if (const std::string* text = std::get_if<std::string>(&value)) {
    if (type == ValueType::kDateTime) return RdfTerm::Literal(DecodeDateTime(*text), Xsd("dateTime"));
    if (type == ValueType::kDate) return RdfTerm::Literal(*text, Xsd("date"));
    return RdfTerm::Literal(*text);
  }
  return RdfTerm::Literal("");
}

Blob EncodeLangString(std::string_view text, std::string_view lang) {
  Blob blob;
  blob.bytes.reserve(text.size() + 1 + lang.size());
  blob.bytes.append(text);
  blob.bytes.push_back('\0');
  blob.bytes.append(lang);
  return blob;
}

bool DecodeLangString(std::string_view bytes, std::string_view* text, std::string_view* lang) {
  const size_t nul = bytes.rfind('\0');
  if (nul == std::string_view::npos) return false;
  *text = bytes.substr(0, nul);
  *lang = bytes.substr(nul + 1);
  return true;
}

}  // namespace quarry::schema
