#include "lib/index/indexing_sink.h"

#include <system_error>

#include "lib/input/path_text.h"
#include "quarry/error.h"

namespace quarry::detail {
namespace {

// Reports a path given as skipped, escaped as the readers escape paths.
// Built field by field, as the readers' problems are: GCC 12 warns of
// uninitialized strings in a braced temporary ReadProblem at -O3.
void skip_path(IndexingSink& sink, const std::string& path, std::string reason) {
  ReadProblem problem;
  problem.where.path = detail::path_text(path);
  problem.reason = std::move(reason);
  problem.skipped = true;
  sink.on_problem(problem);
}

}  // namespace

bool read_paths(const std::vector<std::string>& paths, IndexingSink& sink,
                const std::function<void(const std::string& origin)>& after_origin) {
  // A link in one folder given may lead into another.
  const std::vector<std::filesystem::path> folders(paths.begin(), paths.end());
  for (const std::string& path : paths) {
    std::error_code error;
    const std::string origin = std::filesystem::weakly_canonical(path, error).string();
    sink.set_origin(origin);
    // The paths were checked before the run; one may have gone since.
    if (std::string problem = unreadable_root(path); !problem.empty()) {
      skip_path(sink, path, std::move(problem));
      after_origin(origin);
      continue;
    }
    sink.take_found();
    try {
      read_articles(path, sink, folders);
    } catch (const InputError& input_error) {
      // Its message names the path already.
      skip_path(sink, "", input_error.what());
      if (sink.should_stop()) return false;
      after_origin(origin);
      continue;
    }
    if (sink.should_stop()) return false;
    if (sink.take_found() == 0 && std::filesystem::is_directory(path, error)) {
      skip_path(sink, path, "no .txt, .jsonl or .jsonl.gz file in this folder");
    }
    after_origin(origin);
  }
  return true;
}

}  // namespace quarry::detail
