// Being woken when an index's alert log may have changed, rather than
// looking at it again and again: inotify on the index folder, its events
// about alerts.jsonl (written, closed, created, moved in, removed).
#ifndef QUARRY_APP_COMMON_ALERT_LOG_WATCH_H_
#define QUARRY_APP_COMMON_ALERT_LOG_WATCH_H_

#include <string>

namespace quarry {

// Not thread-safe. Watches from its construction on: a reader that makes
// one, then reads the log to its end, and reads again each time the watch
// says so, misses no append.
class AlertLogWatch {
 public:
  // Throws IndexNotFoundError when `index_path` is not a folder, Error when
  // it cannot be watched (too many watches).
  explicit AlertLogWatch(const std::string& index_path);
  ~AlertLogWatch();
  AlertLogWatch(const AlertLogWatch&) = delete;
  AlertLogWatch& operator=(const AlertLogWatch&) = delete;

  // Readable when events wait; never blocks. Stays owned by this object.
  int fd() const { return fd_; }

  // Reads the events that wait; whether one may have changed the log. When
  // the folder was removed or moved away, watches the one now at its path.
  bool take_events();

  // Whether a folder is watched: false after the folder went away, until
  // take_events() or rewatch() finds one at its path again.
  bool watching() const { return watched_ >= 0; }
  // Watches the folder now at the path, when none is; whether one is. A
  // true return after false is a change: the log may be another.
  bool rewatch();

 private:
  std::string path_;
  int fd_ = -1;
  int watched_ = -1;  // the watch descriptor, or -1
};

}  // namespace quarry

#endif  // QUARRY_APP_COMMON_ALERT_LOG_WATCH_H_
