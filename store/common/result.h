// quarry::Error and quarry::Result<T>: the one way expected failures travel.
//
// An Error is a closed code (Errc), a message, and context frames added on the way up
// ("parse", "file ontology/nie.ontology"). Result<T> holds either a T or an Error and is
// [[nodiscard]]. GCC 12 has no std::expected, hence this small type.
// Thread-safety: plain values; no shared state.
#pragma once

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace quarry {

// Each code maps to one D-Bus error name (org.quarry.Error.<Name>) in error_names.cpp.
enum class Errc {
  kInvalidArgument,  // a caller passed something malformed (bad option, bad config value)
  kParse,            // SPARQL, Turtle or other text that does not parse
  kOntology,         // an ontology file is wrong (file:line:column in the message)
  kConstraint,       // an update violates the ontology (unknown class, domain, range, cardinality)
  kIncompatible,     // an ontology change the existing data cannot follow
  kType,             // a value of the wrong type (e.g. a cursor getter on the wrong column type)
  kNotFound,         // a file, resource, graph or column that does not exist
  kIo,               // the operating system said no (open, read, write)
  kBusy,             // the database stayed locked past the retry budget
  kNoSpace,          // disk or database full
  kCorrupt,          // a database or file that fails its integrity checks
  kUnsupported,      // a feature or format not handled
  kInternal,         // a bug: an invariant was broken
};

// Stable name of a code, e.g. "Parse"; used for D-Bus error names and messages.
std::string_view ErrcName(Errc code);

class Error {
 public:
  Error(Errc code, std::string message) : code_(code), message_(std::move(message)) {}

  Errc code() const { return code_; }
  const std::string& message() const { return message_; }
  const std::vector<std::string>& context() const { return context_; }

  // Adds a frame of context, outermost last: "update 2: triple <a> nie:title 5: ...".
  Error&& WithContext(std::string frame) && {
    context_.push_back(std::move(frame));
    return std::move(*this);
  }
  Error& AddContext(std::string frame) & {
    context_.push_back(std::move(frame));
    return *this;
  }

  // "outer: inner: message" — what a user sees.
  std::string ToString() const;

 private:
  Errc code_;
  std::string message_;
  std::vector<std::string> context_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<0>(state_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(state_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(state_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  Error& error() & {
    assert(!ok());
    return std::get<1>(state_);
  }
  const Error& error() const& {
    assert(!ok());
    return std::get<1>(state_);
  }
  Error&& error() && {
    assert(!ok());
    return std::get<1>(std::move(state_));
  }

 private:
  std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), has_error_(true) {}  // NOLINT: implicit

  bool ok() const { return !has_error_; }
  explicit operator bool() const { return ok(); }
  Error& error() & {
    assert(!ok());
    return error_;
  }
  const Error& error() const& {
    assert(!ok());
    return error_;
  }
  Error&& error() && {
    assert(!ok());
    return std::move(error_);
  }

 private:
  Error error_{Errc::kInternal, ""};
  bool has_error_ = false;
};

inline Result<void> Ok() { return Result<void>(); }

}  // namespace quarry

// Propagates an error from an expression returning Result<...>, with optional context.
#define QUARRY_TRY(expr)                                         \
  do {                                                           \
    auto quarry_try_result_ = (expr);                            \
    if (!quarry_try_result_) return std::move(quarry_try_result_).error(); \
  } while (0)

#define QUARRY_CONCAT_INNER(a, b) a##b
#define QUARRY_CONCAT(a, b) QUARRY_CONCAT_INNER(a, b)
// QUARRY_ASSIGN_OR_RETURN(auto x, Compute()); declares x from the Result's value.
#define QUARRY_ASSIGN_OR_RETURN(decl, expr) \
  QUARRY_ASSIGN_OR_RETURN_IMPL(QUARRY_CONCAT(quarry_result_, __LINE__), decl, expr)
#define QUARRY_ASSIGN_OR_RETURN_IMPL(tmp, decl, expr) \
  auto tmp = (expr);                                  \
  if (!tmp) return std::move(tmp).error();            \
  decl = std::move(tmp).value()
