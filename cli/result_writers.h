// The per-format writers behind result_format.h; one file per format.
// Thread-safety: the thread that owns the cursor.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "store/engine/cursor.h"

namespace quarry::cli {

class ResultWriter {
 public:
  virtual ~ResultWriter() = default;
  virtual void Begin(const std::vector<std::string>& variables) = 0;
  // The cursor is on a row.
  virtual void Row(engine::Cursor& cursor) = 0;
  virtual void End(uint64_t rows) = 0;
  // An ASK answer, instead of Begin/Row/End.
  virtual void Boolean(bool answer) = 0;
};

std::unique_ptr<ResultWriter> MakeTableWriter(std::ostream& out);
std::unique_ptr<ResultWriter> MakeJsonWriter(std::ostream& out);
std::unique_ptr<ResultWriter> MakeXmlWriter(std::ostream& out);
std::unique_ptr<ResultWriter> MakeCsvWriter(std::ostream& out);
std::unique_ptr<ResultWriter> MakeTsvWriter(std::ostream& out);

}  // namespace quarry::cli
