#include "lib/input/folder_walker.h"

#include <algorithm>
#include <system_error>
#include <utility>

#include "lib/input/article_file.h"
#include "quarry/error.h"

namespace quarry::detail {
namespace {

namespace fs = std::filesystem;

// Whether `path` is `folder` or inside it; both canonical.
bool is_within(const fs::path& path, const fs::path& folder) {
  return std::mismatch(folder.begin(), folder.end(), path.begin(), path.end()).first ==
         folder.end();
}

fs::path canonical_or_absolute(const fs::path& path) {
  std::error_code code;
  fs::path canonical = fs::canonical(path, code);
  return code ? fs::absolute(path, code) : canonical;
}

class FolderWalker {
 public:
  // `scope`: the canonical folders a symbolic link may lead into.
  FolderWalker(ArticleSink& sink, std::vector<fs::path> scope)
      : sink_(sink), scope_(std::move(scope)) {}

  // Reads the articles below a folder given, whose entries are these.
  void read_root(const std::vector<fs::directory_entry>& entries) {
    read_entries(entries, fs::path());
  }

 private:
  // Reads the articles among `entries`, which are in the folder at
  // `relative` to the root, and below them.
  void read_entries(const std::vector<fs::directory_entry>& entries, const fs::path& relative);
  void read_entry(const fs::directory_entry& entry, const fs::path& relative);
  void read_folder(const fs::path& folder, const fs::path& relative);
  void read_file(const fs::path& path, const fs::path& relative, InputKind kind);

  ArticleSink& sink_;
  const std::vector<fs::path> scope_;
};

void FolderWalker::read_entries(const std::vector<fs::directory_entry>& entries,
                                const fs::path& relative) {
  for (const fs::directory_entry& entry : entries) {
    if (sink_.should_stop()) return;
    read_entry(entry, relative);
  }
}

void FolderWalker::read_entry(const fs::directory_entry& entry, const fs::path& relative) {
  const fs::path name = entry.path().filename();
  if (name.native().starts_with('.')) return;
  std::error_code code;
  const fs::file_status status = entry.symlink_status(code);
  if (code) {
    // Gone since the folder was listed: renamed or deleted, which a caller
    // that follows changes is told of.
    if (code == std::errc::no_such_file_or_directory && sink_.follows_changes()) return;
    report_problem(sink_, display_path(entry.path()), "cannot read: " + code.message());
    return;
  }
  if (fs::is_symlink(status)) {
    if (judge_link(entry.path(), scope_, sink_) == LinkVerdict::kRead) {
      read_file(entry.path(), relative / name, input_kind(name));
    }
  } else if (fs::is_directory(status)) {
    read_folder(entry.path(), relative / name);
  } else if (const InputKind kind = input_kind(name); kind != InputKind::kNone) {
    read_file(entry.path(), relative / name, kind);
  } else if (fs::is_regular_file(status)) {
    sink_.on_other_file(entry.path());
  }
}

void FolderWalker::read_folder(const fs::path& folder, const fs::path& relative) {
  std::string error;
  const std::vector<fs::directory_entry> entries = list_folder(folder, &error);
  std::error_code code;
  // Gone since its parent was listed, as a file may be.
  const bool gone = sink_.follows_changes() && !fs::exists(fs::symlink_status(folder, code));
  if (!error.empty() && !gone) {
    report_problem(sink_, display_path(folder), "cannot read folder: " + error);
  }
  read_entries(entries, relative);
}

void FolderWalker::read_file(const fs::path& path, const fs::path& relative, InputKind kind) {
  read_article_file(path, display_path(path), display_path(relative.generic_string()), kind, sink_);
}

}  // namespace

void read_folder(const fs::path& root, ArticleSink& sink,
                 const std::vector<fs::path>& also_within) {
  std::string error;
  const std::vector<fs::directory_entry> entries = list_folder(root, &error);
  if (!error.empty()) throw InputError(display_path(root) + ": cannot read folder: " + error);
  std::vector<fs::path> folders{root};
  folders.insert(folders.end(), also_within.begin(), also_within.end());
  FolderWalker(sink, link_scope(folders)).read_root(entries);
}

std::vector<fs::directory_entry> list_folder(const fs::path& folder, std::string* error) {
  std::vector<fs::directory_entry> entries;
  std::error_code code;
  for (fs::directory_iterator it(folder, code), end; !code && it != end; it.increment(code)) {
    entries.push_back(*it);
  }
  if (code) *error = code.message();
  std::sort(entries.begin(), entries.end());
  return entries;
}

std::vector<fs::path> link_scope(const std::vector<fs::path>& folders) {
  std::vector<fs::path> scope;
  for (const fs::path& folder : folders) {
    std::error_code code;
    if (fs::is_directory(folder, code)) scope.push_back(canonical_or_absolute(folder));
  }
  return scope;
}

// A link to a file is read as what it points to, under its own name, when
// that is inside the folders given: one pointing elsewhere would put files
// in the index that nobody asked for (a passwd.txt linking to /etc/passwd).
// A link to a folder inside is left out: its articles are read where they
// are, and reading them through the link too would index each twice, under
// two ids (or loop, for a link to a folder it is in).
LinkVerdict judge_link(const fs::path& link, const std::vector<fs::path>& scope,
                       ArticleSink& sink) {
  const InputKind kind = input_kind(link.filename());
  std::error_code code;
  const fs::path target = fs::canonical(link, code);
  if (code) {
    // Dangling, or a loop of links: what would have been read is named.
    if (kind == InputKind::kNone) return LinkVerdict::kLeftOut;
    report_problem(sink, display_path(link), "cannot open: " + code.message());
    return LinkVerdict::kReported;
  }
  const bool folder = fs::is_directory(target, code);
  if (!folder && kind == InputKind::kNone) return LinkVerdict::kLeftOut;
  if (std::none_of(scope.begin(), scope.end(),
                   [&](const fs::path& root) { return is_within(target, root); })) {
    report_problem(sink, display_path(link), "a link to outside the folders given", true, true);
    return LinkVerdict::kReported;
  }
  return folder ? LinkVerdict::kLeftOut : LinkVerdict::kRead;
}

}  // namespace quarry::detail
