#include "store/engine/cursor.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <charconv>
#include <cstdlib>
#include <iterator>

#include "store/common/datetime.h"

namespace quarry::engine {
namespace {

using ontology::ValueType;
using sparql::ColumnKind;

ValueKind KindOfType(ValueType type) {
  switch (type) {
    case ValueType::kResource: return ValueKind::kIri;
    case ValueType::kString:
    case ValueType::kDate: return ValueKind::kString;
    case ValueType::kLangString: return ValueKind::kLangString;
    case ValueType::kInteger: return ValueKind::kInteger;
    case ValueType::kBoolean: return ValueKind::kBoolean;
    case ValueType::kDouble: return ValueKind::kDouble;
    case ValueType::kDateTime: return ValueKind::kDateTime;
  }
  return ValueKind::kString;
}

std::string Xsd(std::string_view local) { return std::string(ontology::iri::kXsd) + std::string(local); }

// kTerm columns (quad_table.h TermOutputSql): a tag, then the IRI, "_:b<ID>", text, or
// datatype 0x1F lexical.
ValueKind TermKind(std::string_view text) {
  if (text.empty()) return ValueKind::kString;
  switch (text[0]) {
    case 'I': return ValueKind::kIri;
    case 'B': return ValueKind::kBlankNode;
    case 'L': break;
    default: return ValueKind::kString;
  }
  const std::string_view datatype = text.substr(1, text.find('\x1f') - 1);
  if (datatype == Xsd("integer")) return ValueKind::kInteger;
  if (datatype == Xsd("double")) return ValueKind::kDouble;
  if (datatype == Xsd("boolean")) return ValueKind::kBoolean;
  return ValueKind::kString;  // any other datatype: its lexical form, GetDatatype() names it
}

std::string_view TermLexical(std::string_view text) {
  if (text.empty()) return text;
  if (text[0] != 'L') return text.substr(1);
  const size_t separator = text.find('\x1f');
  return separator == std::string_view::npos ? text.substr(1) : text.substr(separator + 1);
}

// A kTerm literal's datatype IRI: xsd:string for a plain one ('S'), the named one ('L'), none
// for IRIs and blank nodes.
std::string TermDatatype(std::string_view text) {
  if (text.substr(0, 1) == "S") return Xsd("string");
  if (text.substr(0, 1) == "L") return std::string(text.substr(1, text.find('\x1f') - 1));
  return {};
}

// The text of a value (converted in place by SQLite when it is a number, as ColumnText()).
// Empty text is not asked for: text SQLite holds without a terminating NUL (a bound "") would
// be copied to add one.
std::string_view ValueText(sqlite3_value* value, int sql_type) {
  if (sql_type == SQLITE_TEXT && sqlite3_value_bytes(value) == 0) return {};
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(value));
  if (text == nullptr) return {};
  return {text, static_cast<size_t>(sqlite3_value_bytes(value))};
}

// A language-tagged string's BLOB: `text NUL lang`, read as a blob so SQLite never converts
// the column (a conversion would change what ColumnType() reports).
ValueView LangString(sqlite3_value* value) {
  const auto* blob = static_cast<const char*>(sqlite3_value_blob(value));
  if (blob == nullptr) return {ValueKind::kLangString, {}, {}};
  const std::string_view bytes(blob, static_cast<size_t>(sqlite3_value_bytes(value)));
  const size_t nul = bytes.rfind('\0');
  if (nul == std::string_view::npos) return {ValueKind::kLangString, bytes, {}};
  return {ValueKind::kLangString, bytes.substr(0, nul), bytes.substr(nul + 1)};
}

std::string_view FormatInteger(int64_t number, std::string& out) {
  char digits[24];
  const auto end = std::to_chars(std::begin(digits), std::end(digits), number).ptr;
  out.assign(digits, end);
  return out;
}

}  // namespace

std::string_view ValueKindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kUnbound: return "unbound";
    case ValueKind::kIri: return "iri";
    case ValueKind::kString: return "string";
    case ValueKind::kInteger: return "integer";
    case ValueKind::kDouble: return "double";
    case ValueKind::kDateTime: return "datetime";
    case ValueKind::kBlankNode: return "blank";
    case ValueKind::kBoolean: return "boolean";
    case ValueKind::kLangString: return "langstring";
  }
  return "unknown";
}

Cursor::Cursor(Statement statement, std::vector<sparql::OutputColumn> columns)
    : Cursor(std::move(statement),
             std::make_shared<const std::vector<sparql::OutputColumn>>(std::move(columns))) {}

Cursor::Cursor(Statement statement,
               std::shared_ptr<const std::vector<sparql::OutputColumn>> columns)
    : statement_(std::move(statement)), columns_(std::move(columns)) {}

std::string& Cursor::Scratch(int column) {
  if (scratch_.empty()) scratch_.resize(columns_->size());
  return scratch_[static_cast<size_t>(column)];
}

Result<bool> Cursor::Next() { return statement_.Step(); }

bool Cursor::IsBound(int column) const {
  return statement_.ColumnType(column) != SQLITE_NULL;
}

ValueKind Cursor::Kind(int column) const {
  const int sql_type = statement_.ColumnType(column);
  if (sql_type == SQLITE_NULL) return ValueKind::kUnbound;
  const sparql::OutputColumn& output = (*columns_)[column];
  if (sql_type == SQLITE_BLOB) return ValueKind::kLangString;
  switch (output.kind) {
    case ColumnKind::kResource: {
      const std::string_view text = statement_.ColumnText(column);
      return text.substr(0, 2) == "_:" ? ValueKind::kBlankNode : ValueKind::kIri;
    }
    case ColumnKind::kLiteral:
      return KindOfType(output.type);
    case ColumnKind::kResourceId:
      return ValueKind::kInteger;
    case ColumnKind::kTerm:
      return TermKind(statement_.ColumnText(column));
    case ColumnKind::kDynamic:
      break;
  }
  switch (sql_type) {
    case SQLITE_INTEGER: return ValueKind::kInteger;
    case SQLITE_FLOAT: return ValueKind::kDouble;
    default: return ValueKind::kString;
  }
}

std::string_view Cursor::GetString(int column) { return GetValue(column).text; }

ValueView Cursor::GetValue(int column) {
  // One sqlite3_column_* call per value, then typed reads of the value it returns (no text
  // conversion of numbers): each column call costs ~60 instructions of checks and mutex calls,
  // and Kind() + GetString() made three to five per value (issue 5: a miner restart's children
  // rows, 725 → ~400 instructions per value). sqlite3_column_value's value is the column's own,
  // read on the statement's one thread as the single getters read it.
  sqlite3_value* const value = sqlite3_column_value(statement_.handle(), column);
  const int sql_type = sqlite3_value_type(value);
  if (sql_type == SQLITE_NULL) return {};
  if (sql_type == SQLITE_BLOB) return LangString(value);  // whatever the column (Kind())
  const sparql::OutputColumn& output = (*columns_)[column];
  ValueKind kind = ValueKind::kString;
  switch (output.kind) {
    case ColumnKind::kResource: {
      const std::string_view text = ValueText(value, sql_type);
      return {text.substr(0, 2) == "_:" ? ValueKind::kBlankNode : ValueKind::kIri, text, {}};
    }
    case ColumnKind::kLiteral:
      kind = KindOfType(output.type);
      break;
    case ColumnKind::kResourceId:
      kind = ValueKind::kInteger;
      break;
    case ColumnKind::kTerm: {  // open mode's tagged terms (quad_table.h TermOutputSql)
      const std::string_view text = ValueText(value, sql_type);
      return {TermKind(text), TermLexical(text), {}};
    }
    case ColumnKind::kDynamic:
      kind = sql_type == SQLITE_INTEGER ? ValueKind::kInteger
             : sql_type == SQLITE_FLOAT ? ValueKind::kDouble
                                        : ValueKind::kString;
      break;
  }
  // Lexical forms from the typed value: numbers formatted here, not converted by SQLite.
  switch (kind) {
    case ValueKind::kInteger:
      if (sql_type != SQLITE_INTEGER) break;
      return {kind, FormatInteger(sqlite3_value_int64(value), Scratch(column)), {}};
    case ValueKind::kDouble: {
      if (sql_type != SQLITE_FLOAT && sql_type != SQLITE_INTEGER) break;
      std::string& lexical = Scratch(column);
      lexical.clear();
      fmt::format_to(std::back_inserter(lexical), "{}", sqlite3_value_double(value));
      return {kind, lexical, {}};
    }
    case ValueKind::kBoolean:
      return {kind, sqlite3_value_int64(value) != 0 ? "true" : "false", {}};
    case ValueKind::kDateTime: {
      std::string& lexical = Scratch(column);
      DecodeDateTimeTo(ValueText(value, sql_type), lexical);
      return {kind, lexical, {}};
    }
    default:  // text, and plain text in a language-tagged column
      break;
  }
  return {kind, ValueText(value, sql_type), {}};
}

std::string Cursor::GetDatatype(int column) {
  const ValueKind kind = Kind(column);
  if ((*columns_)[column].kind == ColumnKind::kTerm && kind != ValueKind::kUnbound &&
      kind != ValueKind::kLangString) {
    return TermDatatype(statement_.ColumnText(column));
  }
  switch (kind) {
    case ValueKind::kString:
      if ((*columns_)[column].kind == ColumnKind::kLiteral && (*columns_)[column].type == ValueType::kDate) {
        return Xsd("date");
      }
      return Xsd("string");
    case ValueKind::kInteger: return Xsd("integer");
    case ValueKind::kDouble: return Xsd("double");
    case ValueKind::kBoolean: return Xsd("boolean");
    case ValueKind::kDateTime: return Xsd("dateTime");
    case ValueKind::kLangString: return std::string(ontology::iri::kRdf) + "langString";
    default: return {};
  }
}

std::string_view Cursor::GetLanguage(int column) {
  if (statement_.ColumnType(column) != SQLITE_BLOB) return {};
  return LangString(sqlite3_column_value(statement_.handle(), column)).lang;
}

int64_t Cursor::GetInteger(int column) const {
  if ((*columns_)[column].kind != ColumnKind::kTerm) return statement_.ColumnInt64(column);
  const std::string lexical(TermLexical(statement_.ColumnText(column)));
  return lexical == "true" ? 1 : std::strtoll(lexical.c_str(), nullptr, 10);
}

double Cursor::GetDouble(int column) const {
  if ((*columns_)[column].kind != ColumnKind::kTerm) return statement_.ColumnDouble(column);
  return std::strtod(std::string(TermLexical(statement_.ColumnText(column))).c_str(), nullptr);
}

std::optional<schema::RdfTerm> Cursor::GetTerm(int column) {
  const ValueView read = GetValue(column);
  const ValueKind kind = read.kind;
  const std::string value(read.text);
  if ((*columns_)[column].kind == ColumnKind::kTerm && kind != ValueKind::kUnbound &&
      kind != ValueKind::kLangString && kind != ValueKind::kIri && kind != ValueKind::kBlankNode) {
    // The kind is known (GetValue): only the datatype is read, not the kind again.
    std::string datatype = TermDatatype(statement_.ColumnText(column));
    if (datatype == Xsd("string")) datatype.clear();
    return schema::RdfTerm::Literal(value, std::move(datatype));
  }
  switch (kind) {
    case ValueKind::kUnbound: return std::nullopt;
    case ValueKind::kIri: return schema::RdfTerm::Iri(value);
    case ValueKind::kBlankNode: return schema::RdfTerm::Blank(value.substr(2));
    case ValueKind::kLangString:
      return schema::RdfTerm::Literal(value, {}, std::string(read.lang));
    case ValueKind::kInteger: return schema::RdfTerm::Literal(value, Xsd("integer"));
    case ValueKind::kDouble: return schema::RdfTerm::Literal(value, Xsd("double"));
    case ValueKind::kBoolean: return schema::RdfTerm::Literal(value, Xsd("boolean"));
    case ValueKind::kDateTime: return schema::RdfTerm::Literal(value, Xsd("dateTime"));
    case ValueKind::kString:
      if ((*columns_)[column].kind == ColumnKind::kLiteral && (*columns_)[column].type == ValueType::kDate) {
        return schema::RdfTerm::Literal(value, Xsd("date"));
      }
      return schema::RdfTerm::Literal(value);
  }
  return std::nullopt;
}

}  // namespace quarry::engine
