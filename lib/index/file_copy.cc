#include "lib/index/file_copy.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>

#include "lib/input/file_descriptor.h"

namespace quarry::detail {
namespace {

std::error_code last_error() { return {errno, std::generic_category()}; }

// Where the kernel cannot copy between these two files (across file
// systems on some kernels), through a buffer.
std::error_code copy_through_buffer(int from, int to) {
  std::array<char, 1 << 16> buffer;
  for (;;) {
    const ssize_t got = read(from, buffer.data(), buffer.size());
    if (got == 0) return {};
    if (got < 0) {
      if (errno == EINTR) continue;
      return last_error();
    }
    for (ssize_t put = 0; put < got;) {
      const ssize_t written = write(to, buffer.data() + put, static_cast<std::size_t>(got - put));
      if (written < 0) {
        if (errno == EINTR) continue;
        return last_error();
      }
      put += written;
    }
  }
}

}  // namespace

std::error_code copy_regular_file(const std::filesystem::path& from,
                                  const std::filesystem::path& to) {
  const FileDescriptor source(open(from.c_str(), O_RDONLY | O_CLOEXEC));
  if (source.get() < 0) return last_error();
  struct stat status {};
  if (fstat(source.get(), &status) != 0) return last_error();
  const FileDescriptor target(
      open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, status.st_mode & 07777));
  if (target.get() < 0) return last_error();
  for (;;) {
    const ssize_t copied =
        copy_file_range(source.get(), nullptr, target.get(), nullptr, 1 << 30, 0);
    if (copied == 0) return {};
    if (copied > 0) continue;
    if (errno == EINTR) continue;
    if (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP) {
      return copy_through_buffer(source.get(), target.get());
    }
    return last_error();
  }
}

}  // namespace quarry::detail
