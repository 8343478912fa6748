#include "lib/index/live_inputs.h"

#include <algorithm>
#include <system_error>
#include <utility>

#include "lib/input/folder_file.h"
#include "lib/input/folder_walker.h"
#include "lib/input/path_text.h"
#include "quarry/error.h"

namespace quarry::detail {
namespace {

namespace fs = std::filesystem;

// `path` absolute and without a trailing separator, as the watcher joins
// names to it.
fs::path watched_form(const std::string& path) {
  fs::path form = fs::absolute(path).lexically_normal();
  if (!form.has_filename() && form.has_parent_path() && form != form.root_path()) {
    form = form.parent_path();
  }
  return form;
}

std::string origin_of(const std::string& path) {
  std::error_code error;
  return fs::weakly_canonical(path, error).string();
}

bool has_suffix(const std::string& path, std::string_view suffix) {
  const std::string name = fs::path(path).filename().string();
  return name.size() > suffix.size() &&
         std::equal(suffix.begin(), suffix.end(), name.end() - suffix.size(),
                    [](char a, char b) { return a == (b >= 'A' && b <= 'Z' ? b - 'A' + 'a' : b); });
}

bool is_link(const fs::path& path) {
  std::error_code code;
  return fs::is_symlink(fs::symlink_status(path, code));
}

}  // namespace

void LiveSink::on_article(Article&& article, const SourceLocation& /*where*/) {
  feed_.take(std::move(article), origin_);
}

void LiveSink::on_problem(const ReadProblem& problem) {
  if (problem.skipped && !problem.read_whole) read_whole_ = false;
  if (problem.skipped && problem.read_whole) held_nothing_ = true;
  feed_.problem(problem);
}

LiveInputs::LiveInputs(LiveFeed& feed, const std::vector<std::string>& paths) : feed_(feed) {
  for (const std::string& path : paths) {
    std::error_code error;
    if (fs::is_directory(path, error)) {
      folders_.push_back({watched_form(path), origin_of(path)});
      watcher_.watch_tree(folders_.back().path);
    } else if (has_suffix(path, ".txt")) {
      text_files_.push_back({watched_form(path), origin_of(path)});
      watcher_.watch_name(text_files_.back().path);
    } else if (has_suffix(path, ".jsonl")) {
      const fs::path form = watched_form(path);
      followed_.push_back({std::make_unique<JsonlFollower>(form), origin_of(path)});
      watcher_.watch_name(form);
    }
  }
  find_scope();
}

LiveInputs::~LiveInputs() = default;

void LiveInputs::read_changes() {
  for (const WatchEvent& event : watcher_.read_events()) {
    if (feed_.cancelled()) break;
    handle(event);
  }
  for (const ReadProblem& found : watcher_.take_problems()) feed_.problem(found);
}

void LiveInputs::read_awaited() {
  const std::set<fs::path> awaited = std::exchange(awaited_, {});
  for (const fs::path& path : awaited) {
    if (feed_.cancelled()) return;
    handle({WatchEvent::Kind::kFileWritten, path});
  }
}

void LiveInputs::handle(const WatchEvent& event) {
  using Kind = WatchEvent::Kind;
  if (event.kind == Kind::kOverflow) {
    read_all_again();
    return;
  }
  const bool of_root = event.kind == Kind::kRootGone || event.kind == Kind::kRootBack;
  for (Folder& folder : folders_) {
    const fs::path relative = event.path.lexically_relative(folder.path);
    if (relative.empty() || *relative.begin() == "..") continue;
    if (of_root && event.path != folder.path) continue;
    handle_in_folder(folder, event);
  }
  for (const TextFile& file : text_files_) {
    if (event.path != file.path) continue;
    if (event.kind == Kind::kFileWritten ||
        (event.kind == Kind::kFileChanged && is_link(file.path))) {
      read_text_file(file);
    } else if (event.kind == Kind::kFileGone) {
      feed_.remove(text_article_id(file.path.filename()));
    }
  }
  for (Followed& followed : followed_) {
    if (event.path != followed.follower->path()) continue;
    LiveSink sink(feed_, followed.origin);
    followed.follower->read(sink);
  }
}

void LiveInputs::read_all_again() {
  for (const Folder& folder : folders_) {
    if (!folder.gone) rescan(folder);
  }
  for (const TextFile& file : text_files_) {
    std::error_code error;
    if (fs::exists(fs::symlink_status(file.path, error))) read_text_file(file);
  }
  for (Followed& followed : followed_) {
    LiveSink sink(feed_, followed.origin);
    followed.follower->read(sink);
  }
}

void LiveInputs::handle_in_folder(Folder& folder, const WatchEvent& event) {
  using Kind = WatchEvent::Kind;
  const fs::path relative = event.path.lexically_relative(folder.path);
  LiveSink sink(feed_, folder.origin);
  switch (event.kind) {
    case Kind::kFileChanged:
      // A link is made whole, and never closed after writing.
      if (!is_link(event.path)) break;
      [[fallthrough]];
    case Kind::kFileWritten:
      read_folder_file(folder.path, relative, scope_, sink);
      if (sink.passed_over()) awaited_.insert(event.path);
      if (sink.held_nothing() && is_text_article(relative)) {
        feed_.remove(text_article_id(relative));
      }
      break;
    case Kind::kFileGone:
      awaited_.erase(event.path);
      if (is_text_article(relative)) feed_.remove(text_article_id(relative));
      break;
    case Kind::kFolderAdded:
      read_folder_files(folder.path, relative, scope_, sink);
      break;
    case Kind::kFolderGone:
      // Its files were deleted one by one, or moved away with it, unseen:
      // the folder is read again to find which articles have gone.
      rescan(folder);
      break;
    case Kind::kRootGone:
      folder.gone = true;
      find_scope();
      notice(folder.path,
             "moved away or deleted: no longer watched; its articles are kept until a folder of "
             "this name appears, which is then watched and read in its place");
      break;
    case Kind::kRootBack:
      folder.gone = false;
      find_scope();
      notice(folder.path, "a folder of this name appeared: watched and read in place of the old");
      rescan(folder);
      break;
    case Kind::kOverflow:
      break;
  }
}

// A .txt file given is read through a link it was given as, but one that
// replaces it later is judged as a link in a folder is: the file watched
// may not become a way into any file at all.
void LiveInputs::read_text_file(const TextFile& file) {
  LiveSink sink(feed_, file.origin);
  if (is_link(file.path) && judge_link(file.path, scope_, sink) != LinkVerdict::kRead) {
    if (sink.held_nothing()) feed_.remove(text_article_id(file.path.filename()));
    return;
  }
  try {
    read_articles(file.path, sink);
  } catch (const InputError&) {
    // Gone since its event: its deletion's event follows.
    return;
  }
  if (sink.passed_over()) awaited_.insert(file.path);
  if (sink.held_nothing()) feed_.remove(text_article_id(file.path.filename()));
}

void LiveInputs::rescan(const Folder& folder) {
  feed_.begin_sweep();
  LiveSink sink(feed_, folder.origin);
  std::vector<fs::path> within;
  for (const Folder& each : folders_) within.push_back(each.path);
  try {
    read_articles(folder.path, sink, within);
  } catch (const InputError& error) {
    // Moved away or deleted: its own event says so.
    std::error_code code;
    if (!fs::exists(fs::symlink_status(folder.path, code))) return;
    ReadProblem failed;
    failed.reason = error.what();
    failed.skipped = true;
    sink.on_problem(failed);
    return;
  }
  if (!sink.read_whole() || feed_.cancelled()) return;
  feed_.delete_unseen(folder.origin);
}

void LiveInputs::find_scope() {
  std::vector<fs::path> folders;
  for (const Folder& folder : folders_) folders.push_back(folder.path);
  scope_ = link_scope(folders);
}

void LiveInputs::notice(const fs::path& path, std::string text) {
  ReadProblem told;
  told.where.path = path_text(path.native());
  told.reason = std::move(text);
  told.skipped = false;
  feed_.notice(told);
}

}  // namespace quarry::detail
