// The kernel's inotify system calls, used directly: they are the kernel's
// interface, small enough to use as they are, and Debian's wrappers of them
// add nothing this needs.
#include "lib/input/folder_watcher.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "lib/input/path_text.h"
#include "quarry/error.h"

namespace quarry::detail {
namespace {

namespace fs = std::filesystem;

// A tree's folders: files complete (closed after writing, moved in) or
// gone, and folders coming and going. Writes to files as they happen are
// not asked for: a file is read once complete.
constexpr unsigned kTreeMask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE |
                               IN_CREATE | IN_DELETE_SELF | IN_ONLYDIR;
// A root also tells when it is moved away itself.
constexpr unsigned kRootMask = kTreeMask | IN_MOVE_SELF;
// The folder holding a root gone: a folder of its name made or moved in.
constexpr unsigned kAwaitMask = IN_CREATE | IN_MOVED_TO | IN_ONLYDIR;
// A followed file's folder: every change to a file of the name.
constexpr unsigned kNameMask = IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO |
                               IN_MOVED_FROM | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF | IN_ONLYDIR;

std::string error_text(int error) { return std::generic_category().message(error); }

bool is_hidden(const fs::path& name) { return name.native().starts_with('.'); }

// Whether `path` is `folder` or below it.
bool is_within(const fs::path& path, const fs::path& folder) {
  return std::mismatch(folder.begin(), folder.end(), path.begin(), path.end()).first ==
         folder.end();
}

}  // namespace

FolderWatcher::FolderWatcher() : fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
  if (fd_ < 0) throw InputError("cannot watch folders: " + error_text(errno));
}

FolderWatcher::~FolderWatcher() { close(fd_); }

int FolderWatcher::add_watch(const fs::path& folder, unsigned mask, std::string* error) {
  // IN_MASK_ADD: a folder both in a tree and holding a followed file keeps
  // both kinds of events.
  const int wd = inotify_add_watch(fd_, folder.c_str(), mask | IN_MASK_ADD);
  if (wd < 0) {
    *error = errno == ENOSPC ? "cannot watch: the limit of watches was reached "
                               "(fs.inotify.max_user_watches)"
                             : "cannot watch: " + error_text(errno);
  }
  return wd;
}

void FolderWatcher::watch_tree(const fs::path& folder) {
  std::string error;
  if (!add_tree(folder, true, &error)) throw InputError(path_text(folder.native()) + ": " + error);
}

bool FolderWatcher::add_tree(const fs::path& folder, bool root, std::string* error) {
  const int wd = add_watch(folder, root ? kRootMask : kTreeMask, error);
  if (wd < 0) return false;
  Watch& watch = watches_[wd];
  watch.folder = folder;
  watch.tree = true;
  watch.root = watch.root || root;
  watch_below(folder);
  return true;
}

void FolderWatcher::root_gone(const fs::path& folder, std::vector<WatchEvent>& events) {
  drop_tree(folder);
  awaited_.push_back(folder);
  events.push_back({WatchEvent::Kind::kRootGone, folder});
  const fs::path parent = folder.parent_path();
  std::string error;
  const int wd = add_watch(parent, kAwaitMask, &error);
  if (wd < 0) {
    problem(folder, error + " " + path_text(parent.native()) +
                        ", so a new folder of this name is not watched until a restart");
    return;
  }
  Watch& watch = watches_[wd];
  if (watch.folder.empty()) watch.folder = parent;
  // Made again before its parent was watched: no event will tell.
  root_back(folder, events);
}

void FolderWatcher::root_back(const fs::path& folder, std::vector<WatchEvent>& events) {
  const auto awaited = std::find(awaited_.begin(), awaited_.end(), folder);
  std::error_code code;
  if (awaited == awaited_.end() || !fs::is_directory(fs::symlink_status(folder, code))) return;
  std::string error;
  if (!add_tree(folder, true, &error)) {
    // Gone again at once: its next appearance is awaited.
    if (errno != ENOENT) problem(folder, error);
    return;
  }
  awaited_.erase(awaited);
  events.push_back({WatchEvent::Kind::kRootBack, folder});
}

void FolderWatcher::watch_name(const fs::path& file) {
  fs::path folder = file.parent_path();
  if (folder.empty()) folder = ".";
  std::string error;
  const int wd = add_watch(folder, kNameMask, &error);
  if (wd < 0) throw InputError(path_text(folder.native()) + ": " + error);
  Watch& watch = watches_[wd];
  if (watch.folder.empty()) watch.folder = folder;
}

void FolderWatcher::watch_below(const fs::path& folder) {
  std::error_code code;
  for (fs::directory_iterator it(folder, code), end; !code && it != end; it.increment(code)) {
    const fs::path& path = it->path();
    std::error_code status_code;
    if (is_hidden(path.filename()) || !it->is_directory(status_code) ||
        it->is_symlink(status_code)) {
      continue;
    }
    std::string error;
    // Gone already, it has nothing to watch.
    if (!add_tree(path, false, &error) && errno != ENOENT) problem(path, error);
  }
  if (code && code != std::errc::no_such_file_or_directory) {
    problem(folder, "cannot read folder: " + code.message());
  }
}

void FolderWatcher::drop_tree(const fs::path& folder) {
  for (auto it = watches_.begin(); it != watches_.end();) {
    if (it->second.tree && is_within(it->second.folder, folder)) {
      inotify_rm_watch(fd_, it->first);
      it = watches_.erase(it);
    } else {
      ++it;
    }
  }
}

void FolderWatcher::problem(const fs::path& folder, const std::string& reason) {
  ReadProblem found;
  found.where.path = path_text(folder.native());
  found.reason = reason;
  found.skipped = true;
  problems_.push_back(std::move(found));
}

std::vector<ReadProblem> FolderWatcher::take_problems() {
  std::vector<ReadProblem> taken;
  taken.swap(problems_);
  return taken;
}

std::vector<WatchEvent> FolderWatcher::read_events() {
  std::vector<WatchEvent> events;
  alignas(inotify_event) char buffer[64 * 1024];
  for (;;) {
    const ssize_t count = read(fd_, buffer, sizeof buffer);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) return events;
    for (ssize_t at = 0; at < count;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      take_event(*event, events);
    }
  }
}

void FolderWatcher::take_event(const inotify_event& event, std::vector<WatchEvent>& events) {
  if (event.mask & IN_Q_OVERFLOW) {
    events.push_back({WatchEvent::Kind::kOverflow, {}});
    return;
  }
  const auto found = watches_.find(event.wd);
  if (found == watches_.end()) return;
  const Watch watch = found->second;
  if (event.mask & IN_IGNORED) watches_.erase(found);
  if (event.mask & (IN_MOVE_SELF | IN_DELETE_SELF)) {
    // Moved away, what is written in it is not below the name watched.
    if (watch.root) root_gone(watch.folder, events);
    return;
  }
  if (event.mask & IN_IGNORED || event.len == 0) return;
  const fs::path path = watch.folder / event.name;
  if (event.mask & IN_ISDIR) {
    if (event.mask & (IN_CREATE | IN_MOVED_TO)) root_back(path, events);
    if (!watch.tree || is_hidden(event.name)) return;
    if (event.mask & (IN_CREATE | IN_MOVED_TO)) {
      std::string error;
      if (!add_tree(path, false, &error)) {
        if (errno != ENOENT) problem(path, error);
        return;
      }
      events.push_back({WatchEvent::Kind::kFolderAdded, path});
    } else if (event.mask & (IN_DELETE | IN_MOVED_FROM)) {
      drop_tree(path);
      events.push_back({WatchEvent::Kind::kFolderGone, path});
    }
  } else if (event.mask & (IN_CLOSE_WRITE | IN_MOVED_TO)) {
    events.push_back({WatchEvent::Kind::kFileWritten, path});
  } else if (event.mask & (IN_DELETE | IN_MOVED_FROM)) {
    events.push_back({WatchEvent::Kind::kFileGone, path});
  } else if (event.mask & (IN_CREATE | IN_MODIFY | IN_ATTRIB)) {
    events.push_back({WatchEvent::Kind::kFileChanged, path});
  }
}

}  // namespace quarry::detail
