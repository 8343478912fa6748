#include "lib/index/index_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <thread>

#include "quarry/error.h"

namespace quarry::detail {

std::string locked_message(const std::string& db_path) {
  return "index " + db_path + " is locked by another quarry-index";
}

IndexLock::IndexLock(const std::string& db_path, LockWait wait, const std::atomic<bool>* cancel) {
  const std::string path = db_path + ".lock";
  std::error_code ignored;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ignored);
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

std::string commit_lock_path(const std::string& db_path) { return db_path + ".commit.lock"; }

CommitLock::CommitLock(const std::string& db_path, Holder holder) {
  fd_ = open(commit_lock_path(db_path).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) return;
  // Waits without a deadline: a writer holds it for a commit, a snapshot
  // for the copy of the index's files, both bounded.
  const int operation = holder == Holder::kWriter ? LOCK_EX : LOCK_SH;
  while (flock(fd_, operation) != 0) {
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

}  // namespace quarry::detail
