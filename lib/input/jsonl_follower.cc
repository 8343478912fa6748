#include "lib/input/jsonl_follower.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "lib/input/path_text.h"
#include "quarry/error.h"

namespace quarry::detail {
namespace {

constexpr std::size_t kBufferBytes = 64 * 1024;

// Reads up to `size` bytes at the file offset; -1 on an error other than
// an interruption.
ssize_t read_some(int fd, char* buffer, std::size_t size) {
  for (;;) {
    const ssize_t count = ::read(fd, buffer, size);
    if (count >= 0 || errno != EINTR) return count;
  }
}

}  // namespace

JsonlFollower::JsonlFollower(const std::filesystem::path& path)
    : path_(path), stream_(path_text(path.native())) {
  if (!open_named()) {
    throw InputError(stream_.where() + ": cannot open: " + std::generic_category().message(errno));
  }
  // The lines complete now are left to the run that reads the file whole.
  struct stat status;
  off_t size = fstat(fd_, &status) == 0 ? status.st_size : 0;
  std::size_t lines = 0;
  off_t read_so_far = 0;
  char buffer[kBufferBytes];
  while (read_so_far < size) {
    const ssize_t count = read_some(
        fd_, buffer, static_cast<std::size_t>(std::min<off_t>(size - read_so_far, kBufferBytes)));
    if (count <= 0) break;
    for (ssize_t i = 0; i < count; ++i) {
      if (buffer[i] != '\n') continue;
      ++lines;
      offset_ = read_so_far + i + 1;
    }
    read_so_far += count;
  }
  lseek(fd_, offset_, SEEK_SET);
  stream_ = JsonlStream(stream_.where(), lines + 1);
}

JsonlFollower::~JsonlFollower() {
  if (fd_ >= 0) close(fd_);
}

bool JsonlFollower::open_named() {
  const int fd = open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat status;
  if (fstat(fd, &status) != 0) {
    close(fd);
    return false;
  }
  if (fd_ >= 0) close(fd_);
  fd_ = fd;
  device_ = status.st_dev;
  inode_ = status.st_ino;
  offset_ = 0;
  return true;
}

void JsonlFollower::read(ArticleSink& sink) {
  if (fd_ >= 0) drain(sink);
  struct stat named;
  if (stat(path_.c_str(), &named) != 0) return;
  if (fd_ >= 0 && named.st_dev == device_ && named.st_ino == inode_) return;
  // Rotated: what the old file got was read above.
  if (!open_named()) return;
  stream_.restart(sink, "the file was replaced before it ended");
  drain(sink);
}

void JsonlFollower::drain(ArticleSink& sink) {
  struct stat status;
  if (fstat(fd_, &status) == 0 && status.st_size < offset_) {
    stream_.restart(sink, "the file was truncated");
    offset_ = 0;
    lseek(fd_, 0, SEEK_SET);
  }
  char buffer[kBufferBytes];
  for (;;) {
    const ssize_t count = read_some(fd_, buffer, sizeof buffer);
    if (count <= 0) return;
    offset_ += count;
    stream_.feed(std::string_view(buffer, static_cast<std::size_t>(count)), sink);
  }
}

}  // namespace quarry::detail
