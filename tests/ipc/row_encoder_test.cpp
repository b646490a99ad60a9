// The Steroids row format written by the store, decoded back (no bus needed).
#include "store/ipc/row_encoder.h"

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "tests/ipc/steroids_reader.h"
#include "tests/store/engine/store_test_util.h"

namespace quarry::testing {
namespace {

std::string EncodeAll(TestStore& store, const std::string& query) {
  auto cursor = store->Query(query);
  REQUIRE(cursor.ok());
  std::string bytes;
  for (;;) {
    auto has_row = cursor->Next();
    REQUIRE(has_row.ok());
    if (!*has_row) break;
    ipc::AppendRow(*cursor, bytes);
  }
  return bytes;
}

// The encoder before issue 4's "fdcpu" work, value by value through Kind(), GetString() and
// GetLanguage(): the bytes every row must still have.
std::string EncodeAllPerValue(TestStore& store, const std::string& query) {
  auto cursor = store->Query(query);
  REQUIRE(cursor.ok());
  std::string out;
  const auto append_int32 = [&out](int32_t value) {
    char bytes[sizeof value];
    std::memcpy(bytes, &value, sizeof value);
    out.append(bytes, sizeof value);
  };
  for (;;) {
    auto has_row = cursor->Next();
    REQUIRE(has_row.ok());
    if (!*has_row) break;
    const int columns = cursor->ColumnCount();
    append_int32(columns);
    for (int column = 0; column < columns; ++column) {
      append_int32(static_cast<int32_t>(cursor->Kind(column)));
    }
    std::string data;
    std::vector<int32_t> ends;
    for (int column = 0; column < columns; ++column) {
      const engine::ValueKind kind = cursor->Kind(column);
      if (kind != engine::ValueKind::kUnbound) data.append(cursor->GetString(column));
      data.push_back('\0');
      if (kind == engine::ValueKind::kLangString) {
        data.append(cursor->GetLanguage(column));
        data.push_back('\0');
      }
      ends.push_back(static_cast<int32_t>(data.size() - 1));
    }
    for (const int32_t end : ends) append_int32(end);
    out += data;
  }
  return out;
}

constexpr std::string_view kMixedQuery = R"(SELECT ?s ?t ?n ?r ?f ?c ?d ?p ?missing ?g ?k {
    ?s a ex:Song OPTIONAL { ?s ex:title ?t } OPTIONAL { ?s ex:size ?n }
    OPTIONAL { ?s ex:rating ?r } OPTIONAL { ?s ex:favourite ?f } OPTIONAL { ?s ex:created ?c }
    OPTIONAL { ?s ex:released ?d } OPTIONAL { ?s ex:performer ?p }
    OPTIONAL { ?s ex:track ?missing } OPTIONAL { ?s ex:genre ?g }
    BIND (COALESCE(?t, ?g, 7) AS ?k) } ORDER BY ?s)";

void InsertMixedRows(TestStore& store, const std::string& long_value) {
  store.Update(R"(INSERT DATA {
      <urn:s1> a ex:Song ; ex:title "hello"@en ; ex:size 42 ; ex:rating 2.5 ; ex:favourite true ;
        ex:created "2024-01-02T03:04:05Z" ; ex:released "2024-05-06"^^xsd:date ;
        ex:performer <urn:a1> ; ex:genre "pop" .
      <urn:a1> a ex:Artist .
      <urn:s2> a ex:Song ; ex:title "" ; ex:favourite false ; ex:rating -0.125 ; ex:size -7 .
      <urn:s3> a ex:Song ; ex:performer _:anon .
      _:anon a ex:Artist .
      <urn:s4> a ex:Song ; ex:title "plain title" ; ex:genre "rock" .
    })");
  store.Update("INSERT DATA { <urn:s5> a ex:Song ; ex:title \"" + long_value +
               "\" ; ex:genre \"" + long_value + "\"@de }");
}

TEST_CASE("Steroids rows: one type lookup per value writes the same bytes as value by value") {
  TestStore store;
  // Two values over one 64 KiB stream block each, in one row, after short rows.
  std::string long_value(70 * 1024, 'x');
  for (size_t i = 0; i < long_value.size(); i += 97) {
    long_value[i] = static_cast<char>('a' + i % 26);
  }
  InsertMixedRows(store, long_value);
  const std::string query(kMixedQuery);
  const std::string bytes = EncodeAll(store, query);
  CHECK(bytes == EncodeAllPerValue(store, query));
  const std::vector<StreamRow> rows = ReadRows(bytes);
  REQUIRE(rows.size() == 5);
  // The unbound values (NULLs) of urn:s4, and its string-valued COALESCE.
  CHECK(rows[3][0].text == "urn:s4");
  CHECK(rows[3][2].type == 0);
  CHECK(rows[3][7].type == 0);
  CHECK(rows[3][10].text == "plain title");
  // urn:s3's performer is a blank node; urn:s5 holds the long plain and tagged values.
  CHECK(rows[2][7].type == 6);
  CHECK(rows[4][1].text == long_value);
  CHECK(rows[4][9].type == 8);
  CHECK(rows[4][9].text == long_value);
  CHECK(rows[4][9].lang == "de");
}

// GetString() is GetValue()'s text; the kind and language have getters of their own.
TEST_CASE("Cursor::GetValue: the kind and language the single getters give") {
  TestStore store;
  InsertMixedRows(store, std::string(70 * 1024, 'y'));
  auto cursor = store->Query(std::string(kMixedQuery));
  REQUIRE(cursor.ok());
  int rows = 0;
  int kinds_seen = 0;
  for (;;) {
    auto has_row = cursor->Next();
    REQUIRE(has_row.ok());
    if (!*has_row) break;
    ++rows;
    for (int column = 0; column < cursor->ColumnCount(); ++column) {
      const engine::ValueView value = cursor->GetValue(column);
      CAPTURE(rows);
      CAPTURE(column);
      CHECK(value.kind == cursor->Kind(column));
      CHECK(value.lang == cursor->GetLanguage(column));
      kinds_seen |= 1 << static_cast<int>(value.kind);
    }
  }
  CHECK(rows == 5);
  // unbound, IRI, string, integer, double, dateTime, blank node, boolean, lang string
  CHECK(kinds_seen == 0x1FF);
}

// Each column kind with each SQLite type it can hold, read through GetValue() (one column
// call, typed reads: issue 5) and through the single getters, and written as Steroids rows.
struct TypedColumn {
  const char* sql;
  sparql::ColumnKind kind;
  ontology::ValueType type;
  engine::ValueKind expected_kind;
  const char* expected_text;
  std::string_view expected_lang = {};
};

TEST_CASE(
    "Cursor::GetValue: integers, doubles, text and NULL by their type, as the single getters") {
  using engine::ValueKind;
  using ontology::ValueType;
  using sparql::ColumnKind;
  const std::vector<TypedColumn> columns = {
      {"42", ColumnKind::kDynamic, ValueType::kString, ValueKind::kInteger, "42"},
      {"-9223372036854775808", ColumnKind::kDynamic, ValueType::kString, ValueKind::kInteger,
       "-9223372036854775808"},
      {"2.5", ColumnKind::kDynamic, ValueType::kString, ValueKind::kDouble, "2.5"},
      {"'text'", ColumnKind::kDynamic, ValueType::kString, ValueKind::kString, "text"},
      {"''", ColumnKind::kDynamic, ValueType::kString, ValueKind::kString, ""},
      // A bound "" through CASE (the miner's children query): SQLite holds it unterminated.
      {"CASE WHEN 1 THEN ?1 END", ColumnKind::kDynamic, ValueType::kString, ValueKind::kString, ""},
      {"NULL", ColumnKind::kDynamic, ValueType::kString, ValueKind::kUnbound, ""},
      {"9223372036854775807", ColumnKind::kLiteral, ValueType::kInteger, ValueKind::kInteger,
       "9223372036854775807"},
      {"-7", ColumnKind::kLiteral, ValueType::kInteger, ValueKind::kInteger, "-7"},
      {"'17'", ColumnKind::kLiteral, ValueType::kInteger, ValueKind::kInteger, "17"},
      {"NULL", ColumnKind::kLiteral, ValueType::kInteger, ValueKind::kUnbound, ""},
      {"-0.125", ColumnKind::kLiteral, ValueType::kDouble, ValueKind::kDouble, "-0.125"},
      {"1e300", ColumnKind::kLiteral, ValueType::kDouble, ValueKind::kDouble, "1e+300"},
      {"3", ColumnKind::kLiteral, ValueType::kDouble, ValueKind::kDouble, "3"},
      {"1", ColumnKind::kLiteral, ValueType::kBoolean, ValueKind::kBoolean, "true"},
      {"0", ColumnKind::kLiteral, ValueType::kBoolean, ValueKind::kBoolean, "false"},
      {"'2024-01-02T03:04:05.500000Z'", ColumnKind::kLiteral, ValueType::kDateTime,
       ValueKind::kDateTime, "2024-01-02T03:04:05.5Z"},
      {"'plain'", ColumnKind::kLiteral, ValueType::kString, ValueKind::kString, "plain"},
      {"''", ColumnKind::kLiteral, ValueType::kString, ValueKind::kString, ""},
      {"'2024-05-06'", ColumnKind::kLiteral, ValueType::kDate, ValueKind::kString, "2024-05-06"},
      {"x'68656c6c6f00656e'", ColumnKind::kLiteral, ValueType::kLangString, ValueKind::kLangString,
       "hello", "en"},
      {"'untagged'", ColumnKind::kLiteral, ValueType::kLangString, ValueKind::kLangString,
       "untagged"},
      {"'urn:x'", ColumnKind::kResource, ValueType::kResource, ValueKind::kIri, "urn:x"},
      {"'_:b12'", ColumnKind::kResource, ValueType::kResource, ValueKind::kBlankNode, "_:b12"},
      {"NULL", ColumnKind::kResource, ValueType::kResource, ValueKind::kUnbound, ""},
      {"1234", ColumnKind::kResourceId, ValueType::kResource, ValueKind::kInteger, "1234"},
      // Open mode's self-describing terms (quad_table.h TermOutputSql).
      {"'Iurn:t'", ColumnKind::kTerm, ValueType::kString, ValueKind::kIri, "urn:t"},
      {"'B_:b7'", ColumnKind::kTerm, ValueType::kString, ValueKind::kBlankNode, "_:b7"},
      {"'Splain term'", ColumnKind::kTerm, ValueType::kString, ValueKind::kString, "plain term"},
      {"'Lhttp://www.w3.org/2001/XMLSchema#integer' || char(31) || '12'", ColumnKind::kTerm,
       ValueType::kString, ValueKind::kInteger, "12"},
      {"'Lurn:datatype' || char(31) || 'v 1'", ColumnKind::kTerm, ValueType::kString,
       ValueKind::kString, "v 1"},
      {"x'6869006672'", ColumnKind::kTerm, ValueType::kString, ValueKind::kLangString, "hi", "fr"},
  };
  std::string sql = "SELECT ";
  std::vector<sparql::OutputColumn> outputs;
  for (const TypedColumn& column : columns) {
    sql += (outputs.empty() ? "" : ", ") + std::string(column.sql);
    outputs.push_back({"v" + std::to_string(outputs.size()), column.kind, column.type});
  }
  TestStore store;
  const auto open = [&] {
    auto statement = store->database().Prepare(sql);
    REQUIRE(statement.ok());
    REQUIRE(statement->Bind(1, std::string_view()).ok());
    engine::Cursor cursor(std::move(*statement), outputs);
    auto has_row = cursor.Next();
    REQUIRE(has_row.ok());
    REQUIRE(*has_row);
    return cursor;
  };
  engine::Cursor cursor = open();
  engine::Cursor single = open();
  for (size_t i = 0; i < columns.size(); ++i) {
    const TypedColumn& expected = columns[i];
    const int column = static_cast<int>(i);
    CAPTURE(expected.sql);
    CAPTURE(i);
    const engine::ValueView value = cursor.GetValue(column);
    CHECK(value.kind == expected.expected_kind);
    CHECK(std::string(value.text) == expected.expected_text);
    CHECK(value.lang == expected.expected_lang);
    // The single getters on their own cursor (no conversion by GetValue before them), and then
    // on this one, after GetValue read the value.
    CHECK(single.Kind(column) == expected.expected_kind);
    CHECK(std::string(single.GetString(column)) == expected.expected_text);
    CHECK(single.GetLanguage(column) == expected.expected_lang);
    CHECK(cursor.Kind(column) == expected.expected_kind);
    CHECK(std::string(cursor.GetString(column)) == expected.expected_text);
  }
  engine::Cursor encoded = open();
  std::string bytes;
  ipc::AppendRow(encoded, bytes);
  const std::vector<StreamRow> rows = ReadRows(bytes);
  REQUIRE(rows.size() == 1);
  REQUIRE(rows[0].size() == columns.size());
  for (size_t i = 0; i < columns.size(); ++i) {
    CAPTURE(columns[i].sql);
    CHECK(rows[0][i].type == static_cast<int32_t>(columns[i].expected_kind));
    CHECK(rows[0][i].text == columns[i].expected_text);
    CHECK(rows[0][i].lang == columns[i].expected_lang);
  }
}

TEST_CASE("Steroids rows: every value type, unbound and language tags round-trip") {
  TestStore store;
  store.Update(R"(INSERT DATA { <urn:s1> a ex:Song ; ex:title "hello"@en ; ex:size 42 ;
                  ex:rating 2.5 ; ex:favourite true ; ex:created "2024-01-02T03:04:05Z" })");
  const std::string bytes = EncodeAll(store, R"(SELECT ?s ?t ?n ?r ?f ?c ?missing {
      ?s ex:title ?t ; ex:size ?n ; ex:rating ?r ; ex:favourite ?f ; ex:created ?c
      OPTIONAL { ?s ex:track ?missing } })");
  const std::vector<StreamRow> rows = ReadRows(bytes);
  REQUIRE(rows.size() == 1);
  const StreamRow& row = rows[0];
  REQUIRE(row.size() == 7);
  CHECK(row[0].type == 1);
  CHECK(row[0].text == "urn:s1");
  CHECK(row[1].type == 8);
  CHECK(row[1].text == "hello");
  CHECK(row[1].lang == "en");
  CHECK(row[2].type == 3);
  CHECK(row[2].text == "42");
  CHECK(row[3].type == 4);
  CHECK(std::stod(row[3].text) == 2.5);
  CHECK(row[4].type == 7);
  CHECK(row[4].text == "true");
  CHECK(row[5].type == 5);
  CHECK(row[5].text.starts_with("2024-01-02T03:04:05"));
  CHECK(row[6].type == 0);
  CHECK(row[6].text.empty());
}

TEST_CASE("Steroids rows: end offsets point at each value's NUL") {
  TestStore store;
  store.Update(R"(INSERT DATA { <urn:a> a ex:Song ; ex:title "abc" ; ex:content "" })");
  const std::string bytes =
      EncodeAll(store, "SELECT ?t ?c { <urn:a> ex:title ?t ; ex:content ?c }");
  // n=2, types 2 2, ends 3 4, "abc\0\0"
  REQUIRE(bytes.size() == 4 + 8 + 8 + 5);
  size_t position = 4 + 8;
  CHECK(ReadInt32(bytes, position) == 3);
  CHECK(ReadInt32(bytes, position) == 4);
  CHECK(bytes.substr(20) == std::string("abc\0\0", 5));
}

}  // namespace
}  // namespace quarry::testing
