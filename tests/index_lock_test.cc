// One writer at a time per index: a second lock on the same index fails
// while the first is held, and succeeds once it is released.
#include "lib/index/index_lock.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "quarry/error.h"
#include "tests/test_util.h"

namespace quarry::detail {
namespace {

using std::chrono::milliseconds;
using std::chrono::steady_clock;
using testing::TempDir;

constexpr LockWait kNoWait{0};

// The message of the IndexLockedError that taking the lock throws, or
// nullopt when the lock was taken.
std::optional<std::string> lock_failure(const std::string& db_path, LockWait wait = kNoWait,
                                        const std::atomic<bool>* cancel = nullptr) {
  try {
    const IndexLock lock(db_path, wait, cancel);
    return std::nullopt;
  } catch (const IndexLockedError& error) {
    return error.what();
  }
}

TEST(IndexLock, ASecondLockFailsWhileTheFirstIsHeld) {
  const TempDir dir;
  const std::string db = (dir / "index").string();
  const IndexLock held(db, kNoWait, nullptr);
  EXPECT_EQ(lock_failure(db), "index " + db + " is locked by another quarry-index");
  EXPECT_EQ(locked_message(db), "index " + db + " is locked by another quarry-index");
  EXPECT_EQ(lock_failure((dir / "other").string()), std::nullopt) << "another index is free";
}

TEST(IndexLock, IsReleasedWhenTheHolderIsDestroyed) {
  const TempDir dir;
  const std::string db = (dir / "index").string();
  auto held = std::make_unique<IndexLock>(db, kNoWait, nullptr);
  ASSERT_NE(lock_failure(db), std::nullopt);
  held.reset();
  EXPECT_EQ(lock_failure(db), std::nullopt);
  EXPECT_EQ(lock_failure(db), std::nullopt) << "and again, once the second is gone";
}

TEST(IndexLock, WaitsUpToItsTimeoutThenFails) {
  const TempDir dir;
  const std::string db = (dir / "index").string();
  const IndexLock held(db, kNoWait, nullptr);
  const LockWait wait = milliseconds(500);
  const auto start = steady_clock::now();
  EXPECT_NE(lock_failure(db, wait), std::nullopt);
  EXPECT_GE(steady_clock::now() - start, wait);
}

TEST(IndexLock, AWaitingLockIsTakenWhenTheHolderLetsGo) {
  const TempDir dir;
  const std::string db = (dir / "index").string();
  auto held = std::make_unique<IndexLock>(db, kNoWait, nullptr);
  const milliseconds hold_for = 3 * kLockPollInterval;
  std::atomic<bool> waiting = false;
  std::thread holder([&] {
    while (!waiting) std::this_thread::yield();
    std::this_thread::sleep_for(hold_for);
    held.reset();
  });
  const LockWait patience = std::chrono::seconds(60);
  const auto start = steady_clock::now();
  waiting = true;
  EXPECT_EQ(lock_failure(db, patience), std::nullopt);
  const auto waited = steady_clock::now() - start;
  holder.join();
  EXPECT_GE(waited, hold_for) << "taken only once released";
  EXPECT_LT(waited, patience);
}

TEST(IndexLock, CancellingAWaitFailsAtOnce) {
  const TempDir dir;
  const std::string db = (dir / "index").string();
  const IndexLock held(db, kNoWait, nullptr);
  const std::atomic<bool> cancel = true;
  const auto start = steady_clock::now();
  EXPECT_NE(lock_failure(db, std::chrono::seconds(60), &cancel), std::nullopt);
  EXPECT_LT(steady_clock::now() - start, std::chrono::seconds(30));
}

TEST(IndexLock, NoLockFileMeansNoLockAndNoError) {
  // A lock file under a regular file cannot be created: Xapian's own lock
  // is left to guard the index.
  const TempDir dir;
  testing::write_file(dir / "file", "");
  const std::string db = (dir / "file" / "index").string();
  const IndexLock first(db, kNoWait, nullptr);
  EXPECT_EQ(lock_failure(db), std::nullopt);
}

// Whether another holder could take the commit lock of `db` at once,
// shared (as a snapshot) or exclusive (as a writer), without waiting.
bool commit_lock_free(const std::string& db, int operation) {
  const int fd = open(commit_lock_path(db).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  EXPECT_GE(fd, 0);
  const bool taken = flock(fd, operation | LOCK_NB) == 0;
  close(fd);
  return taken;
}

TEST(CommitLock, SnapshotsShareItAndAWriterHasItAlone) {
  const TempDir dir;
  const std::string db = (dir / "index").string();
  std::filesystem::create_directory(db);
  EXPECT_EQ(commit_lock_path(db), db + "/.commit.lock");
  {
    const CommitLock snapshot(db);
    EXPECT_TRUE(snapshot.held());
    EXPECT_TRUE(commit_lock_free(db, LOCK_SH)) << "another snapshot copies too";
    EXPECT_FALSE(commit_lock_free(db, LOCK_EX)) << "a writer waits";
  }
  {
    CommitGate gate(db, nullptr);
    const CommitLock writer = gate.enter();
    EXPECT_TRUE(writer.held());
    EXPECT_FALSE(commit_lock_free(db, LOCK_SH)) << "a snapshot waits for the commit";
    EXPECT_FALSE(commit_lock_free(db, LOCK_EX));
  }
  EXPECT_TRUE(commit_lock_free(db, LOCK_EX)) << "released with its holder";
}

// gate.enter() on a thread of its own: whether the lock it returned was
// held, or nullopt when it had not returned within a minute (it waits for
// `stalled`, which is then let go so that it returns).
std::optional<bool> held_by_enter(CommitGate& gate, std::unique_ptr<CommitLock>& stalled) {
  std::atomic<bool> entered{false};
  bool held = false;
  std::thread committer([&] {
    held = gate.enter().held();
    entered = true;
  });
  const auto patience = steady_clock::now() + std::chrono::seconds(60);
  while (!entered && steady_clock::now() < patience) std::this_thread::sleep_for(milliseconds(5));
  const bool returned = entered;
  if (!returned) stalled.reset();
  committer.join();
  return returned ? std::optional<bool>(held) : std::nullopt;
}

// A snapshot that holds commits past the limit (stopped, or copying to a
// slow disk) is passed over, and not waited for again until the lock has
// been free once.
TEST(CommitLock, AWriterPassesOverASnapshotHeldPastTheLimit) {
  const TempDir dir;
  const std::string db = (dir / "index").string();
  std::filesystem::create_directory(db);
  CommitGate gate(db, nullptr, LockWait(0.2));
  auto stalled = std::make_unique<CommitLock>(db);
  EXPECT_EQ(held_by_enter(gate, stalled), std::optional<bool>(false))
      << "the commit goes on without the lock";
  EXPECT_EQ(held_by_enter(gate, stalled), std::optional<bool>(false));
  EXPECT_FALSE(commit_lock_free(db, LOCK_EX)) << "the snapshot still holds it";
  stalled.reset();
  EXPECT_TRUE(gate.enter().held());
  stalled = std::make_unique<CommitLock>(db);
  EXPECT_EQ(held_by_enter(gate, stalled), std::optional<bool>(false));
}

// Cancelled, a writer waits for no snapshot: a watcher told to end commits
// and ends, whatever holds the lock.
TEST(CommitLock, ACancelledWriterDoesNotWaitForASnapshot) {
  const TempDir dir;
  const std::string db = (dir / "index").string();
  std::filesystem::create_directory(db);
  std::atomic<bool> cancel{true};
  CommitGate gate(db, &cancel, std::chrono::hours(1));
  auto stalled = std::make_unique<CommitLock>(db);
  EXPECT_EQ(held_by_enter(gate, stalled), std::optional<bool>(false))
      << "the cancelled writer waited for the snapshot";
}

}  // namespace
}  // namespace quarry::detail
