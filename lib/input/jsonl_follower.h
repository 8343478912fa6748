// A JSON Lines file followed as `tail -F` follows a file: lines appended to
// it are read as they are completed, through truncation (read again from
// the start) and rotation (the name now names a new file: the old one is
// finished, then the new one read from its start).
#ifndef QUARRY_LIB_INPUT_JSONL_FOLLOWER_H_
#define QUARRY_LIB_INPUT_JSONL_FOLLOWER_H_

#include <sys/types.h>

#include <filesystem>

#include "lib/input/jsonl_stream.h"
#include "quarry/input/article_reader.h"

namespace quarry::detail {

// Not thread-safe. Plain JSON Lines only: a gzip stream cannot be followed.
class JsonlFollower {
 public:
  // Opens the file at `path` and starts after the last line break it holds
  // now: the lines before are taken as read by a run over the file made
  // after this, and a last line not ended yet is read once it ends. Throws
  // InputError when the file cannot be opened.
  explicit JsonlFollower(const std::filesystem::path& path);
  ~JsonlFollower();
  JsonlFollower(const JsonlFollower&) = delete;
  JsonlFollower& operator=(const JsonlFollower&) = delete;

  // Reads what was written since the last call, the lines completed to the
  // sink. A file now shorter than what was read of it was truncated: it is
  // read again from its start. When the name names another file, what was
  // appended to the old one is read, a line of it left unfinished is
  // reported as cut short, and the new file is read from its start. While
  // the name names no file, the old one is still read. Never blocks.
  void read(ArticleSink& sink);

  const std::filesystem::path& path() const { return path_; }

 private:
  // Reads the open file to its end.
  void drain(ArticleSink& sink);
  // Opens the file the name names now; false when there is none.
  bool open_named();

  std::filesystem::path path_;
  int fd_ = -1;
  dev_t device_ = 0;
  ino_t inode_ = 0;
  off_t offset_ = 0;
  JsonlStream stream_;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_JSONL_FOLLOWER_H_
