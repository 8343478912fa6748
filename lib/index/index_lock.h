// One quarry-index at a time per index. Xapian's own lock covers an existing
// database only; a new index is built in parts beside it and does not exist
// until it is merged, so two runs could otherwise both build it and the
// second would fail only at the end, its work lost.
//
// The lock files live in the index folder, as Xapian's own does, made
// before the index when it is new: a folder that holds nothing else holds
// no index yet (index_absent), and the finished index is moved in around
// them (see place_database).
#ifndef QUARRY_LIB_INDEX_INDEX_LOCK_H_
#define QUARRY_LIB_INDEX_INDEX_LOCK_H_

#include <atomic>
#include <chrono>
#include <string>

namespace quarry::detail {

// How long to wait for another writer before giving up.
using LockWait = std::chrono::duration<double>;

// Between attempts to take a lock that is held: often enough that a waiting
// run starts soon after the other ends, rarely enough to cost nothing.
inline constexpr std::chrono::milliseconds kLockPollInterval{200};

// An advisory lock (flock) on the file index_lock_path(db_path), made with
// the index folder when there is none yet, held while this object lives and released by the kernel
// if the process dies, so a killed run never leaves a stale lock behind.
class IndexLock {
 public:
  // Takes the lock, polling for up to `wait` while another process holds
  // it. Throws IndexLockedError when it is still held after that, or when
  // `cancel` (if not null) turns true meanwhile. When the
  // lock file cannot be created (a read-only folder, say), no lock is taken:
  // Xapian's lock still guards an existing index, and opening it will report
  // the real problem.
  IndexLock(const std::string& db_path, LockWait wait, const std::atomic<bool>* cancel);
  ~IndexLock();
  IndexLock(const IndexLock&) = delete;
  IndexLock& operator=(const IndexLock&) = delete;

 private:
  int fd_ = -1;
};

// Commits to the index at `db_path`, held still while a snapshot copies its
// files (see take_snapshot): Xapian's advice for a consistent copy of a live
// database is that no writer commits while it is taken. A flock on the file
// commit_lock_path(db_path): a writer holds it exclusively
// around each commit, a snapshot shared while it copies. Released by the
// kernel if the process dies. As with IndexLock, no lock is taken when the
// lock file cannot be created (a read-only folder); a snapshot then finds a
// commit by the revisions it reads.
class CommitLock {
 public:
  // A snapshot's hold: waits for a writer's commit under way to end, without
  // a deadline (a commit is seconds at most, and Ctrl-C ends the snapshot).
  explicit CommitLock(const std::string& db_path);
  ~CommitLock();
  CommitLock(const CommitLock&) = delete;
  CommitLock& operator=(const CommitLock&) = delete;

  // Whether the lock is held: a writer that waited its limit holds nothing.
  bool held() const { return fd_ >= 0; }

 private:
  friend class CommitGate;
  explicit CommitLock(int fd) : fd_(fd) {}

  int fd_ = -1;
};

// How long a writer's commit waits for snapshots copying the index's files.
// Articles must go on becoming searchable: a copy that takes longer (a slow
// backup disk, a snapshot stopped with Ctrl-Z) is passed over, and the
// snapshot, finding the index committed to while it copied, copies again.
inline constexpr std::chrono::seconds kSnapshotHoldLimit{5};

// Between attempts to take the commit lock: a tenth of a second, so that
// a writer waiting for it notices cancel well within a second.
inline constexpr std::chrono::milliseconds kCommitLockPollInterval{100};

// A writer's side of the commit lock, kept for the writer's life; not
// shared between threads.
class CommitGate {
 public:
  // `cancel`, if not null, stops waiting: the commits of a run told to end
  // go on at once. `limit` is kSnapshotHoldLimit but in tests.
  CommitGate(std::string db_path, const std::atomic<bool>* cancel,
             LockWait limit = kSnapshotHoldLimit);

  // The lock for one commit: waits for the snapshots holding it up to the
  // limit, then goes on without it (held() is false). Once it
  // has passed them over, it does not wait for them again: later commits
  // take the lock when it is free and otherwise go on, until they find it
  // free once.
  CommitLock enter();

 private:
  std::string db_path_;
  const std::atomic<bool>* cancel_;
  LockWait limit_;
  bool passed_over_ = false;
};

// The files IndexLock and CommitLock lock for the index at `db_path`, in
// its folder; hidden, so that a snapshot leaves them out.
std::string index_lock_path(const std::string& db_path);
std::string commit_lock_path(const std::string& db_path);

// Whether `name` is that of one of those files.
bool is_lock_file(const std::string& name);

// The message of IndexLockedError, the same for both locks.
std::string locked_message(const std::string& db_path);

}  // namespace quarry::detail

#endif  // QUARRY_LIB_INDEX_INDEX_LOCK_H_
