#include "app/common/alert_log_watch.h"

#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "quarry/error.h"
#include "quarry/search/alert_log.h"

namespace quarry {

namespace {

constexpr std::uint32_t kEvents = IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_DELETE |
                                  IN_DELETE_SELF | IN_MOVE_SELF;

}  // namespace

AlertLogWatch::AlertLogWatch(const std::string& index_path) : path_(index_path) {
  std::error_code ignored;
  if (!std::filesystem::is_directory(index_path, ignored)) {
    throw IndexNotFoundError("no index folder at " + index_path);
  }
  fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd_ < 0) throw Error(std::string("cannot watch for alerts: ") + std::strerror(errno));
  // The folder, not the file: the log may not exist yet, or be replaced.
  watched_ = inotify_add_watch(fd_, index_path.c_str(), kEvents);
  if (watched_ < 0) {
    const int error = errno;
    ::close(fd_);
    throw Error("cannot watch " + index_path + " for alerts: " + std::strerror(error));
  }
}

AlertLogWatch::~AlertLogWatch() { ::close(fd_); }

bool AlertLogWatch::take_events() {
  alignas(inotify_event) char buffer[16 * 1024];
  bool changed = false;
  for (;;) {
    const ssize_t count = ::read(fd_, buffer, sizeof buffer);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) break;
    for (ssize_t at = 0; at < count;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
      if (event->wd == watched_ && (event->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED))) {
        // A folder moved away is still watched where it went: not the index.
        if (!(event->mask & IN_IGNORED)) inotify_rm_watch(fd_, watched_);
        watched_ = -1;
      }
      // An event without a name is about the folder itself; a lost queue
      // may have held one about the log.
      const std::string_view name =
          event->len > 0 ? std::string_view(event->name) : std::string_view();
      if (name.empty() || name == kAlertLogName) changed = true;
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
  }
  if (!watching()) rewatch();
  return changed;
}

bool AlertLogWatch::rewatch() {
  if (!watching()) watched_ = inotify_add_watch(fd_, path_.c_str(), kEvents);
  return watching();
}

}  // namespace quarry
