#include "lib/input/jsonl_stream.h"

#include <utility>

#include "lib/input/jsonl_reader.h"

namespace quarry::detail {

JsonlStream::JsonlStream(std::string where, std::size_t first_line)
    : where_(std::move(where)), line_(first_line) {}

void JsonlStream::feed(std::string_view bytes, ArticleSink& sink) {
  while (!bytes.empty()) {
    const std::size_t end = bytes.find('\n');
    const std::string_view piece = bytes.substr(0, end);
    if (!too_long_) {
      if (partial_.size() + piece.size() > kMaxLineBytes) {
        too_long_ = true;
        partial_.clear();
        partial_.shrink_to_fit();
      } else {
        partial_.append(piece);
      }
    }
    if (end == std::string_view::npos) return;
    end_line(sink);
    bytes.remove_prefix(end + 1);
  }
}

void JsonlStream::finish(ArticleSink& sink) {
  if (has_partial_line()) end_line(sink);
}

void JsonlStream::restart(ArticleSink& sink, const std::string& reason) {
  if (has_partial_line()) {
    ReadProblem problem;
    problem.where = {where_, line_};
    problem.reason = "line cut short: " + reason;
    problem.skipped = true;
    sink.on_problem(problem);
  }
  partial_.clear();
  too_long_ = false;
  line_ = 1;
}

void JsonlStream::end_line(ArticleSink& sink) {
  const SourceLocation where{where_, line_++};
  if (std::exchange(too_long_, false)) {
    report_too_long_line(where, sink);
  } else {
    read_jsonl_line(std::exchange(partial_, std::string()), where, sink);
  }
}

}  // namespace quarry::detail
