#include "store/ontology/turtle_reader.h"

#include <fmt/format.h>
#include <serd/serd.h>

#include <cstdarg>
#include <cstdio>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

#include "store/ontology/source_text.h"

namespace quarry::ontology {

namespace {

struct ReaderDeleter {
  void operator()(SerdReader* reader) const noexcept { serd_reader_free(reader); }
};
struct EnvDeleter {
  void operator()(SerdEnv* env) const noexcept { serd_env_free(env); }
};

// A node serd allocated for us (serd_env_expand_node); freed with serd_node_free.
class OwnedNode {
 public:
  explicit OwnedNode(SerdNode node) : node_(node) {}
  OwnedNode(const OwnedNode&) = delete;
  OwnedNode& operator=(const OwnedNode&) = delete;
  ~OwnedNode() { serd_node_free(&node_); }
  const SerdNode* get() const { return &node_; }

 private:
  SerdNode node_;
};

// serd nodes are not always NUL-terminated where n_bytes ends (a prefixed name that ate the
// statement's final dot keeps it in the buffer), so always go by n_bytes.
std::string_view View(const SerdNode* node) {
  if (!node || !node->buf) return {};
  return {reinterpret_cast<const char*>(node->buf), node->n_bytes};
}

const uint8_t* Bytes(const std::string& text) {
  return reinterpret_cast<const uint8_t*>(text.c_str());
}

}  // namespace

// Feeds serd one byte at a time so that `cursor_` always is the byte serd is looking at; the
// callbacks turn byte offsets into locations with SourceText.
class TurtleParse {
 public:
  TurtleParse(const std::string& file, std::string_view text)
      : source_(file, text), env_(serd_env_new(nullptr)) {}

  Result<TurtleDocument> Run();

 private:
  static size_t ReadByte(void* buffer, size_t size, size_t count, void* self);
  static int StreamError(void* /*self*/) { return 0; }
  static SerdStatus OnError(void* self, const SerdError* error);
  static SerdStatus OnBase(void* self, const SerdNode* uri);
  static SerdStatus OnPrefix(void* self, const SerdNode* name, const SerdNode* uri);
  static SerdStatus OnStatement(void* self, SerdStatementFlags flags, const SerdNode* graph,
                                const SerdNode* subject, const SerdNode* predicate,
                                const SerdNode* object, const SerdNode* datatype,
                                const SerdNode* language);

  void HandlePrefix(const SerdNode* name, const SerdNode* uri);
  void HandleStatement(SerdStatementFlags flags, const SerdNode* subject, const SerdNode* predicate,
                       const SerdNode* object, const SerdNode* datatype, const SerdNode* language);
  void LocateStatement(Statement& statement, SerdStatementFlags flags);
  Result<std::string> ExpandIri(const SerdNode* node, const SourceLocation& where) const;
  Result<Term> MakeTerm(const SerdNode* node, const SourceLocation& where) const;
  Error ErrorAt(const SourceLocation& where, std::string_view message) const {
    return Error(Errc::kOntology, fmt::format("{}: {}", where.ToString(), message));
  }
  void Fail(Error error) {
    if (!error_) error_ = std::move(error);
  }

  SourceText source_;
  std::unique_ptr<SerdEnv, EnvDeleter> env_;
  size_t next_byte_ = 0;    // the next byte to hand serd
  size_t cursor_ = 0;       // the byte serd is looking at (consumed text ends before it)
  size_t chunk_start_ = 0;  // where the current top-level statement or directive began
  size_t last_event_ = 0;   // where the text after the previous statement begins
  bool chunk_has_statement_ = false;
  Term chunk_subject_;
  SourceLocation chunk_location_;
  SourceLocation predicate_location_;
  // Blank nodes written as '[' or '(' in object position, so that statements about them
  // point there rather than at the enclosing subject.
  std::unordered_map<std::string, SourceLocation> blank_locations_;
  std::optional<Error> error_;
  TurtleDocument document_;
};

size_t TurtleParse::ReadByte(void* buffer, size_t /*size*/, size_t /*count*/, void* self) {
  auto& parse = *static_cast<TurtleParse*>(self);
  const std::string_view text = parse.source_.text();
  if (parse.next_byte_ >= text.size()) {
    parse.cursor_ = text.size();
    return 0;
  }
  parse.cursor_ = parse.next_byte_++;
  *static_cast<char*>(buffer) = text[parse.cursor_];
  return 1;
}

SerdStatus TurtleParse::OnError(void* self, const SerdError* error) {
  auto& parse = *static_cast<TurtleParse*>(self);
  std::va_list args;
  va_copy(args, *error->args);
  char message[512];
  std::vsnprintf(message, sizeof message, error->fmt, args);
  va_end(args);
  std::string_view text(message);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  parse.Fail(parse.ErrorAt(parse.source_.Locate(parse.cursor_), text));
  return SERD_SUCCESS;
}

SerdStatus TurtleParse::OnBase(void* self, const SerdNode* uri) {
  auto& parse = *static_cast<TurtleParse*>(self);
  return serd_env_set_base_uri(parse.env_.get(), uri);
}

SerdStatus TurtleParse::OnPrefix(void* self, const SerdNode* name, const SerdNode* uri) {
  static_cast<TurtleParse*>(self)->HandlePrefix(name, uri);
  return SERD_SUCCESS;
}

SerdStatus TurtleParse::OnStatement(void* self, SerdStatementFlags flags, const SerdNode* /*graph*/,
                                    const SerdNode* subject, const SerdNode* predicate,
                                    const SerdNode* object, const SerdNode* datatype,
                                    const SerdNode* language) {
  static_cast<TurtleParse*>(self)->HandleStatement(flags, subject, predicate, object, datatype,
                                                   language);
  return SERD_SUCCESS;
}

void TurtleParse::HandlePrefix(const SerdNode* name, const SerdNode* uri) {
  const SourceLocation where = source_.Locate(source_.SkipSpace(chunk_start_));
  Result<std::string> namespace_iri = ExpandIri(uri, where);
  if (!namespace_iri) return Fail(std::move(namespace_iri).error());
  const std::string prefix(View(name));
  serd_env_set_prefix_from_strings(env_.get(), Bytes(prefix), Bytes(*namespace_iri));
  document_.prefixes.push_back({prefix, std::move(*namespace_iri), where});
}

Result<std::string> TurtleParse::ExpandIri(const SerdNode* node,
                                           const SourceLocation& where) const {
  const OwnedNode expanded(serd_env_expand_node(env_.get(), node));
  if (node->type == SERD_CURIE && !expanded.get()->buf) {
    const std::string_view curie = View(node);
    return ErrorAt(where, fmt::format("undefined prefix \"{}\" in {}",
                                      curie.substr(0, curie.find(':')), curie));
  }
  const std::string iri(expanded.get()->buf ? View(expanded.get()) : View(node));
  if (!serd_uri_string_has_scheme(Bytes(iri))) {
    return ErrorAt(where, fmt::format("relative IRI <{}> without a @base", iri));
  }
  return iri;
}

Result<Term> TurtleParse::MakeTerm(const SerdNode* node, const SourceLocation& where) const {
  Term term;
  switch (node->type) {
    case SERD_URI:
    case SERD_CURIE: {
      QUARRY_ASSIGN_OR_RETURN(term.value, ExpandIri(node, where));
      term.kind = Term::Kind::kIri;
      return term;
    }
    case SERD_BLANK:
      term.kind = Term::Kind::kBlank;
      term.value = View(node);
      return term;
    case SERD_LITERAL:
      term.kind = Term::Kind::kLiteral;
      term.value = View(node);
      return term;
    case SERD_NOTHING:
      break;
  }
  return ErrorAt(where, "serd reported an empty node");
}

void TurtleParse::LocateStatement(Statement& statement, SerdStatementFlags flags) {
  const std::vector<size_t> terms = source_.TermStarts(last_event_, cursor_);
  last_event_ = cursor_;
  if (!chunk_has_statement_) {
    chunk_has_statement_ = true;
    chunk_subject_ = statement.subject;
    chunk_location_ = source_.Locate(terms.empty() ? cursor_ : terms.front());
  }
  // Ranges look like "subject predicate object", "; predicate object" or ", object"; the
  // object is always last, and the predicate is only written again after ';'.
  statement.object_location = source_.Locate(terms.empty() ? cursor_ : terms.back());
  if (terms.size() >= 2) predicate_location_ = source_.Locate(terms[terms.size() - 2]);
  statement.predicate_location = predicate_location_;
  const auto blank = blank_locations_.find(statement.subject.value);
  const bool is_chunk_subject = statement.subject.kind == chunk_subject_.kind &&
                                statement.subject.value == chunk_subject_.value;
  statement.subject_location = !is_chunk_subject && statement.subject.kind == Term::Kind::kBlank &&
                                       blank != blank_locations_.end()
                                   ? blank->second
                                   : chunk_location_;
  if (statement.object.kind == Term::Kind::kBlank &&
      (flags & (SERD_ANON_O_BEGIN | SERD_LIST_O_BEGIN | SERD_EMPTY_O))) {
    blank_locations_.emplace(statement.object.value, statement.object_location);
  }
}

void TurtleParse::HandleStatement(SerdStatementFlags flags, const SerdNode* subject,
                                  const SerdNode* predicate, const SerdNode* object,
                                  const SerdNode* datatype, const SerdNode* language) {
  if (error_) return;
  Statement statement;
  // Terms are located before they are expanded so that an undefined prefix has a position;
  // the kinds are all LocateStatement needs.
  statement.subject.kind = subject->type == SERD_BLANK ? Term::Kind::kBlank : Term::Kind::kIri;
  statement.subject.value = View(subject);
  statement.object.kind = object->type == SERD_BLANK ? Term::Kind::kBlank : Term::Kind::kIri;
  statement.object.value = View(object);
  LocateStatement(statement, flags);
  auto subject_term = MakeTerm(subject, statement.subject_location);
  if (!subject_term) return Fail(std::move(subject_term).error());
  auto predicate_term = MakeTerm(predicate, statement.predicate_location);
  if (!predicate_term) return Fail(std::move(predicate_term).error());
  auto object_term = MakeTerm(object, statement.object_location);
  if (!object_term) return Fail(std::move(object_term).error());
  statement.subject = std::move(*subject_term);
  statement.predicate = std::move(*predicate_term);
  statement.object = std::move(*object_term);
  if (datatype && datatype->buf) {
    auto datatype_iri = ExpandIri(datatype, statement.object_location);
    if (!datatype_iri) return Fail(std::move(datatype_iri).error());
    statement.object.datatype = std::move(*datatype_iri);
  }
  if (language && language->buf) statement.object.language = View(language);
  document_.statements.push_back(std::move(statement));
}

Result<TurtleDocument> TurtleParse::Run() {
  const std::unique_ptr<SerdReader, ReaderDeleter> reader(
      serd_reader_new(SERD_TURTLE, this, nullptr, OnBase, OnPrefix, OnStatement, nullptr));
  serd_reader_set_error_sink(reader.get(), OnError, this);
  serd_reader_set_strict(reader.get(), true);
  const std::string& name = source_.file();
  if (serd_reader_start_source_stream(reader.get(), ReadByte, StreamError, this, Bytes(name), 1) !=
      SERD_SUCCESS) {
    return Error(Errc::kInternal, fmt::format("{}: serd refused to start reading", name));
  }
  while (!error_) {
    chunk_start_ = last_event_ = cursor_;
    chunk_has_statement_ = false;
    const SerdStatus status = serd_reader_read_chunk(reader.get());
    if (status == SERD_FAILURE) break;  // end of input
    if (status != SERD_SUCCESS) {
      Fail(ErrorAt(source_.Locate(cursor_), reinterpret_cast<const char*>(serd_strerror(status))));
    }
  }
  serd_reader_end_stream(reader.get());
  if (error_) return std::move(*error_);
  return std::move(document_);
}

Result<TurtleDocument> ReadTurtle(const std::string& file_name, std::string_view text) {
  return TurtleParse(file_name, text).Run();
}

}  // namespace quarry::ontology
