#include "quarry/input/article_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "lib/input/folder_file.h"
#include "lib/input/jsonl_reader.h"
#include "lib/input/path_text.h"
#include "lib/input/text_file_reader.h"
#include "quarry/error.h"

namespace quarry {

namespace {

namespace fs = std::filesystem;

enum class InputKind { kNone, kText, kJsonl };

bool ends_with_ignoring_case(std::string_view name, std::string_view suffix) {
  if (name.size() <= suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), name.end() - suffix.size(),
                    [](char a, char b) { return a == (b >= 'A' && b <= 'Z' ? b - 'A' + 'a' : b); });
}

InputKind kind_of(const fs::path& path) {
  const std::string name = path.filename().string();
  if (ends_with_ignoring_case(name, ".txt")) return InputKind::kText;
  if (ends_with_ignoring_case(name, ".jsonl") || ends_with_ignoring_case(name, ".jsonl.gz")) {
    return InputKind::kJsonl;
  }
  return InputKind::kNone;
}

std::string error_message(int error) { return std::generic_category().message(error); }

// Built field by field: GCC 12 warns of uninitialized strings in a braced
// temporary ReadProblem at -O2.
void report(ArticleSink& sink, const std::string& path, std::string reason, bool skipped = true,
            bool read_whole = false) {
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
std::string to_display(const fs::path& path) { return detail::path_text(path.native()); }

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) close(fd_);
  }
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&&) = delete;

  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// Opens a regular file for reading. O_NONBLOCK keeps a FIFO with an article's
// name from blocking the walk until some writer turns up; it changes nothing
// for regular files. Returns -1 and sets *error on failure.
int open_regular_file(const fs::path& path, std::string* error) {
  FileDescriptor fd(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (fd.get() < 0) {
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

void read_open_file(FileDescriptor fd, const std::string& where, std::string id, InputKind kind,
                    ArticleSink& sink) {
  if (kind == InputKind::kJsonl) {
    detail::read_jsonl(fd.release(), where, sink);
  } else {
    detail::read_text_file(fd.get(), where, std::move(id), sink);
  }
}

// The entries of `folder` in name order, as many as could be read; sets
// *error when not all could.
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
  void read_link(const fs::path& link, const fs::path& relative);
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
    report(sink_, to_display(entry.path()), "cannot read: " + code.message());
    return;
  }
  if (fs::is_symlink(status)) {
    read_link(entry.path(), relative / name);
  } else if (fs::is_directory(status)) {
    read_folder(entry.path(), relative / name);
  } else if (const InputKind kind = kind_of(name); kind != InputKind::kNone) {
    read_file(entry.path(), relative / name, kind);
  } else if (fs::is_regular_file(status)) {
    sink_.on_other_file(entry.path());
  }
}

// A link to a file is read as what it points to, under its own name, when
// that is inside the folders given: one pointing elsewhere would put files
// in the index that nobody asked for (a passwd.txt linking to /etc/passwd).
// A link to a folder inside is left out: its articles are read where they
// are, and reading them through the link too would index each twice, under
// two ids (or loop, for a link to a folder it is in).
void FolderWalker::read_link(const fs::path& link, const fs::path& relative) {
  const InputKind kind = kind_of(link.filename());
  std::error_code code;
  const fs::path target = fs::canonical(link, code);
  if (code) {
    // Dangling, or a loop of links: what would have been read is named.
    if (kind != InputKind::kNone) report(sink_, to_display(link), "cannot open: " + code.message());
    return;
  }
  const bool folder = fs::is_directory(target, code);
  if (!folder && kind == InputKind::kNone) return;
  if (std::none_of(scope_.begin(), scope_.end(),
                   [&](const fs::path& root) { return is_within(target, root); })) {
    report(sink_, to_display(link), "a link to outside the folders given", true, true);
    return;
  }
  if (!folder) read_file(link, relative, kind);
}

void FolderWalker::read_folder(const fs::path& folder, const fs::path& relative) {
  std::string error;
  const std::vector<fs::directory_entry> entries = list_folder(folder, &error);
  if (!error.empty()) report(sink_, to_display(folder), "cannot read folder: " + error);
  read_entries(entries, relative);
}

void FolderWalker::read_file(const fs::path& path, const fs::path& relative, InputKind kind) {
  const std::string where = to_display(path);
  std::string error;
  const int fd = open_regular_file(path, &error);
  if (fd < 0) {
    report(sink_, where, std::move(error));
    return;
  }
  read_open_file(FileDescriptor(fd), where, to_display(relative.generic_string()), kind, sink_);
}

bool is_hidden(const fs::path& relative) {
  return std::any_of(relative.begin(), relative.end(),
                     [](const fs::path& part) { return part.native().starts_with('.'); });
}

}  // namespace

namespace detail {

namespace {

// Whether a process has the file open for writing: the kernel then refuses
// a read lease. Where leases cannot be taken (a file of another owner
// without CAP_LEASE, a file system without them), no one is taken to be.
bool being_written(int fd) {
  if (fcntl(fd, F_SETLEASE, F_RDLCK) != 0) return errno == EAGAIN;
  fcntl(fd, F_SETLEASE, F_UNLCK);
  return false;
}

void read_folder_file(const fs::path& root, const fs::path& relative, ArticleSink& sink,
                      bool unless_being_written) {
  const InputKind kind = kind_of(relative.filename());
  if (kind == InputKind::kNone || is_hidden(relative)) return;
  const fs::path path = root / relative;
  std::error_code code;
  const fs::file_status status = fs::symlink_status(path, code);
  if (fs::is_symlink(status)) return;
  const std::string where = to_display(path);
  std::string error;
  const int fd = open_regular_file(path, &error);
  if (fd < 0) {
    report(sink, where, std::move(error));
    return;
  }
  FileDescriptor file(fd);
  if (unless_being_written && being_written(file.get())) return;
  read_open_file(std::move(file), where, text_article_id(relative), kind, sink);
}

}  // namespace

void read_folder_file(const fs::path& root, const fs::path& relative, ArticleSink& sink) {
  read_folder_file(root, relative, sink, false);
}

void read_folder_files(const fs::path& root, const fs::path& relative, ArticleSink& sink) {
  std::string error;
  const std::vector<fs::directory_entry> entries = list_folder(root / relative, &error);
  if (!error.empty()) report(sink, to_display(root / relative), "cannot read folder: " + error);
  for (const fs::directory_entry& entry : entries) {
    if (sink.should_stop()) return;
    const fs::path name = entry.path().filename();
    std::error_code code;
    const fs::file_status status = entry.symlink_status(code);
    if (is_hidden(name) || fs::is_symlink(status)) continue;
    if (fs::is_directory(status)) {
      read_folder_files(root, relative / name, sink);
    } else {
      // Made with its folder, maybe still being written: then its close
      // after writing is watched for, and it is read then.
      read_folder_file(root, relative / name, sink, true);
    }
  }
}

bool is_text_article(const fs::path& relative) {
  return kind_of(relative.filename()) == InputKind::kText && !is_hidden(relative);
}

std::string text_article_id(const fs::path& relative) {
  return to_display(relative.generic_string());
}

}  // namespace detail

bool is_article_file(const std::filesystem::path& path) {
  return kind_of(path) != InputKind::kNone;
}

std::string unreadable_root(const std::filesystem::path& root) {
  std::error_code code;
  const fs::file_status status = fs::status(root, code);
  if (!fs::exists(status)) {
    if (code && code != std::errc::no_such_file_or_directory) return code.message();
    return "no such file or folder";
  }
  if (fs::is_directory(status)) return "";
  // A pipe or a device named .txt would be read as nothing, or block.
  if (kind_of(root) != InputKind::kNone)
    return fs::is_regular_file(status) ? "" : "not a regular file";
  return "not a folder, nor a .txt, .jsonl or .jsonl.gz file";
}

void read_articles(const std::filesystem::path& root, ArticleSink& sink,
                   const std::vector<std::filesystem::path>& also_within) {
  const std::string where = to_display(root);
  if (std::string problem = unreadable_root(root); !problem.empty()) {
    throw InputError(where + ": " + problem);
  }
  if (fs::is_directory(root)) {
    std::string error;
    const std::vector<fs::directory_entry> entries = list_folder(root, &error);
    if (!error.empty()) throw InputError(where + ": cannot read folder: " + error);
    std::vector<fs::path> scope{canonical_or_absolute(root)};
    for (const fs::path& folder : also_within) {
      std::error_code code;
      if (fs::is_directory(folder, code)) scope.push_back(canonical_or_absolute(folder));
    }
    FolderWalker(sink, std::move(scope)).read_root(entries);
    return;
  }
  std::string error;
  FileDescriptor fd(open_regular_file(root, &error));
  if (fd.get() < 0) throw InputError(where + ": " + error);
  if (sink.should_stop()) return;
  read_open_file(std::move(fd), where, to_display(root.filename()), kind_of(root), sink);
}

}  // namespace quarry
