#include "quarry/input/article_reader.h"

#include <system_error>
#include <utility>

#include "lib/input/article_file.h"
#include "lib/input/folder_walker.h"
#include "quarry/error.h"

namespace quarry {

namespace fs = std::filesystem;
using detail::display_path;
using detail::input_kind;
using detail::InputKind;

bool is_article_file(const std::filesystem::path& path) {
  return input_kind(path) != InputKind::kNone;
}

std::string unreadable_root(const std::filesystem::path& root) {
  std::error_code code;
  const fs::file_status status = fs::status(root, code);
  if (!fs::exists(status)) {
    if (code && code != std::errc::no_such_file_or_directory) return code.message();
    return "no such file or folder";
  }
  if (fs::is_directory(status)) return "";
  // A pipe or a device named .txt would be read as nothing, or block.
  if (input_kind(root) != InputKind::kNone)
    return fs::is_regular_file(status) ? "" : "not a regular file";
  return "not a folder, nor a .txt, .jsonl or .jsonl.gz file";
}

void read_articles(const std::filesystem::path& root, ArticleSink& sink,
                   const std::vector<std::filesystem::path>& also_within) {
  const std::string where = display_path(root);
  if (std::string problem = unreadable_root(root); !problem.empty()) {
    throw InputError(where + ": " + problem);
  }
  if (fs::is_directory(root)) {
    detail::read_folder(root, sink, also_within);
    return;
  }
  std::string error;
  detail::FileDescriptor fd(detail::open_regular_file(root, &error));
  if (fd.get() < 0) throw InputError(where + ": " + error);
  if (sink.should_stop()) return;
  // Read once closed, by a caller that follows changes.
  if (sink.follows_changes() && detail::being_written(fd.get())) {
    sink.on_passed_over(SourceLocation{where, 0});
    return;
  }
  detail::read_open_file(std::move(fd), where, display_path(root.filename()), input_kind(root),
                         sink);
}

}  // namespace quarry
