#include "quarry/search/alert_log.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "lib/input/file_descriptor.h"
#include "quarry/error.h"

namespace quarry {
namespace {

using detail::FileDescriptor;

// Bytes read at a time, forwards or backwards.
constexpr std::size_t kBlock = 64 * 1024;
// Below this many bytes between its bounds, bisecting reads on line by line.
constexpr std::uint64_t kScanBytes = 64 * 1024;

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw IndexError("cannot " + what + " " + path + ": " + std::strerror(errno));
}

// The log opened for reading; nothing when there is no log yet.
std::optional<FileDescriptor> open_for_reading(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    fail("open", path);
  }
  return std::optional<FileDescriptor>(std::in_place, fd);
}

struct stat stat_of(const FileDescriptor& fd, const std::string& path) {
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) fail("read", path);
  return info;
}

// Up to `length` bytes from `offset`; fewer only at the end of the file.
std::string read_at(const FileDescriptor& fd, std::uint64_t offset, std::size_t length,
                    const std::string& path) {
  std::string bytes(length, '\0');
  std::size_t done = 0;
  while (done < length) {
    const ssize_t got =
        ::pread(fd.get(), bytes.data() + done, length - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail("read", path);
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  bytes.resize(done);
  return bytes;
}

// Where the last line break before `end` is, or nothing.
std::optional<std::uint64_t> last_break_before(const FileDescriptor& fd, std::uint64_t end,
                                               const std::string& path) {
  while (end > 0) {
    const std::uint64_t start = end > kBlock ? end - kBlock : 0;
    const std::string bytes = read_at(fd, start, static_cast<std::size_t>(end - start), path);
    const std::size_t found = bytes.rfind('\n');
    if (found != std::string::npos) return start + found;
    end = start;
  }
  return std::nullopt;
}

// The end of the last complete line of a file of `size` bytes: what follows
// is a write cut short.
std::uint64_t complete_end(const FileDescriptor& fd, std::uint64_t size, const std::string& path) {
  const std::optional<std::uint64_t> last = last_break_before(fd, size, path);
  return last ? *last + 1 : 0;
}

// Reads the complete lines of [offset, end) one at a time, a block at once.
class LineReader {
 public:
  LineReader(const FileDescriptor& fd, std::uint64_t offset, std::uint64_t end,
             const std::string& path)
      : fd_(fd), offset_(offset), end_(end), path_(path) {}

  // The next line without its break, and sets `line_end` past its break;
  // nothing at the end.
  std::optional<std::string> next(std::uint64_t& line_end) {
    for (;;) {
      const std::size_t found = buffer_.find('\n', used_);
      if (found != std::string::npos) {
        std::string line = buffer_.substr(used_, found - used_);
        offset_ += found + 1 - used_;
        used_ = found + 1;
        line_end = offset_;
        return line;
      }
      const std::uint64_t read_from = offset_ + (buffer_.size() - used_);
      if (read_from >= end_) return std::nullopt;
      buffer_.erase(0, used_);
      used_ = 0;
      const auto length =
          static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, end_ - read_from));
      const std::string more = read_at(fd_, read_from, length, path_);
      if (more.empty()) return std::nullopt;
      buffer_ += more;
    }
  }

 private:
  const FileDescriptor& fd_;
  std::uint64_t offset_;  // of buffer_[used_]
  std::uint64_t end_;
  const std::string& path_;
  std::string buffer_;
  std::size_t used_ = 0;
};

// The last alert of the complete lines before `end`, passing over lines
// that are not alerts (a hand edit); nothing when there is none.
std::optional<Alert> last_alert(const FileDescriptor& fd, std::uint64_t end,
                                const std::string& path) {
  while (end > 0) {
    const std::optional<std::uint64_t> previous = last_break_before(fd, end - 1, path);
    const std::uint64_t start = previous ? *previous + 1 : 0;
    const std::string line = read_at(fd, start, static_cast<std::size_t>(end - 1 - start), path);
    if (std::optional<Alert> alert = parse_alert_json(line)) return alert;
    end = start;
  }
  return std::nullopt;
}

bool same_alert(const Alert& a, const Alert& b) {
  return a.cursor == b.cursor && a.alert == b.alert && a.id == b.id && a.revision == b.revision;
}

// Whether the complete line that ends at `offset` is the alert `cursor`
// (and `last`, when known): whether a follower's place is still where it
// left it.
bool ends_alert(const FileDescriptor& fd, std::uint64_t offset, std::uint64_t cursor,
                const Alert* last, const std::string& path) {
  if (offset == 0) return last == nullptr;
  if (read_at(fd, offset - 1, 1, path) != "\n") return false;
  const std::optional<std::uint64_t> previous = last_break_before(fd, offset - 1, path);
  const std::uint64_t start = previous ? *previous + 1 : 0;
  const std::optional<Alert> alert =
      parse_alert_json(read_at(fd, start, static_cast<std::size_t>(offset - 1 - start), path));
  return alert && alert->cursor == cursor && (!last || same_alert(*alert, *last));
}

// The first line that starts at `offset` or after, and its alert (nothing
// when it is not one); nothing at all when no complete line starts there.
struct LineAt {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::optional<Alert> alert;
};
std::optional<LineAt> line_at_or_after(const FileDescriptor& fd, std::uint64_t offset,
                                       std::uint64_t end, const std::string& path) {
  LineReader reader(fd, offset == 0 ? 0 : offset - 1, end, path);
  LineAt line;
  line.start = offset;
  if (offset > 0) {
    // The rest of the line that `offset - 1` is in, up to its break.
    if (!reader.next(line.start)) return std::nullopt;
  }
  std::optional<std::string> text = reader.next(line.end);
  if (!text) return std::nullopt;
  line.alert = parse_alert_json(*text);
  return line;
}

// Where the first line whose cursor is above `cursor` starts, or may start:
// every complete line before the offset returned has a cursor of `cursor`
// or less. Bisects by bytes while they are many, as cursors grow along the
// file.
std::uint64_t offset_after(const FileDescriptor& fd, std::uint64_t cursor, std::uint64_t end,
                           const std::string& path) {
  std::uint64_t low = 0;     // a line start; the lines before it are at most `cursor`
  std::uint64_t high = end;  // the lines from here on are above `cursor`
  while (high - low > kScanBytes) {
    const std::uint64_t middle = low + (high - low) / 2;
    const std::optional<LineAt> line = line_at_or_after(fd, middle, end, path);
    if (!line || line->start >= high) {
      high = middle;
    } else if (!line->alert) {
      break;  // a line that is no alert: read on from `low`
    } else if (line->alert->cursor <= cursor) {
      low = line->end;
    } else {
      high = line->start;
    }
  }
  LineReader reader(fd, low, end, path);
  std::uint64_t line_end = low;
  std::uint64_t start = low;
  while (std::optional<std::string> text = reader.next(line_end)) {
    const std::optional<Alert> alert = parse_alert_json(*text);
    if (alert && alert->cursor > cursor) return start;
    start = line_end;
  }
  return start;
}

// The alerts of the complete lines from `offset` to `end` whose cursor is
// above `cursor`, at most `limit`; sets `offset` past the last one read.
std::vector<Alert> read_from(const FileDescriptor& fd, std::uint64_t& offset, std::uint64_t end,
                             std::uint64_t cursor, std::size_t limit, const std::string& path) {
  std::vector<Alert> alerts;
  LineReader reader(fd, offset, end, path);
  std::uint64_t line_end = offset;
  while (alerts.size() < limit) {
    const std::optional<std::string> text = reader.next(line_end);
    if (!text) break;
    offset = line_end;
    std::optional<Alert> alert = parse_alert_json(*text);
    if (alert && alert->cursor > cursor) {
      cursor = alert->cursor;
      alerts.push_back(std::move(*alert));
    }
  }
  return alerts;
}

// Where a follower whose place is lost reads on: after its cursor, or from
// the first alert when the log now ends before it, or when the alert at its
// cursor is not the `last` it read (the numbering began again); then
// `started_over` is set, `cursor` is 0 and `last` is reset.
std::uint64_t find_place(const FileDescriptor& fd, std::uint64_t end, const std::string& path,
                         std::uint64_t& cursor, std::optional<Alert>& last, bool& started_over) {
  const std::optional<Alert> at_end = last_alert(fd, end, path);
  bool over = cursor > (at_end ? at_end->cursor : 0);
  if (!over && last && cursor > 0) {
    const std::optional<LineAt> line =
        line_at_or_after(fd, offset_after(fd, cursor - 1, end, path), end, path);
    over = line && line->alert && line->alert->cursor == cursor && !same_alert(*line->alert, *last);
  }
  if (over) {
    started_over = true;
    cursor = 0;
    last.reset();
  }
  return offset_after(fd, cursor, end, path);
}

std::string folder_of(const std::string& path) {
  return std::filesystem::path(path).parent_path().string();
}

// So that a log just created survives a crash with its first lines.
void sync_folder(const std::string& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("open", folder);
  const FileDescriptor closer(fd);
  if (::fsync(fd) != 0) fail("sync", folder);
}

}  // namespace

AlertLog::AlertLog(std::string index_path)
    : path_((std::filesystem::path(std::move(index_path)) / kAlertLogName).string()) {}

std::vector<Alert> AlertLog::append(std::vector<Alert> alerts) {
  if (alerts.empty()) return alerts;
  const int raw = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (raw < 0) fail("open", path_);
  const FileDescriptor fd(raw);
  // Released when the file is closed.
  while (::flock(fd.get(), LOCK_EX) != 0) {
    if (errno != EINTR) fail("lock", path_);
  }
  const auto size = static_cast<std::uint64_t>(stat_of(fd, path_).st_size);
  const std::uint64_t end = complete_end(fd, size, path_);
  if (end != size && ::ftruncate(fd.get(), static_cast<off_t>(end)) != 0) fail("truncate", path_);
  const std::optional<Alert> last = last_alert(fd, end, path_);
  std::uint64_t cursor = last ? last->cursor : 0;
  std::string lines;
  for (Alert& alert : alerts) {
    alert.cursor = ++cursor;
    lines += alert_json(alert);
    lines += '\n';
  }
  // One write, so that a reader sees whole commits, and a crash leaves at
  // most one torn line; the loop only carries on after a signal or a short
  // write, which a regular file gives when the disk fills.
  std::size_t written = 0;
  while (written < lines.size()) {
    const ssize_t count = ::pwrite(fd.get(), lines.data() + written, lines.size() - written,
                                   static_cast<off_t>(end + written));
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) {
      const int error = errno;
      // Leaves no torn line behind when it can; the write's error is the one
      // to report.
      [[maybe_unused]] const int ignored = ::ftruncate(fd.get(), static_cast<off_t>(end));
      errno = count == 0 ? ENOSPC : error;
      fail("write", path_);
    }
    written += static_cast<std::size_t>(count);
  }
  if (::fdatasync(fd.get()) != 0) fail("sync", path_);
  if (end == 0) sync_folder(folder_of(path_));
  return alerts;
}

std::uint64_t AlertLog::last_cursor() const {
  const std::optional<FileDescriptor> fd = open_for_reading(path_);
  if (!fd) return 0;
  const std::uint64_t end =
      complete_end(*fd, static_cast<std::uint64_t>(stat_of(*fd, path_).st_size), path_);
  const std::optional<Alert> last = last_alert(*fd, end, path_);
  return last ? last->cursor : 0;
}

std::uint64_t AlertLog::last_revision() const {
  const std::optional<FileDescriptor> fd = open_for_reading(path_);
  if (!fd) return 0;
  const std::uint64_t end =
      complete_end(*fd, static_cast<std::uint64_t>(stat_of(*fd, path_).st_size), path_);
  const std::optional<Alert> last = last_alert(*fd, end, path_);
  return last ? last->revision : 0;
}

std::vector<Alert> AlertLog::read_since(std::uint64_t cursor, std::size_t limit) const {
  const std::optional<FileDescriptor> fd = open_for_reading(path_);
  if (!fd || limit == 0) return {};
  const std::uint64_t end =
      complete_end(*fd, static_cast<std::uint64_t>(stat_of(*fd, path_).st_size), path_);
  std::uint64_t offset = offset_after(*fd, cursor, end, path_);
  return read_from(*fd, offset, end, cursor, limit, path_);
}

AlertFollower::AlertFollower(std::string index_path, std::uint64_t cursor)
    : log_(std::move(index_path)), cursor_(cursor) {}

std::vector<Alert> AlertFollower::next(std::size_t limit) {
  started_over_ = false;
  const std::optional<FileDescriptor> fd = open_for_reading(log_.path());
  // No log, for now: its folder may be between the two moves of a swap,
  // or the log removed. The place is kept: the log found next is searched
  // for it, and one that ends before it is read from its start.
  if (!fd) return {};
  const struct stat info = stat_of(*fd, log_.path());
  const std::uint64_t end =
      complete_end(*fd, static_cast<std::uint64_t>(info.st_size), log_.path());
  const bool same_inode = offset_ && info.st_ino == inode_ && info.st_dev == device_;
  if (same_inode && *offset_ == end) return {};
  inode_ = info.st_ino;
  device_ = info.st_dev;
  // A log cut short in place may have been written again past where this
  // follower was: its place holds if the line before it is still the last
  // alert it read.
  if (!same_inode || *offset_ > end ||
      !ends_alert(*fd, *offset_, cursor_, last_ ? &*last_ : nullptr, log_.path())) {
    offset_ = find_place(*fd, end, log_.path(), cursor_, last_, started_over_);
  }
  std::uint64_t offset = *offset_;
  std::vector<Alert> alerts = read_from(*fd, offset, end, cursor_, limit, log_.path());
  offset_ = offset;
  if (!alerts.empty()) {
    cursor_ = alerts.back().cursor;
    last_ = alerts.back();
  }
  return alerts;
}

}  // namespace quarry
