#include "tests/store/sparql/manifest.h"

#include <serd/serd.h>

#include <memory>

namespace quarry::sparql::testing {

namespace {

constexpr const char* kRdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";

struct ReadState {
  ManifestGraph* graph;
  SerdEnv* env;
};

std::string NodeText(const SerdEnv* env, const SerdNode* node) {
  if (node->type == SERD_URI || node->type == SERD_CURIE) {
    SerdNode expanded = serd_env_expand_node(env, node);
    std::string text = expanded.buf ? reinterpret_cast<const char*>(expanded.buf) : "";
    serd_node_free(&expanded);
    return text;
  }
  const std::string text(reinterpret_cast<const char*>(node->buf), node->n_bytes);
  return node->type == SERD_BLANK ? "_:" + text : text;
}

SerdStatus OnBase(void* handle, const SerdNode* uri) {
  return serd_env_set_base_uri(static_cast<ReadState*>(handle)->env, uri);
}

SerdStatus OnPrefix(void* handle, const SerdNode* name, const SerdNode* uri) {
  return serd_env_set_prefix(static_cast<ReadState*>(handle)->env, name, uri);
}

SerdStatus OnStatement(void* handle, SerdStatementFlags, const SerdNode*, const SerdNode* subject,
                       const SerdNode* predicate, const SerdNode* object, const SerdNode*,
                       const SerdNode*) {
  auto* state = static_cast<ReadState*>(handle);
  state->graph->Add(NodeText(state->env, subject), NodeText(state->env, predicate),
                    NodeText(state->env, object));
  return SERD_SUCCESS;
}

}  // namespace

bool ManifestGraph::Load(const std::string& path, std::string& error) {
  SerdNode base = serd_node_new_file_uri(reinterpret_cast<const uint8_t*>(path.c_str()), nullptr,
                                         nullptr, true);
  std::unique_ptr<SerdEnv, void (*)(SerdEnv*)> env(serd_env_new(&base), serd_env_free);
  serd_node_free(&base);
  ReadState state{this, env.get()};
  std::unique_ptr<SerdReader, void (*)(SerdReader*)> reader(
      serd_reader_new(SERD_TURTLE, &state, nullptr, OnBase, OnPrefix, OnStatement, nullptr),
      serd_reader_free);
  const SerdStatus status =
      serd_reader_read_file(reader.get(), reinterpret_cast<const uint8_t*>(path.c_str()));
  if (status != SERD_SUCCESS) {
    error = "serd could not read " + path;
    return false;
  }
  return true;
}

void ManifestGraph::Add(std::string subject, std::string predicate, std::string object) {
  objects_[{std::move(subject), std::move(predicate)}].push_back(std::move(object));
}

std::vector<std::string> ManifestGraph::Objects(const std::string& subject,
                                                const std::string& predicate) const {
  const auto it = objects_.find({subject, predicate});
  return it == objects_.end() ? std::vector<std::string>() : it->second;
}

std::string ManifestGraph::Object(const std::string& subject, const std::string& predicate) const {
  const auto objects = Objects(subject, predicate);
  return objects.empty() ? std::string() : objects.front();
}

std::vector<std::string> ManifestGraph::List(const std::string& head) const {
  const std::string first = std::string(kRdf) + "first";
  const std::string rest = std::string(kRdf) + "rest";
  const std::string nil = std::string(kRdf) + "nil";
  std::vector<std::string> members;
  std::string node = head;
  // A malformed (cyclic) list cannot loop forever: a list is never longer than the file.
  for (size_t guard = 0; node != nil && !node.empty() && guard < 100000; ++guard) {
    const std::string member = Object(node, first);
    if (!member.empty()) members.push_back(member);
    node = Object(node, rest);
  }
  return members;
}

std::string FileUriToPath(const std::string& uri) {
  const std::string prefix = "file://";
  return uri.rfind(prefix, 0) == 0 ? uri.substr(prefix.size()) : uri;
}

}  // namespace quarry::sparql::testing
