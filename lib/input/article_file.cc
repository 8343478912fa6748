#include "lib/input/article_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string_view>
#include <system_error>
#include <utility>

#include "lib/input/jsonl_reader.h"
#include "lib/input/path_text.h"
#include "lib/input/text_file_reader.h"

namespace quarry::detail {

namespace {

namespace fs = std::filesystem;

bool ends_with_ignoring_case(std::string_view name, std::string_view suffix) {
  if (name.size() <= suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), name.end() - suffix.size(),
                    [](char a, char b) { return a == (b >= 'A' && b <= 'Z' ? b - 'A' + 'a' : b); });
}

std::string error_message(int error) { return std::generic_category().message(error); }

}  // namespace

InputKind input_kind(const fs::path& path) {
  const std::string name = path.filename().string();
  if (ends_with_ignoring_case(name, ".txt")) return InputKind::kText;
  if (ends_with_ignoring_case(name, ".jsonl") || ends_with_ignoring_case(name, ".jsonl.gz")) {
    return InputKind::kJsonl;
  }
  return InputKind::kNone;
}

// O_NONBLOCK keeps a FIFO with an article's name from blocking the walk
// until some writer turns up; it changes nothing for regular files.
int open_regular_file(const fs::path& path, std::string* error, bool* gone) {
  FileDescriptor fd(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (fd.get() < 0) {
    if (gone) *gone = errno == ENOENT;
    *error = "cannot open: " + error_message(errno);
    return -1;
  }
  struct stat status;
  if (fstat(fd.get(), &status) != 0) {
    *error = "cannot open: " + error_message(errno);
    return -1;
  }
  if (!S_ISREG(status.st_mode)) {
    *error = "not a regular file";
    return -1;
  }
  return fd.release();
}

// The kernel refuses a read lease while a process has the file open for
// writing. Where leases cannot be taken (a file of another owner without
// CAP_LEASE, a file system without them), no one is taken to be. A writer
// opening the file in the moment the lease is held breaks it, and the
// kernel tells the holder with a signal, SIGIO unless told otherwise, which
// would end the process: SIGURG, ignored unless a program asks for it,
// tells nobody instead.
bool being_written(int fd) {
  fcntl(fd, F_SETSIG, SIGURG);
  if (fcntl(fd, F_SETLEASE, F_RDLCK) != 0) return errno == EAGAIN;
  fcntl(fd, F_SETLEASE, F_UNLCK);
  return false;
}

void read_open_file(FileDescriptor fd, const std::string& where, std::string id, InputKind kind,
                    ArticleSink& sink) {
  if (kind == InputKind::kJsonl) {
    read_jsonl(fd.release(), where, sink);
  } else {
    read_text_file(fd.get(), where, std::move(id), sink);
  }
}

void read_article_file(const fs::path& path, const std::string& where, std::string id,
                       InputKind kind, ArticleSink& sink) {
  std::string error;
  bool gone = false;
  const int fd = open_regular_file(path, &error, &gone);
  if (fd < 0) {
    // Renamed or deleted since it was listed or reported written: what
    // follows changes is told of its new name, or of its end.
    if (!(gone && sink.follows_changes())) report_problem(sink, where, std::move(error));
    return;
  }
  FileDescriptor file(fd);
  if (sink.follows_changes() && being_written(file.get())) {
    sink.on_passed_over(SourceLocation{where, 0});
    return;
  }
  read_open_file(std::move(file), where, std::move(id), kind, sink);
}

void report_problem(ArticleSink& sink, const std::string& path, std::string reason, bool skipped,
                    bool read_whole) {
  ReadProblem problem;
  problem.where.path = path;
  problem.reason = std::move(reason);
  problem.skipped = skipped;
  problem.read_whole = read_whole;
  sink.on_problem(problem);
}

// Paths are bytes on POSIX systems, but ids and locations are printed and
// written as JSON, which must be UTF-8; escaped, not repaired, two names
// stay two.
std::string display_path(const fs::path& path) { return path_text(path.native()); }

}  // namespace quarry::detail
