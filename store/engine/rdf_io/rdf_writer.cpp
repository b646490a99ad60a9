#include "store/engine/rdf_io/rdf_writer.h"

#include <fmt/format.h>
#include <serd/serd.h>

#include "store/ontology/ontology.h"

namespace quarry::engine::rdf_io {
namespace {

using schema::RdfTerm;

struct WriterDeleter {
  void operator()(SerdWriter* writer) const noexcept { serd_writer_free(writer); }
};
struct EnvDeleter {
  void operator()(SerdEnv* env) const noexcept { serd_env_free(env); }
};

SerdNode NodeOf(SerdType type, const std::string& text) {
  return serd_node_from_string(type, reinterpret_cast<const uint8_t*>(text.c_str()));
}

bool IsWhiteSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Passes serd's output on, holding back trailing white space until more text follows it.
class TrimmingSink {
 public:
  explicit TrimmingSink(std::ostream& out) : out_(out) {}

  static size_t Write(const void* buffer, size_t length, void* self) {
    static_cast<TrimmingSink*>(self)->Append({static_cast<const char*>(buffer), length});
    return length;
  }
  void Append(std::string_view text) {
    size_t end = text.size();
    while (end > 0 && IsWhiteSpace(text[end - 1])) --end;
    if (end == 0) {
      pending_.append(text);
      return;
    }
    out_ << pending_;
    out_.write(text.data(), static_cast<std::streamsize>(end));
    pending_.assign(text.substr(end));
    wrote_text_ = true;
  }
  void Close() {
    if (wrote_text_) out_ << '\n';
    pending_.clear();
  }

 private:
  std::ostream& out_;
  std::string pending_;
  bool wrote_text_ = false;
};

}  // namespace

struct RdfWriter::State {
  explicit State(std::ostream& stream) : out(stream), sink(stream) {}
  std::ostream& out;
  TrimmingSink sink;
  WriteSyntax syntax = WriteSyntax::kTurtle;
  std::unique_ptr<SerdEnv, EnvDeleter> env;
  std::unique_ptr<SerdWriter, WriterDeleter> writer;
  bool finished = false;
};

RdfWriter::RdfWriter(std::ostream& out, WriteSyntax syntax,
                     const std::map<std::string, std::string>& prefixes)
    : state_(std::make_unique<State>(out)) {
  state_->syntax = syntax;
  state_->env.reset(serd_env_new(nullptr));
  const bool is_ntriples = syntax == WriteSyntax::kNTriples;
  const auto style = static_cast<SerdStyle>(
      is_ntriples ? 0 : SERD_STYLE_ABBREVIATED | SERD_STYLE_CURIED);
  const SerdSyntax serd_syntax = syntax == WriteSyntax::kTrig ? SERD_TRIG
                                 : is_ntriples                ? SERD_NTRIPLES
                                                              : SERD_TURTLE;
  state_->writer.reset(serd_writer_new(serd_syntax, style, state_->env.get(), nullptr,
                                       TrimmingSink::Write, &state_->sink));
  if (is_ntriples) return;
  for (const auto& [prefix, namespace_iri] : prefixes) {
    const SerdNode name = NodeOf(SERD_LITERAL, prefix);
    const SerdNode uri = NodeOf(SERD_URI, namespace_iri);
    serd_writer_set_prefix(state_->writer.get(), &name, &uri);
  }
}

RdfWriter::~RdfWriter() = default;

Result<void> RdfWriter::Write(const std::optional<std::string>& graph, const RdfTerm& subject,
                              std::string_view predicate, const RdfTerm& object) {
  const bool named = graph && state_->syntax == WriteSyntax::kTrig;
  const SerdNode graph_node = named ? NodeOf(SERD_URI, *graph) : SERD_NODE_NULL;
  const SerdNode subject_node =
      NodeOf(subject.kind == RdfTerm::Kind::kBlank ? SERD_BLANK : SERD_URI, subject.value);
  const std::string predicate_iri(predicate);
  const SerdNode predicate_node = NodeOf(SERD_URI, predicate_iri);
  SerdNode object_node = SERD_NODE_NULL;
  SerdNode datatype_node = SERD_NODE_NULL;
  SerdNode lang_node = SERD_NODE_NULL;
  const std::string xsd_string = std::string(ontology::iri::kXsd) + "string";
  switch (object.kind) {
    case RdfTerm::Kind::kIri: object_node = NodeOf(SERD_URI, object.value); break;
    case RdfTerm::Kind::kBlank: object_node = NodeOf(SERD_BLANK, object.value); break;
    case RdfTerm::Kind::kLiteral:
      object_node = NodeOf(SERD_LITERAL, object.value);
      if (!object.lang.empty()) {
        lang_node = NodeOf(SERD_LITERAL, object.lang);
      } else if (!object.datatype.empty() && object.datatype != xsd_string) {
        datatype_node = NodeOf(SERD_URI, object.datatype);
      }
      break;
  }
  const SerdStatus status = serd_writer_write_statement(
      state_->writer.get(), 0, named ? &graph_node : nullptr, &subject_node, &predicate_node,
      &object_node, datatype_node.buf ? &datatype_node : nullptr,
      lang_node.buf ? &lang_node : nullptr);
  if (status != SERD_SUCCESS) {
    return Error(
        Errc::kInternal,
        fmt::format("serd cannot write {} <{}> {}: {}", subject.ToString(), predicate,
                    object.ToString(), reinterpret_cast<const char*>(serd_strerror(status))));
  }
  if (!state_->out) return Error(Errc::kIo, "cannot write the output");
  return Ok();
}

Result<void> RdfWriter::Finish() {
  if (!state_->finished) {
    state_->finished = true;
    serd_writer_finish(state_->writer.get());
    state_->sink.Close();
    state_->out.flush();
  }
  if (!state_->out) return Error(Errc::kIo, "cannot write the output");
  return Ok();
}

}  // namespace quarry::engine::rdf_io
