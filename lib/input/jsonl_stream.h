// JSON Lines that arrive a piece at a time: from a pipe, or appended to a
// file that is followed. Only complete lines are read; a line's start
// waits for its end.
#ifndef QUARRY_LIB_INPUT_JSONL_STREAM_H_
#define QUARRY_LIB_INPUT_JSONL_STREAM_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "quarry/input/article_reader.h"

namespace quarry::detail {

// Not thread-safe.
class JsonlStream {
 public:
  // Lines are located as `where`:N, counted from `first_line`.
  explicit JsonlStream(std::string where, std::size_t first_line = 1);

  // Takes the bytes that follow those fed before: each line they complete
  // is read as read_jsonl reads it (see read_jsonl_line), an article or a
  // problem to the sink. A line over kMaxLineBytes is reported, skipped, and
  // not held in memory.
  void feed(std::string_view bytes, ArticleSink& sink);

  // The input ended: a last line without a line break is read as complete.
  void finish(ArticleSink& sink);

  // The start of a line that has not ended, and is not read yet.
  bool has_partial_line() const { return !partial_.empty() || too_long_; }
  // Forgets a partial line, reporting it (skipped) as cut short for
  // `reason`, and goes on with lines counted from 1 (the file the name now
  // names, or a file cut to nothing).
  void restart(ArticleSink& sink, const std::string& reason);

  const std::string& where() const { return where_; }

 private:
  void end_line(ArticleSink& sink);

  std::string where_;
  std::size_t line_;
  std::string partial_;
  bool too_long_ = false;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_JSONL_STREAM_H_
