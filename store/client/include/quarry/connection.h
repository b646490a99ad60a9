// quarry::Connection: the public entry point to a Quarry store.
//
// Open() opens a database directory embedded (direct access: queries compile and run in the
// caller's process). It writes only while it holds the directory's lock (no store process runs
// there); otherwise it is read-only and updates fail with a clear error. The D-Bus connection to
// quarry-store arrives with the store process (issue 4) behind the same interface.
// Thread-safety: one thread at a time per Connection.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quarry/cursor.h"
#include "quarry/result.h"

namespace quarry {

class Statement;
class Batch;

class Connection {
 public:
  struct Options {
    std::filesystem::path database;  // the folder holding meta.db
    std::filesystem::path ontology;  // ontology files; empty = the installed ontology
    bool read_only = false;
  };
  class Impl;

  static Result<std::unique_ptr<Connection>> Open(const Options& options);
  ~Connection();

  Result<Cursor> Query(std::string_view sparql);
  // Compiles once; run it many times with different `~name` values.
  Result<Statement> Prepare(std::string_view sparql);
  // One SPARQL Update request (one transaction).
  Result<void> Update(std::string_view sparql);
  // Many requests in one transaction.
  Batch CreateBatch();
  // SQL and SQLite's plan for a query (`quarry sparql --explain`).
  Result<std::string> Explain(std::string_view sparql);
  bool writable() const;

 private:
  explicit Connection(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend class Statement;
  friend class Batch;
};

// A compiled query with `~name` parameters bound per execution:
//   auto statement = connection->Prepare("SELECT ?t { ?s nie:url ~url ; nie:title ?t }");
//   statement->BindIri("url", "file:///a.mp3");  auto cursor = statement->Execute();
class Statement {
 public:
  class Impl;
  explicit Statement(std::unique_ptr<Impl> impl);
  Statement(Statement&&) noexcept;
  Statement& operator=(Statement&&) noexcept;
  ~Statement();

  void BindIri(const std::string& name, std::string iri);
  void BindString(const std::string& name, std::string value, std::string lang = {});
  void BindInteger(const std::string& name, int64_t value);
  void BindDouble(const std::string& name, double value);
  void BindBoolean(const std::string& name, bool value);
  void BindDateTime(const std::string& name, std::string lexical);  // xsd:dateTime lexical form
  void ClearBindings();
  Result<Cursor> Execute();

 private:
  std::unique_ptr<Impl> impl_;
};

// Updates collected and run in one transaction: all or nothing.
class Batch {
 public:
  explicit Batch(Connection& connection) : connection_(connection) {}
  void Add(std::string sparql_update) { updates_.push_back(std::move(sparql_update)); }
  size_t size() const { return updates_.size(); }
  Result<void> Execute();

 private:
  Connection& connection_;
  std::vector<std::string> updates_;
};

}  // namespace quarry
