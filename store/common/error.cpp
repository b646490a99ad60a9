#include "store/common/result.h"

namespace quarry {

std::string_view ErrcName(Errc code) {
  switch (code) {
    case Errc::kInvalidArgument: return "InvalidArgument";
    case Errc::kParse: return "Parse";
    case Errc::kOntology: return "Ontology";
    case Errc::kConstraint: return "Constraint";
    case Errc::kIncompatible: return "Incompatible";
    case Errc::kType: return "Type";
    case Errc::kNotFound: return "NotFound";
    case Errc::kIo: return "Io";
    case Errc::kBusy: return "Busy";
    case Errc::kNoSpace: return "NoSpace";
    case Errc::kCorrupt: return "Corrupt";
    case Errc::kUnsupported: return "Unsupported";
    case Errc::kInternal: return "Internal";
  }
  return "Unknown";
}

std::string Error::ToString() const {
  std::string text;
  for (auto frame = context_.rbegin(); frame != context_.rend(); ++frame) {
    text += *frame;
    text += ": ";
  }
  text += message_;
  return text;
}

}  // namespace quarry
