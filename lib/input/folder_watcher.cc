// The kernel's inotify system calls, used directly: they are the kernel's
// interface, small enough to use as they are, and Debian's wrappers of them
// add nothing this needs.
#include "lib/input/folder_watcher.h"

#include <sys/inotify.h>
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
  const int wd = add_watch(folder, kTreeMask, &error);
  if (wd < 0) throw InputError(path_text(folder.native()) + ": " + error);
  Watch& watch = watches_[wd];
  watch.folder = folder;
  watch.tree = true;
  watch_below(folder);
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
    const int wd = add_watch(path, kTreeMask, &error);
    if (wd < 0) {
      // Gone already, it has nothing to watch.
      if (errno != ENOENT) problem(path, error);
      continue;
    }
    Watch& watch = watches_[wd];
    watch.folder = path;
    watch.tree = true;
    watch_below(path);
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
      if (event->mask & IN_Q_OVERFLOW) {
        events.push_back({WatchEvent::Kind::kOverflow, {}});
        continue;
      }
      const auto found = watches_.find(event->wd);
      if (found == watches_.end()) continue;
      if (event->mask & (IN_IGNORED | IN_DELETE_SELF)) {
        if (event->mask & IN_IGNORED) watches_.erase(found);
        continue;
      }
      if (event->len == 0) continue;
      const Watch watch = found->second;
      const fs::path path = watch.folder / event->name;
      const bool folder = event->mask & IN_ISDIR;
      if (folder) {
        if (!watch.tree || is_hidden(event->name)) continue;
        if (event->mask & (IN_CREATE | IN_MOVED_TO)) {
          std::string error;
          const int wd = add_watch(path, kTreeMask, &error);
          if (wd < 0) {
            if (errno != ENOENT) problem(path, error);
            continue;
          }
          Watch& added = watches_[wd];
          added.folder = path;
          added.tree = true;
          watch_below(path);
          events.push_back({WatchEvent::Kind::kFolderAdded, path});
        } else if (event->mask & (IN_DELETE | IN_MOVED_FROM)) {
          drop_tree(path);
          events.push_back({WatchEvent::Kind::kFolderGone, path});
        }
      } else if (event->mask & (IN_CLOSE_WRITE | IN_MOVED_TO)) {
        events.push_back({WatchEvent::Kind::kFileWritten, path});
      } else if (event->mask & (IN_DELETE | IN_MOVED_FROM)) {
        events.push_back({WatchEvent::Kind::kFileGone, path});
      } else if (event->mask & (IN_CREATE | IN_MODIFY | IN_ATTRIB)) {
        events.push_back({WatchEvent::Kind::kFileChanged, path});
      }
    }
  }
}

}  // namespace quarry::detail
