// An open file descriptor that closes itself.
#ifndef QUARRY_LIB_INPUT_FILE_DESCRIPTOR_H_
#define QUARRY_LIB_INPUT_FILE_DESCRIPTOR_H_

#include <unistd.h>

#include <utility>

namespace quarry::detail {

// Owns an open file descriptor (or none, when negative).
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&&) = delete;

  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INPUT_FILE_DESCRIPTOR_H_
