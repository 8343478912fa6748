// The alerts of an index's saved searches: a log kept beside the index,
// <index>/alerts.jsonl, one JSON object per line, numbered by a cursor that
// counts from 1 along the whole log. A writer appends the alerts each commit
// brings; readers follow it from a cursor, so that a reader that comes back
// with the last cursor it saw misses none and sees none twice.
//
// The log only grows: nothing here removes lines (an alert is some 300
// bytes, so a million of them is some 300 MB). Its owner may cut it short
// by hand, best by keeping its last lines (the numbering then goes on from
// them); a follower whose cursor is past the end of what is left starts over
// from the log's beginning and says so (AlertFollower::started_over).
//
// A last line without its line break is a write cut short by a crash: it is
// no alert, readers ignore it, and the next append removes it first.
#ifndef QUARRY_SEARCH_ALERT_LOG_H_
#define QUARRY_SEARCH_ALERT_LOG_H_

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace quarry {

// One match of a saved search. `date` is "YYYY-MM-DD" or "" when the article
// has none; `revision` is the number of the commit whose articles matched.
struct Alert {
  std::uint64_t cursor = 0;
  std::string alert, id, title, date, snippet, language;
  std::uint64_t revision = 0;

  bool operator==(const Alert&) const = default;
};

// The log's file name inside the index folder.
inline constexpr std::string_view kAlertLogName = "alerts.jsonl";

// `alert` as a line of the log, without its line break: {"cursor", "alert",
// "id", "title", "date", "snippet", "language", "revision"} in that order.
// Text that is not valid UTF-8 is written with U+FFFD in its place.
std::string alert_json(const Alert& alert);

// A line of the log read back; nothing when it is not an alert's object.
std::optional<Alert> parse_alert_json(std::string_view line);

// The log of one index. An object holds only its path and opens the file
// for each call, so that one may be used from several threads; appends of
// several processes are serialized by a lock on the file (flock).
class AlertLog {
 public:
  // The log <index_path>/alerts.jsonl; the file is created by the first
  // append, in a folder that must exist.
  explicit AlertLog(std::string index_path);

  const std::string& path() const { return path_; }

  // Numbers `alerts` from the last cursor on and appends them in one
  // write() of complete lines, synced to disk before it returns; returns them
  // with their cursors. A torn last line is dropped first. Throws IndexError
  // when the file cannot be opened, read or written.
  std::vector<Alert> append(std::vector<Alert> alerts);

  // The revision, and the cursor, of the last alert; 0 when there is none
  // (no log, or an empty one). Lines that are no alert's object (a hand
  // edit) are passed over here and by every reader. Throws IndexError when
  // the log exists but cannot be read.
  std::uint64_t last_revision() const;
  std::uint64_t last_cursor() const;

  // The alerts after `cursor` (0: from the first), at most `limit`, in
  // order. Finds where to start by bisecting the file, so that a reader far
  // behind reads what it returns and little more. Throws IndexError when the
  // log exists but cannot be read.
  std::vector<Alert> read_since(std::uint64_t cursor, std::size_t limit) const;

 private:
  std::string path_;
};

// A reader that follows the log from a cursor: each call of next() reads on
// from where the last one stopped, at the byte offset it remembers, so that
// following a long log costs what is new, not its length. Not thread-safe.
class AlertFollower {
 public:
  // Follows the log of `index_path` from the alerts after `cursor`.
  AlertFollower(std::string index_path, std::uint64_t cursor);

  // The alerts appended since the last call, at most `limit`. When the log
  // has been cut short or replaced, finds its place again by cursor; when
  // the log now ends before the cursor followed, or holds another alert at
  // that cursor (emptied, and numbered from 1 again), starts over from its
  // first alert, and started_over() says so until the next call. Throws
  // IndexError when the log exists but cannot be read.
  std::vector<Alert> next(std::size_t limit);

  bool started_over() const { return started_over_; }
  // The cursor of the last alert returned (or the one given).
  std::uint64_t cursor() const { return cursor_; }

 private:
  AlertLog log_;
  std::uint64_t cursor_;
  // Where the line after cursor_ starts in the file that has the inode
  // below; nothing until it is known.
  std::optional<std::uint64_t> offset_;
  // The alert at cursor_, once this follower has read one.
  std::optional<Alert> last_;
  ino_t inode_ = 0;
  dev_t device_ = 0;
  bool started_over_ = false;
};

}  // namespace quarry

#endif  // QUARRY_SEARCH_ALERT_LOG_H_
