// What a live index watches, under pressure: files still being written
// when they are met (by the first scan, by a rescan after the kernel's
// queue overflowed, by another writer's close), a watched folder replaced,
// a watched file replaced by a link to outside, files renamed before they
// are read. Each situation is made by the test itself — a file it holds
// open, a loop it holds in an observer's call while it floods the queue —
// and every wait is for something a reader can see, bounded.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

#include "quarry/error.h"
#include "quarry/index/live_index.h"
#include "quarry/search/searcher.h"
#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

// Records every article upserted (by the initial run, told one by one, and
// by each commit) and every problem; can hold the live index's loop in its
// next on_commit until released.
class RecordingObserver : public LiveObserver {
 public:
  void on_upserted(const std::string& id, Upsert done) override {
    if (done != Upsert::kUnchanged) record(id);
  }
  void on_problem(const ReadProblem& problem) override {
    std::lock_guard lock(mutex_);
    problems_.push_back(problem.where.path + ": " + problem.reason);
  }
  void on_ready(const IndexReport& /*initial*/) override {
    std::lock_guard lock(mutex_);
    ready_ = true;
  }
  void on_commit(const LiveCommit& committed) override {
    for (const std::string& id : committed.upserted_ids) record(id);
    std::unique_lock lock(mutex_);
    if (!hold_) return;
    held_ = true;
    changed_.notify_all();
    changed_.wait(lock, [&] { return !hold_; });
    held_ = false;
  }

  // The next commit waits in on_commit until release(); waits for it.
  bool hold_next_commit(const std::function<void()>& make_commit) {
    {
      std::lock_guard lock(mutex_);
      hold_ = true;
    }
    make_commit();
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, testing::time_allowed(std::chrono::seconds(10)),
                             [&] { return held_; });
  }
  void release() {
    std::lock_guard lock(mutex_);
    hold_ = false;
    changed_.notify_all();
  }

  bool ready() {
    std::lock_guard lock(mutex_);
    return ready_;
  }
  std::size_t upserts_of(const std::string& id) {
    std::lock_guard lock(mutex_);
    return static_cast<std::size_t>(std::count(upserted_.begin(), upserted_.end(), id));
  }
  std::vector<std::string> problems() {
    std::lock_guard lock(mutex_);
    return problems_;
  }

 private:
  void record(const std::string& id) {
    std::lock_guard lock(mutex_);
    upserted_.push_back(id);
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  bool hold_ = false;
  bool held_ = false;
  bool ready_ = false;
  std::vector<std::string> upserted_;
  std::vector<std::string> problems_;
};

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// run_live_index over `paths` on a thread of its own, ended by the
// destructor (or stop()) as a signal would end it.
class LiveRun {
 public:
  LiveRun(const fs::path& db, const std::vector<fs::path>& paths, RecordingObserver& observer) {
    if (pipe2(wake_, O_CLOEXEC) != 0) throw std::runtime_error("pipe2");
    config_.index.db_path = db.string();
    config_.index.cancel = &cancel_;
    for (const fs::path& path : paths) config_.paths.push_back(path.string());
    config_.commit_interval = std::chrono::duration<double>(0.05);
    config_.wake_fd = wake_[0];
    thread_ = std::thread([this, &observer] {
      try {
        report_ = run_live_index(config_, &observer);
      } catch (const Error& error) {
        failure_ = error.what();
      }
    });
  }
  ~LiveRun() {
    stop();
    close(wake_[0]);
    close(wake_[1]);
  }
  // Ends the run; its report.
  const IndexReport& stop() {
    if (thread_.joinable()) {
      cancel_ = true;
      if (write(wake_[1], "", 1) != 1) std::abort();
      thread_.join();
    }
    return report_;
  }
  const std::string& failure() const { return failure_; }

 private:
  int wake_[2] = {-1, -1};
  std::atomic<bool> cancel_{false};
  LiveConfig config_;
  IndexReport report_;
  std::string failure_;
  std::thread thread_;
};

constexpr char kHalf[] = "Title: A slow article\n\nThe first half of an article about zebras";
constexpr char kRest[] = ", and the second half about giraffes.";

// A new file at `path` holding the first half of an article, still open
// for writing.
std::ofstream half_written(const fs::path& path) {
  std::ofstream file(path, std::ios::binary);
  file << kHalf;
  file.flush();
  return file;
}

class LiveWatchTest : public ::testing::Test {
 protected:
  std::size_t count(const std::string& query) const { return matches(db_, query); }
  bool found(const std::string& id) const {
    return eventually([&] { return count(id_query(id)) == 1; });
  }
  bool gone(const std::string& id) const {
    return eventually([&] { return count(id_query(id)) == 0; });
  }
  // The file is whole in the index.
  void expect_indexed_whole(RecordingObserver& observer, const std::string& id) {
    ASSERT_TRUE(eventually([&] { return count("zebras giraffes") == 1; }))
        << joined(observer.problems());
    EXPECT_EQ(count(id_query(id)), 1u);
  }

  // Starts a live run over the inbox and waits until its first scan is over.
  void start_watching() {
    run_ = std::make_unique<LiveRun>(db_, std::vector<fs::path>{inbox_}, observer_);
    ASSERT_TRUE(eventually([&] { return observer_.ready(); })) << run_->failure();
  }

  // Writes marker.txt and, once it is indexed, expects slow.txt passed
  // over: changes are taken in order, so the close before the marker was
  // handled.
  void expect_slow_file_passed_over() {
    write_file(inbox_ / "marker.txt", "An article that marks the close handled.");
    ASSERT_TRUE(found("marker.txt")) << joined(observer_.problems());
    EXPECT_EQ(count(id_query("slow.txt")), 0u);
  }

  // Writes the rest of the half-written slow.txt and closes it; expects it
  // read whole, and told once, by a run that skipped nothing.
  void finish_slow_file(std::ofstream& slow) {
    slow << kRest;
    slow.close();
    expect_indexed_whole(observer_, "slow.txt");
    EXPECT_EQ(run_->stop().skipped, 0u);
    EXPECT_EQ(observer_.upserts_of("slow.txt"), 1u);
  }

  TempDir dir_;
  fs::path db_ = dir_ / "index";
  fs::path inbox_ = dir_ / "inbox";
  // Before run_, which calls it until it is destroyed.
  RecordingObserver observer_;
  std::unique_ptr<LiveRun> run_;
};

// A watcher started while a file is being written passes it over, keeping
// the article it held before, and reads it once it is closed.
TEST_F(LiveWatchTest, TheFirstScanPassesOverAFileStillBeingWritten) {
  write_file(inbox_ / "first.txt", "An article about milk.");
  write_file(inbox_ / "slow.txt", "Title: Before\n\nThe article as it was, about penguins.");
  IndexConfig plain;
  plain.db_path = db_.string();
  index_paths(plain, {inbox_.string()});
  ASSERT_EQ(count("penguins"), 1u);

  std::ofstream slow = half_written(inbox_ / "slow.txt");
  ASSERT_NO_FATAL_FAILURE(start_watching());
  EXPECT_EQ(count("zebras"), 0u);
  EXPECT_EQ(count("penguins"), 1u);

  slow << kRest;
  slow.close();
  expect_indexed_whole(observer_, "slow.txt");
  EXPECT_EQ(count("penguins"), 0u);
  const IndexReport& report = run_->stop();
  EXPECT_EQ(observer_.upserts_of("slow.txt"), 1u);
  EXPECT_EQ(report.skipped, 0u);
  EXPECT_EQ(report.deleted, 0u);
  EXPECT_TRUE(observer_.problems().empty()) << joined(observer_.problems());
}

// The most events the kernel queues for one inotify instance.
std::size_t max_queued_events() {
  std::ifstream limit("/proc/sys/fs/inotify/max_queued_events");
  std::size_t count = 0;
  limit >> count;
  return count;
}

// Makes more changes in `folder` than the kernel queues: closes after
// writing of two hidden files in turn (the kernel merges a change with the
// same one before it).
void overflow_queue(const fs::path& folder) {
  const std::size_t events = max_queued_events() + 64;
  const std::string names[] = {(folder / ".noise-a").string(), (folder / ".noise-b").string()};
  for (std::size_t i = 0; i < events; ++i) {
    const int fd = open(names[i % 2].c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0);
    close(fd);
  }
}

// The folder is read again after the kernel's queue overflowed; a file
// still being written then is passed over, and read once closed.
TEST_F(LiveWatchTest, ARescanAfterAnOverflowPassesOverAFileStillBeingWritten) {
  if (max_queued_events() == 0 || max_queued_events() > (1u << 20)) {
    GTEST_SKIP() << "fs.inotify.max_queued_events is too large to overflow here";
  }
  write_file(inbox_ / "first.txt", "An article about milk.");
  ASSERT_NO_FATAL_FAILURE(start_watching());

  // The loop waits in a commit while the queue fills and overflows.
  ASSERT_TRUE(observer_.hold_next_commit(
      [&] { write_file(inbox_ / "trigger.txt", "An article that makes a commit."); }));
  std::ofstream slow = half_written(inbox_ / "slow.txt");
  overflow_queue(inbox_);
  // Its change is lost with the queue's: only the rescan finds it.
  write_file(inbox_ / "marker.txt", "An article only a rescan finds.");
  observer_.release();
  ASSERT_TRUE(found("marker.txt")) << joined(observer_.problems());
  EXPECT_EQ(count(id_query("slow.txt")), 0u);

  finish_slow_file(slow);
  EXPECT_TRUE(observer_.problems().empty()) << joined(observer_.problems());
}

// Another writer's open and close of a file (`: >> slow.txt`) while it is
// still being written does not have it read half.
TEST_F(LiveWatchTest, AnotherWritersCloseDoesNotTakeAFileStillBeingWritten) {
  write_file(inbox_ / "first.txt", "An article about milk.");
  ASSERT_NO_FATAL_FAILURE(start_watching());

  std::ofstream slow = half_written(inbox_ / "slow.txt");
  { std::ofstream touched(inbox_ / "slow.txt", std::ios::binary | std::ios::app); }
  ASSERT_NO_FATAL_FAILURE(expect_slow_file_passed_over());

  finish_slow_file(slow);
  EXPECT_TRUE(observer_.problems().empty()) << joined(observer_.problems());
}

// A file whose close is told while another writer still holds it, and
// whose last writer's close is told elsewhere (it wrote through a link in
// another folder) or told before the kernel counts that writer gone, is
// looked at again until no one writes it, and read then.
TEST_F(LiveWatchTest, AFileWhoseLastCloseIsNotToldIsReadOnceNoOneWritesIt) {
  write_file(inbox_ / "first.txt", "An article about milk.");
  ASSERT_NO_FATAL_FAILURE(start_watching());

  const fs::path outside = dir_ / "outside";
  fs::create_directories(outside);
  std::ofstream slow = half_written(outside / "slow.txt");
  fs::create_hard_link(outside / "slow.txt", inbox_ / "slow.txt");
  { std::ofstream touched(inbox_ / "slow.txt", std::ios::binary | std::ios::app); }
  ASSERT_NO_FATAL_FAILURE(expect_slow_file_passed_over());

  // Closed through the other folder's name: no close is told in the inbox.
  finish_slow_file(slow);
}

// A file renamed, and renamed again, before the watcher reads it is read
// under its last name: the names it had are no problem.
TEST_F(LiveWatchTest, AFileRenamedBeforeItIsReadIsNoProblem) {
  write_file(inbox_ / "first.txt", "An article about milk.");
  ASSERT_NO_FATAL_FAILURE(start_watching());

  ASSERT_TRUE(observer_.hold_next_commit(
      [&] { write_file(inbox_ / "trigger.txt", "An article that makes a commit."); }));
  write_file(inbox_ / "a.txt", "An article renamed twice, about walruses.");
  fs::rename(inbox_ / "a.txt", inbox_ / "b.txt");
  fs::rename(inbox_ / "b.txt", inbox_ / "c.txt");
  observer_.release();
  ASSERT_TRUE(found("c.txt")) << joined(observer_.problems());
  EXPECT_EQ(count("walruses"), 1u);
  EXPECT_EQ(run_->stop().skipped, 0u);
  EXPECT_TRUE(observer_.problems().empty()) << joined(observer_.problems());
}

// A plain run, which no close will call back, reads what a file holds
// though it is still being written.
TEST_F(LiveWatchTest, APlainRunReadsAFileStillBeingWritten) {
  fs::create_directories(inbox_);
  std::ofstream slow = half_written(inbox_ / "slow.txt");
  IndexConfig plain;
  plain.db_path = db_.string();
  const IndexReport report = index_paths(plain, {inbox_.string()});
  EXPECT_EQ(report.added, 1u);
  EXPECT_EQ(count("zebras"), 1u);
}

// quarry-index --watch over the test's inputs.
std::unique_ptr<ChildProcess> watch(const TempDir& dir, const fs::path& db,
                                    const std::vector<fs::path>& inputs) {
  return std::make_unique<ChildProcess>(
      QUARRY_INDEX_BIN, testing::index_args(db, inputs, {"--watch", "--commit-interval", "0.2"}),
      dir.path());
}

std::optional<int> stop(ChildProcess& child) {
  child.signal(SIGTERM);
  return child.wait(std::chrono::seconds(60));
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

// A watched folder moved away or deleted, and made again, is followed by
// its name, as `tail -F` follows a file: the new folder is watched and
// read, the old one is no longer.
TEST_F(LiveWatchTest, AReplacedWatchedFolderIsFollowedByName) {
  write_file(inbox_ / "first.txt", "An article about milk.");
  write_file(inbox_ / "kept.txt", "An article about cheese.");
  auto watcher = watch(dir_, db_, {inbox_});
  ASSERT_TRUE(found("first.txt")) << watcher->err();

  fs::rename(inbox_, dir_ / "inbox.old");
  write_file(dir_ / "inbox.old" / "stray.txt", "An article left in the old folder.");
  fs::create_directories(inbox_);
  write_file(inbox_ / "kept.txt", "An article about cheese.");
  write_file(inbox_ / "new.txt", "An article in the new folder about butter.");
  ASSERT_TRUE(found("new.txt")) << watcher->err();
  EXPECT_TRUE(gone("first.txt")) << watcher->err();
  EXPECT_EQ(count(id_query("kept.txt")), 1u);
  EXPECT_EQ(count(id_query("stray.txt")), 0u);
  write_file(dir_ / "inbox.old" / "stray2.txt", "Another article left in the old folder.");

  fs::remove_all(inbox_);
  fs::create_directories(inbox_);
  write_file(inbox_ / "third.txt", "An article in the third folder about yogurt.");
  ASSERT_TRUE(found("third.txt")) << watcher->err();
  EXPECT_TRUE(gone("new.txt")) << watcher->err();
  EXPECT_EQ(count(id_query("stray2.txt")), 0u);

  EXPECT_EQ(stop(*watcher), 0) << watcher->err();
  EXPECT_EQ(occurrences(watcher->err(), "moved away or deleted"), 2u) << watcher->err();
  EXPECT_EQ(watcher->err().find("skipped"), std::string::npos) << watcher->err();
}

// A watched file, given alone or in a folder, replaced by a link to a file
// outside the folders given loses its article, and that is said; what the
// link leads to is not read.
TEST_F(LiveWatchTest, AWatchedFileReplacedByALinkToOutsideLosesItsArticle) {
  const fs::path note = dir_ / "desk" / "note.txt";
  write_file(note, "A note about milk.");
  write_file(inbox_ / "a.txt", "An article about cheese.");
  write_file(dir_ / "private" / "secret.txt", "A secret about passwords.");
  auto watcher = watch(dir_, db_, {inbox_, note});
  ASSERT_TRUE(found("note.txt")) << watcher->err();
  ASSERT_TRUE(found("a.txt")) << watcher->err();

  for (const fs::path& replaced : {note, inbox_ / "a.txt"}) {
    const fs::path link = replaced.parent_path() / ".link";
    fs::create_symlink(dir_ / "private" / "secret.txt", link);
    fs::rename(link, replaced);
  }
  EXPECT_TRUE(gone("note.txt")) << watcher->err();
  EXPECT_TRUE(gone("a.txt")) << watcher->err();
  EXPECT_EQ(count("passwords"), 0u);
  EXPECT_EQ(stop(*watcher), 3) << watcher->err();
  EXPECT_EQ(occurrences(watcher->err(), "a link to outside the folders given"), 2u)
      << watcher->err();
}

}  // namespace
}  // namespace quarry::testing
