#include "lib/index/index_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <thread>
#include <utility>

#include "quarry/error.h"

namespace quarry::detail {
namespace {

using Clock = std::chrono::steady_clock;

constexpr char kIndexLockName[] = ".index.lock";
constexpr char kCommitLockName[] = ".commit.lock";

}  // namespace

std::string index_lock_path(const std::string& db_path) {
  return (std::filesystem::path(db_path) / kIndexLockName).string();
}

std::string commit_lock_path(const std::string& db_path) {
  return (std::filesystem::path(db_path) / kCommitLockName).string();
}

bool is_lock_file(const std::string& name) {
  return name == kIndexLockName || name == kCommitLockName;
}

std::string locked_message(const std::string& db_path) {
  return "index " + db_path + " is locked by another quarry-index";
}

IndexLock::IndexLock(const std::string& db_path, LockWait wait, const std::atomic<bool>* cancel) {
  const std::string path = index_lock_path(db_path);
  std::error_code ignored;
  std::filesystem::create_directories(db_path, ignored);
  fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) return;
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    const bool held = errno == EWOULDBLOCK;
    const bool cancelled = cancel && cancel->load(std::memory_order_relaxed);
    if (!held || cancelled || std::chrono::steady_clock::now() >= deadline) {
      close(fd_);
      fd_ = -1;
      // A file system without flock leaves Xapian's lock to guard the index.
      if (!held) return;
      throw IndexLockedError(locked_message(db_path));
    }
    std::this_thread::sleep_for(kLockPollInterval);
  }
}

IndexLock::~IndexLock() {
  if (fd_ >= 0) close(fd_);
}

CommitLock::CommitLock(const std::string& db_path) {
  fd_ = open(commit_lock_path(db_path).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) return;
  while (flock(fd_, LOCK_SH) != 0) {
    if (errno == EINTR) continue;
    // A file system without flock: nothing to hold commits with.
    close(fd_);
    fd_ = -1;
    return;
  }
}

CommitLock::~CommitLock() {
  if (fd_ >= 0) close(fd_);
}

CommitGate::CommitGate(std::string db_path, const std::atomic<bool>* cancel, LockWait limit)
    : db_path_(std::move(db_path)), cancel_(cancel), limit_(limit) {}

CommitLock CommitGate::enter() {
  const int fd = open(commit_lock_path(db_path_).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return CommitLock(-1);
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(limit_);
  while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    const bool held = errno == EWOULDBLOCK;
    const bool cancelled = cancel_ && cancel_->load(std::memory_order_relaxed);
    if (!held || passed_over_ || cancelled || Clock::now() >= deadline) {
      // Where flock fails otherwise (a file system without it), there is
      // nothing to hold commits with, and no snapshot waited for.
      passed_over_ = held;
      close(fd);
      return CommitLock(-1);
    }
    std::this_thread::sleep_for(kCommitLockPollInterval);
  }
  passed_over_ = false;
  return CommitLock(fd);
}

}  // namespace quarry::detail
