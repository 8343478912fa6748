#include "app/server/private_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "quarry/error.h"

namespace quarry {
namespace {

// Closes the descriptor it holds when it goes.
class OpenFile {
 public:
  explicit OpenFile(int fd) : fd_(fd) {}
  ~OpenFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;

  int get() const { return fd_; }

 private:
  int fd_;
};

std::string kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

std::string octal(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

// Why the file's owner and mode let others than its owner read or change
// it, or empty when they do not.
std::string exposure(const struct stat& status, const std::string& path) {
  const uid_t self = ::geteuid();
  if (status.st_uid != self && status.st_uid != 0) {
    return "it is owned by uid " + std::to_string(status.st_uid) +
           ", neither the user quarry runs as (uid " + std::to_string(self) +
           ") nor root: chown it";
  }
  // A file owned by root may be handed to the server's group to read.
  const mode_t closed = status.st_uid == 0 ? 0037 : 0077;
  if ((status.st_mode & closed) == 0) return "";
  return "users other than its owner may " +
         std::string((status.st_mode & 0022) != 0 ? "change" : "read") + " it (mode " +
         octal(status.st_mode) + "): chmod 600 " + path;
}

}  // namespace

std::string read_private_file(const std::string& path, const std::string& named,
                              std::size_t max_bytes) {
  // O_NONBLOCK: a FIFO opens at once, writer or not, and is then refused.
  const OpenFile file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (file.get() < 0) throw ConfigError(named + ": cannot be read: " + std::strerror(errno));
  struct stat status {};
  if (::fstat(file.get(), &status) != 0) {
    throw ConfigError(named + ": cannot be read: " + std::strerror(errno));
  }
  if (S_ISDIR(status.st_mode)) throw ConfigError(named + ": is a folder");
  if (!S_ISREG(status.st_mode)) {
    throw ConfigError(named + ": is " + kind_of(status.st_mode) + ", not a regular file");
  }
  const std::string exposed = exposure(status, path);
  if (!exposed.empty()) throw ConfigError(named + ": " + exposed);
  const std::string too_large =
      named + ": is larger than " + std::to_string(max_bytes) + " bytes, more than it may hold";
  if (static_cast<std::size_t>(status.st_size) > max_bytes) throw ConfigError(too_large);
  // Read up to one byte past the bound, as the file may have grown since.
  std::string contents(max_bytes + 1, '\0');
  std::size_t filled = 0;
  while (filled < contents.size()) {
    const ssize_t got = ::read(file.get(), contents.data() + filled, contents.size() - filled);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw ConfigError(named + ": cannot be read: " + std::strerror(errno));
    if (got == 0) break;
    filled += static_cast<std::size_t>(got);
  }
  if (filled > max_bytes) throw ConfigError(too_large);
  contents.resize(filled);
  return contents;
}

}  // namespace quarry
