#include "lib/input/folder_file.h"

#include <algorithm>
#include <system_error>
#include <utility>

#include "lib/input/article_file.h"
#include "lib/input/folder_walker.h"

namespace quarry::detail {
namespace {

namespace fs = std::filesystem;

bool is_hidden(const fs::path& relative) {
  return std::any_of(relative.begin(), relative.end(),
                     [](const fs::path& part) { return part.native().starts_with('.'); });
}

}  // namespace

void read_folder_file(const fs::path& root, const fs::path& relative,
                      const std::vector<fs::path>& scope, ArticleSink& sink) {
  const InputKind kind = input_kind(relative.filename());
  if (kind == InputKind::kNone || is_hidden(relative)) return;
  const fs::path path = root / relative;
  std::error_code code;
  if (fs::is_symlink(fs::symlink_status(path, code)) &&
      judge_link(path, scope, sink) != LinkVerdict::kRead) {
    return;
  }
  read_article_file(path, display_path(path), text_article_id(relative), kind, sink);
}

void read_folder_files(const fs::path& root, const fs::path& relative,
                       const std::vector<fs::path>& scope, ArticleSink& sink) {
  std::string error;
  const std::vector<fs::directory_entry> entries = list_folder(root / relative, &error);
  if (!error.empty()) {
    report_problem(sink, display_path(root / relative), "cannot read folder: " + error);
  }
  for (const fs::directory_entry& entry : entries) {
    if (sink.should_stop()) return;
    const fs::path name = entry.path().filename();
    std::error_code code;
    const fs::file_status status = entry.symlink_status(code);
    if (is_hidden(name)) continue;
    if (fs::is_directory(status)) {
      read_folder_files(root, relative / name, scope, sink);
    } else {
      read_folder_file(root, relative / name, scope, sink);
    }
  }
}

bool is_text_article(const fs::path& relative) {
  return input_kind(relative.filename()) == InputKind::kText && !is_hidden(relative);
}

std::string text_article_id(const fs::path& relative) {
  return display_path(relative.generic_string());
}

}  // namespace quarry::detail
