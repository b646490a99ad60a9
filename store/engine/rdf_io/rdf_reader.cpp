#include "store/engine/rdf_io/rdf_reader.h"

#include <fmt/format.h>
#include <serd/serd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace quarry::engine::rdf_io {
namespace {

using schema::RdfTerm;

struct ReaderDeleter {
  void operator()(SerdReader* reader) const noexcept { serd_reader_free(reader); }
};
struct EnvDeleter {
  void operator()(SerdEnv* env) const noexcept { serd_env_free(env); }
};
struct FileCloser {
  void operator()(std::FILE* file) const noexcept { std::fclose(file); }
};

// A node serd allocated for us; freed with serd_node_free.
class OwnedNode {
 public:
  explicit OwnedNode(SerdNode node) : node_(node) {}
  OwnedNode(const OwnedNode&) = delete;
  OwnedNode& operator=(const OwnedNode&) = delete;
  ~OwnedNode() { serd_node_free(&node_); }
  const SerdNode* get() const { return &node_; }
  bool empty() const { return node_.buf == nullptr; }

 private:
  SerdNode node_;
};

// serd nodes are not always NUL-terminated at n_bytes, so always go by n_bytes.
std::string_view View(const SerdNode* node) {
  if (!node || !node->buf) return {};
  return {reinterpret_cast<const char*>(node->buf), node->n_bytes};
}

// The file, handed to serd one byte per call from a 64 KiB buffer, so that the position of
// the byte serd last took is always known.
class ByteSource {
 public:
  static Result<ByteSource> Open(const std::filesystem::path& path) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) {
      const int error = errno;
      return Error(error == ENOENT ? Errc::kNotFound : Errc::kIo,
                   fmt::format("cannot open {}: {}", path.string(), std::strerror(error)));
    }
    return ByteSource(file);
  }

  static size_t ReadByte(void* buffer, size_t /*size*/, size_t /*count*/, void* self) {
    auto& source = *static_cast<ByteSource*>(self);
    if (source.next_ == source.end_ && !source.Refill()) return 0;
    const auto byte = static_cast<unsigned char>(source.buffer_[source.next_++]);
    if (source.after_newline_) {
      ++source.position_.line;
      source.position_.column = 0;
    }
    if ((byte & 0xC0) != 0x80) ++source.position_.column;  // UTF-8 continuation bytes don't count
    source.after_newline_ = byte == '\n';
    *static_cast<unsigned char*>(buffer) = byte;
    return 1;
  }
  static int StreamError(void* self) { return static_cast<ByteSource*>(self)->failed_ ? 1 : 0; }

  const TextPosition& position() const { return position_; }
  bool failed() const { return failed_; }
  int error_number() const { return error_number_; }

 private:
  explicit ByteSource(std::FILE* file) : file_(file), buffer_(64 * 1024) {}

  bool Refill() {
    next_ = 0;
    end_ = std::fread(buffer_.data(), 1, buffer_.size(), file_.get());
    if (end_ == 0 && std::ferror(file_.get())) {
      failed_ = true;
      error_number_ = errno;
    }
    return end_ > 0;
  }

  std::unique_ptr<std::FILE, FileCloser> file_;
  std::vector<char> buffer_;
  size_t next_ = 0;
  size_t end_ = 0;
  TextPosition position_;
  bool after_newline_ = false;
  bool failed_ = false;
  int error_number_ = 0;
};

SerdSyntax SerdSyntaxOf(RdfSyntax syntax) {
  switch (syntax) {
    case RdfSyntax::kTurtle: return SERD_TURTLE;
    case RdfSyntax::kNTriples: return SERD_NTRIPLES;
    case RdfSyntax::kNQuads: return SERD_NQUADS;
    case RdfSyntax::kTrig: return SERD_TRIG;
  }
  return SERD_TURTLE;
}

class RdfParse {
 public:
  RdfParse(const std::filesystem::path& file, ByteSource& source, const StatementSink& sink)
      : file_(file), source_(source), sink_(sink) {}

  Result<void> Run(RdfSyntax syntax);

 private:
  static SerdStatus OnError(void* self, const SerdError* error);
  static SerdStatus OnBase(void* self, const SerdNode* uri) {
    return serd_env_set_base_uri(static_cast<RdfParse*>(self)->env_.get(), uri);
  }
  static SerdStatus OnPrefix(void* self, const SerdNode* name, const SerdNode* uri) {
    return serd_env_set_prefix(static_cast<RdfParse*>(self)->env_.get(), name, uri);
  }
  static SerdStatus OnStatement(void* self, SerdStatementFlags flags, const SerdNode* graph,
                                const SerdNode* subject, const SerdNode* predicate,
                                const SerdNode* object, const SerdNode* datatype,
                                const SerdNode* language);

  Result<RdfStatement> MakeStatement(const SerdNode* graph, const SerdNode* subject,
                                     const SerdNode* predicate, const SerdNode* object,
                                     const SerdNode* datatype, const SerdNode* language) const;
  Result<std::string> ExpandIri(const SerdNode* node) const;
  Result<RdfTerm> MakeResource(const SerdNode* node) const;
  // Keeps the first error.
  void Fail(Error error) {
    if (!error_) error_ = std::move(error);
  }
  // A syntax error, located where serd is now.
  void FailHere(Error error) {
    Fail(std::move(error).WithContext(LocationOf(file_, source_.position())));
  }

  const std::filesystem::path& file_;
  ByteSource& source_;
  const StatementSink& sink_;
  std::unique_ptr<SerdEnv, EnvDeleter> env_;
  std::optional<Error> error_;
};

SerdStatus RdfParse::OnError(void* self, const SerdError* error) {
  std::va_list args;
  va_copy(args, *error->args);
  char message[512];
  std::vsnprintf(message, sizeof message, error->fmt, args);
  va_end(args);
  std::string_view text(message);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  static_cast<RdfParse*>(self)->FailHere(Error(Errc::kParse, std::string(text)));
  return SERD_SUCCESS;
}

SerdStatus RdfParse::OnStatement(void* self, SerdStatementFlags /*flags*/, const SerdNode* graph,
                                 const SerdNode* subject, const SerdNode* predicate,
                                 const SerdNode* object, const SerdNode* datatype,
                                 const SerdNode* language) {
  auto& parse = *static_cast<RdfParse*>(self);
  if (parse.error_) return SERD_ERR_UNKNOWN;
  auto statement = parse.MakeStatement(graph, subject, predicate, object, datatype, language);
  if (!statement) {
    parse.FailHere(std::move(statement).error());
    return SERD_ERR_UNKNOWN;
  }
  auto done = parse.sink_(*statement);
  if (done) return SERD_SUCCESS;
  parse.Fail(std::move(done).error());
  return SERD_ERR_UNKNOWN;
}

Result<std::string> RdfParse::ExpandIri(const SerdNode* node) const {
  const std::string_view text = View(node);
  if (node->type == SERD_URI && serd_uri_string_has_scheme(node->buf)) return std::string(text);
  const OwnedNode expanded(serd_env_expand_node(env_.get(), node));
  if (expanded.empty()) {
    if (node->type == SERD_CURIE) {
      return Error(Errc::kParse, fmt::format("undefined prefix \"{}\" in {}",
                                             text.substr(0, text.find(':')), text));
    }
    return Error(Errc::kParse, fmt::format("cannot resolve the IRI <{}>", text));
  }
  return std::string(View(expanded.get()));
}

Result<RdfTerm> RdfParse::MakeResource(const SerdNode* node) const {
  if (node->type == SERD_BLANK) return RdfTerm::Blank(std::string(View(node)));
  QUARRY_ASSIGN_OR_RETURN(std::string iri, ExpandIri(node));
  return RdfTerm::Iri(std::move(iri));
}

Result<RdfStatement> RdfParse::MakeStatement(const SerdNode* graph, const SerdNode* subject,
                                             const SerdNode* predicate, const SerdNode* object,
                                             const SerdNode* datatype,
                                             const SerdNode* language) const {
  RdfStatement statement;
  if (graph && graph->buf) {
    if (graph->type == SERD_BLANK) {
      return Error(Errc::kUnsupported,
                   fmt::format("blank node _:{} as graph name: graphs must be IRIs", View(graph)));
    }
    QUARRY_ASSIGN_OR_RETURN(statement.graph, ExpandIri(graph));
  }
  QUARRY_ASSIGN_OR_RETURN(statement.subject, MakeResource(subject));
  QUARRY_ASSIGN_OR_RETURN(statement.predicate, ExpandIri(predicate));
  if (object->type == SERD_LITERAL) {
    std::string datatype_iri;
    if (datatype && datatype->buf) {
      QUARRY_ASSIGN_OR_RETURN(datatype_iri, ExpandIri(datatype));
    }
    statement.object = RdfTerm::Literal(std::string(View(object)), std::move(datatype_iri),
                                        std::string(View(language)));
  } else {
    QUARRY_ASSIGN_OR_RETURN(statement.object, MakeResource(object));
  }
  statement.end = source_.position();
  return statement;
}

Result<void> RdfParse::Run(RdfSyntax syntax) {
  std::error_code error_code;
  const std::filesystem::path absolute = std::filesystem::absolute(file_, error_code);
  const OwnedNode base(serd_node_new_file_uri(reinterpret_cast<const uint8_t*>(absolute.c_str()),
                                              nullptr, nullptr, true));
  env_.reset(serd_env_new(base.get()));
  const std::unique_ptr<SerdReader, ReaderDeleter> reader(
      serd_reader_new(SerdSyntaxOf(syntax), this, nullptr, OnBase, OnPrefix, OnStatement, nullptr));
  serd_reader_set_strict(reader.get(), true);
  serd_reader_set_error_sink(reader.get(), OnError, this);
  const std::string name = file_.string();
  // The whole document in one call (serd's chunked reading does not know N-Quads); serd stops
  // at the first syntax error (strict mode) or sink error.
  const SerdStatus status =
      serd_reader_read_source(reader.get(), ByteSource::ReadByte, ByteSource::StreamError, &source_,
                              reinterpret_cast<const uint8_t*>(name.c_str()), 1);
  if (source_.failed()) {
    return Error(Errc::kIo,
                 fmt::format("cannot read {}: {}", name, std::strerror(source_.error_number())));
  }
  if (error_) return std::move(*error_);
  if (status != SERD_SUCCESS && status != SERD_FAILURE) {
    FailHere(Error(Errc::kParse, reinterpret_cast<const char*>(serd_strerror(status))));
    return std::move(*error_);
  }
  return Ok();
}

}  // namespace

std::string LocationOf(const std::filesystem::path& file, const TextPosition& position) {
  return fmt::format("{}:{}:{}", file.string(), position.line, position.column);
}

std::string_view SyntaxName(RdfSyntax syntax) {
  switch (syntax) {
    case RdfSyntax::kTurtle: return "turtle";
    case RdfSyntax::kNTriples: return "ntriples";
    case RdfSyntax::kNQuads: return "nquads";
    case RdfSyntax::kTrig: return "trig";
  }
  return "turtle";
}

std::optional<RdfSyntax> SyntaxFromName(std::string_view name) {
  if (name == "turtle" || name == "ttl") return RdfSyntax::kTurtle;
  if (name == "ntriples" || name == "nt") return RdfSyntax::kNTriples;
  if (name == "nquads" || name == "nq") return RdfSyntax::kNQuads;
  if (name == "trig") return RdfSyntax::kTrig;
  return std::nullopt;
}

Result<RdfSyntax> SyntaxOfFile(const std::filesystem::path& file) {
  const std::string extension = file.extension().string();
  if (extension == ".ttl" || extension == ".turtle") return RdfSyntax::kTurtle;
  if (extension == ".nt") return RdfSyntax::kNTriples;
  if (extension == ".nq") return RdfSyntax::kNQuads;
  if (extension == ".trig") return RdfSyntax::kTrig;
  return Error(Errc::kUnsupported,
               fmt::format("{}: unknown RDF file extension \"{}\" (expected .ttl, .nt, .nq or "
                           ".trig, or name the syntax)",
                           file.string(), extension));
}

Result<void> ReadRdfFile(const std::filesystem::path& file, RdfSyntax syntax,
                         const StatementSink& sink) {
  QUARRY_ASSIGN_OR_RETURN(ByteSource source, ByteSource::Open(file));
  RdfParse parse(file, source, sink);
  return parse.Run(syntax);
}

}  // namespace quarry::engine::rdf_io
