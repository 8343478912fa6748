// quarry-index --watch and quarry-index -: a live index, run as the real
// program, and run_live_index's observer in process. Every wait is for
// something a reader can see (an article found, an exit), bounded.
#include "quarry/index/live_index.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

#include "quarry/error.h"
#include "quarry/search/searcher.h"
#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

std::string jsonl_line(const std::string& id, const std::string& body) {
  return R"({"id": ")" + id + R"(", "title": ")" + id + R"(", "body": ")" + body + "\"}\n";
}

// Appends `text` to the file at `path`, closing it after.
void append(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::app | std::ios::binary);
  out << text;
}

// A watcher of the test's inputs, and what it indexes into.
class LiveIndexTest : public ::testing::Test {
 protected:
  // quarry-index --watch over `inputs`, committing every fifth of a second.
  std::unique_ptr<ChildProcess> watch(const std::vector<fs::path>& inputs,
                                      ChildOptions options = {}) {
    return start({"--watch", "--commit-interval", "0.2"}, inputs, std::move(options));
  }
  std::unique_ptr<ChildProcess> start(const std::vector<std::string>& flags,
                                      const std::vector<fs::path>& inputs,
                                      ChildOptions options = {}) {
    return std::make_unique<ChildProcess>(QUARRY_INDEX_BIN, testing::index_args(db_, inputs, flags),
                                          dir_.path(), std::move(options));
  }
  std::size_t count(const std::string& query) const { return matches(db_, query); }
  bool found(const std::string& id) const {
    return eventually([&] { return count(id_query(id)) == 1; });
  }
  bool gone(const std::string& id) const {
    return eventually([&] { return count(id_query(id)) == 0; });
  }
  // Ends a watcher as a service manager does; its exit code.
  static std::optional<int> stop(ChildProcess& child) {
    child.signal(SIGTERM);
    return child.wait(std::chrono::seconds(60));
  }

  TempDir dir_;
  fs::path db_ = dir_ / "index";
  fs::path inbox_ = dir_ / "inbox";
};

// A file written slowly is not indexed while it is open, however long
// that takes and whatever is committed meanwhile; closed, it is indexed
// once, whole.
TEST_F(LiveIndexTest, AFileIsIndexedOnlyOnceClosedAfterWriting) {
  write_file(inbox_ / "first.txt", "An article about the first milk of spring.");
  auto watcher = watch({inbox_});
  ASSERT_TRUE(found("first.txt")) << watcher->err();

  std::ofstream slow(inbox_ / "slow.txt", std::ios::binary);
  slow << "Title: A slow article\n\nThe first half of an article about";
  slow.flush();
  // Another file landing is committed: the half-written one came before it
  // and is still left out.
  write_file(inbox_ / "marker.txt", "An article that marks a commit.");
  ASSERT_TRUE(found("marker.txt")) << watcher->err();
  EXPECT_EQ(count(id_query("slow.txt")), 0u);
  slow << " zebras, and the second half about giraffes.";
  slow.flush();
  write_file(inbox_ / "marker2.txt", "Another article that marks a commit.");
  ASSERT_TRUE(found("marker2.txt")) << watcher->err();
  EXPECT_EQ(count(id_query("slow.txt")), 0u);

  slow.close();
  ASSERT_TRUE(found("slow.txt")) << watcher->err();
  EXPECT_EQ(count("zebras giraffes"), 1u);
  EXPECT_EQ(count("title:slow"), 1u);
  EXPECT_EQ(stop(*watcher), 0) << watcher->err();
}

// A folder moved in, or made, is read whole, but a file in it that is
// still being written is left until it is closed: never indexed half, nor
// reported empty.
TEST_F(LiveIndexTest, AFileStillBeingWrittenInAFolderMovedInIsTakenOnceClosed) {
  write_file(inbox_ / "first.txt", "An article about the first milk of spring.");
  auto watcher = watch({inbox_});
  ASSERT_TRUE(found("first.txt")) << watcher->err();

  const fs::path outside = dir_ / "outside" / "desk";
  fs::create_directories(outside);
  std::ofstream slow(outside / "slow.txt", std::ios::binary);
  slow << "Title: A slow article\n\nThe first half of an article about";
  slow.flush();
  write_file(outside / "marker.txt", "An article that marks the folder read.");
  fs::rename(outside, inbox_ / "desk");
  ASSERT_TRUE(found("desk/marker.txt")) << watcher->err();
  EXPECT_EQ(count(id_query("desk/slow.txt")), 0u);

  slow << " zebras, and the second half about giraffes.";
  slow.close();
  ASSERT_TRUE(found("desk/slow.txt")) << watcher->err();
  EXPECT_EQ(count("zebras giraffes"), 1u);
  EXPECT_EQ(stop(*watcher), 0) << watcher->err();
  EXPECT_EQ(watcher->err().find("skipped"), std::string::npos) << watcher->err();
}

// Files moved in from elsewhere, folders made or moved in later, at any
// depth, and deletions and moves out are all followed.
TEST_F(LiveIndexTest, FollowsFilesAndFoldersMovedInMadeAndDeleted) {
  write_file(inbox_ / "first.txt", "An article about milk.");
  write_file(dir_ / "outside" / "moved.txt", "An article moved in about cheese.");
  write_file(dir_ / "outside" / "folder" / "inner.txt", "An article of a folder about butter.");
  auto watcher = watch({inbox_});
  ASSERT_TRUE(found("first.txt")) << watcher->err();

  fs::rename(dir_ / "outside" / "moved.txt", inbox_ / "moved.txt");
  EXPECT_TRUE(found("moved.txt")) << watcher->err();

  fs::create_directories(inbox_ / "later" / "deeper");
  write_file(inbox_ / "later" / "deeper" / "new.txt", "An article in a new folder about yogurt.");
  EXPECT_TRUE(found("later/deeper/new.txt")) << watcher->err();

  fs::rename(dir_ / "outside" / "folder", inbox_ / "folder");
  EXPECT_TRUE(found("folder/inner.txt")) << watcher->err();
  write_file(inbox_ / "folder" / "second.txt", "A second article in the folder moved in.");
  EXPECT_TRUE(found("folder/second.txt")) << watcher->err();

  fs::remove(inbox_ / "first.txt");
  EXPECT_TRUE(gone("first.txt")) << watcher->err();
  fs::rename(inbox_ / "moved.txt", dir_ / "outside" / "moved.txt");
  EXPECT_TRUE(gone("moved.txt")) << watcher->err();
  fs::rename(inbox_ / "folder", dir_ / "outside" / "folder");
  EXPECT_TRUE(gone("folder/inner.txt")) << watcher->err();
  EXPECT_TRUE(gone("folder/second.txt")) << watcher->err();

  EXPECT_EQ(count("milk OR cheese OR yogurt OR butter OR folder"), 1u);
  EXPECT_EQ(stop(*watcher), 0) << watcher->err();
}

// Lines appended to a corpus are indexed as each ends; the corpus is
// followed through truncation and rotation, and neither deletes an
// article.
TEST_F(LiveIndexTest, FollowsACorpusThroughPiecesTruncationAndRotation) {
  const fs::path feed = dir_ / "feed.jsonl";
  write_file(feed, jsonl_line("a", "the first line about milk"));
  write_file(inbox_ / "first.txt", "An article about spring.");
  auto watcher = watch({feed, inbox_});
  ASSERT_TRUE(found("a")) << watcher->err();

  const std::string b = jsonl_line("b", "the second line about cheese");
  append(feed, b.substr(0, b.size() / 2));
  write_file(inbox_ / "marker.txt", "An article that marks a commit.");
  ASSERT_TRUE(found("marker.txt")) << watcher->err();
  EXPECT_EQ(count(id_query("b")), 0u);
  append(feed, b.substr(b.size() / 2));
  EXPECT_TRUE(found("b")) << watcher->err();
  EXPECT_EQ(count("cheese"), 1u);

  // Truncated: read again from the start.
  fs::resize_file(feed, 0);
  append(feed, jsonl_line("c", "the line after truncation about butter"));
  EXPECT_TRUE(found("c")) << watcher->err();

  // Rotated: what the old file got is read, then the new one.
  fs::rename(feed, dir_ / "feed.jsonl.1");
  append(dir_ / "feed.jsonl.1", jsonl_line("d", "the last line of the old file about cream"));
  append(feed, jsonl_line("e", "the first line of the new file about yogurt"));
  EXPECT_TRUE(found("e")) << watcher->err();
  EXPECT_TRUE(found("d")) << watcher->err();
  append(feed, jsonl_line("f", "the second line of the new file about whey"));
  EXPECT_TRUE(found("f")) << watcher->err();

  for (const std::string id : {"a", "b", "c"}) EXPECT_EQ(count(id_query(id)), 1u) << id;
  EXPECT_EQ(Searcher(db_.string()).article_count(), 8u);
  EXPECT_EQ(stop(*watcher), 0) << watcher->err();
}

// A Searcher left open, as quarry serve and the prompt keep theirs, finds
// what the watcher commits after it was opened.
TEST_F(LiveIndexTest, AnOpenSearcherSeesTheWatchersCommits) {
  write_file(inbox_ / "first.txt", "An article about milk.");
  auto watcher = watch({inbox_});
  ASSERT_TRUE(found("first.txt")) << watcher->err();
  Searcher searcher(db_.string());
  EXPECT_EQ(searcher.search("zebras").total, 0u);
  write_file(inbox_ / "later.txt", "An article about zebras.");
  EXPECT_TRUE(eventually([&] { return searcher.search("zebras").total == 1; }));
  EXPECT_EQ(stop(*watcher), 0) << watcher->err();
}

// The watcher holds the index's lock from its first run on: another run is
// refused as it is while any run works.
TEST_F(LiveIndexTest, ASecondRunIsRefusedWhileWatching) {
  write_file(inbox_ / "first.txt", "An article about milk.");
  auto watcher = watch({inbox_});
  ASSERT_TRUE(found("first.txt")) << watcher->err();
  const testing::RunResult second =
      testing::run_program(QUARRY_INDEX_BIN, testing::index_args(db_, {inbox_}));
  EXPECT_EQ(second.exit_code, 1);
  EXPECT_NE(second.err.find("is locked by another quarry-index"), std::string::npos) << second.err;
  EXPECT_EQ(stop(*watcher), 0) << watcher->err();
}

// Whether `pid` sleeps in poll(), as the live index does between inputs.
bool sleeps_in_poll(pid_t pid) {
  std::ifstream syscall_file("/proc/" + std::to_string(pid) + "/syscall");
  long number = -1;
  if (!(syscall_file >> number)) return false;
  bool polling = number == SYS_ppoll;
#ifdef SYS_poll
  polling = polling || number == SYS_poll;
#endif
  return polling;
}

// How many bytes wait in the pipe whose writing end is `fd`.
int unread_bytes(int fd) {
  int count = -1;
  return ioctl(fd, FIONREAD, &count) == 0 ? count : -1;
}

// Waits until the program `child` has read all that was written to its
// standard input and sleeps again, waiting for more.
bool read_all_written(const ChildProcess& child) {
  // /proc/PID/fd/0 is the pipe; its unread bytes are the test's to count.
  const int pipe_end = open(("/proc/" + std::to_string(child.pid()) + "/fd/0").c_str(),
                            O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (pipe_end < 0) return false;
  const bool read =
      eventually([&] { return unread_bytes(pipe_end) == 0 && sleeps_in_poll(child.pid()); });
  close(pipe_end);
  return read;
}

// quarry-index - indexes lines as they come through a pipe, before it
// closes, and exits 0 at its end.
TEST_F(LiveIndexTest, StandardInputIsIndexedAsItArrives) {
  ChildOptions options;
  options.pipe_in = true;
  auto reader = start({"--commit-interval", "0.2"}, {"-"}, options);
  ASSERT_TRUE(reader->write_in(jsonl_line("one", "the first article about milk") +
                               jsonl_line("two", "the second article about cheese")));
  EXPECT_TRUE(found("one")) << reader->err();
  EXPECT_TRUE(found("two")) << reader->err();
  EXPECT_TRUE(reader->running());
  const std::string three = jsonl_line("three", "the third article about butter");
  // Half a line is read, and waits for its end.
  ASSERT_TRUE(reader->write_in(three.substr(0, 10)));
  ASSERT_TRUE(read_all_written(*reader));
  ASSERT_TRUE(reader->write_in(three.substr(10)));
  EXPECT_TRUE(found("three")) << reader->err();
  reader->close_in();
  EXPECT_EQ(reader->wait(std::chrono::seconds(60)), 0) << reader->err();
  EXPECT_EQ(reader->err(), "");
}

// A bad line is named by its line number and skipped; the stream goes on,
// and the run exits 3, as a run that skipped something does.
TEST_F(LiveIndexTest, ABadLineOfStandardInputIsNamedAndSkipped) {
  ChildOptions options;
  options.pipe_in = true;
  auto reader = start({"--commit-interval", "0.2"}, {"-"}, options);
  ASSERT_TRUE(reader->write_in(jsonl_line("one", "about milk") + "{not json\n" +
                               jsonl_line("three", "about butter")));
  EXPECT_TRUE(found("three")) << reader->err();
  reader->close_in();
  EXPECT_EQ(reader->wait(std::chrono::seconds(60)), 3) << reader->err();
  EXPECT_EQ(count(id_query("one")), 1u);
  EXPECT_NE(testing::line_naming(reader->err(), "stdin:2"), "") << reader->err();
}

// SIGTERM commits what was read, though the commit interval is far off,
// and exits 0.
TEST_F(LiveIndexTest, SigtermCommitsWhatWasReadAndExits0) {
  ChildOptions options;
  options.pipe_in = true;
  auto reader = start({"--commit-interval", "3600"}, {"-"}, options);
  // The first article is committed at once, the next not for an hour.
  ASSERT_TRUE(reader->write_in(jsonl_line("one", "about milk")));
  ASSERT_TRUE(found("one")) << reader->err();
  ASSERT_TRUE(reader->write_in(jsonl_line("two", "about cheese")));
  // Read, and back asleep: its article is written, waiting for a commit.
  ASSERT_TRUE(read_all_written(*reader));
  EXPECT_EQ(count(id_query("two")), 0u);
  EXPECT_EQ(stop(*reader), 0) << reader->err();
  EXPECT_EQ(count(id_query("two")), 1u);
}

// What the observer is told, in process: the ids each commit upserts and
// deletes, and a note written before a commit is kept with it.
class RecordingObserver : public LiveObserver {
 public:
  void before_commit(IndexWriter& writer, const LiveCommit& pending) override {
    writer.set_note("last", std::to_string(pending.number));
  }
  void on_commit(const LiveCommit& committed) override {
    std::lock_guard lock(mutex);
    commits.push_back(committed);
  }
  std::vector<LiveCommit> taken() {
    std::lock_guard lock(mutex);
    return commits;
  }
  std::mutex mutex;
  std::vector<LiveCommit> commits;
};

TEST(LiveIndex, TellsTheObserverWhatEachCommitUpsertsAndDeletes) {
  TempDir dir;
  write_file(dir / "inbox" / "first.txt", "An article about milk.");
  write_file(dir / "inbox" / "second.txt", "An article about cheese.");
  int wake[2];
  ASSERT_EQ(pipe2(wake, O_CLOEXEC), 0);
  std::atomic<bool> cancel{false};
  LiveConfig config;
  config.index.db_path = (dir / "index").string();
  config.index.cancel = &cancel;
  config.paths = {(dir / "inbox").string()};
  config.commit_interval = std::chrono::duration<double>(0.05);
  config.wake_fd = wake[0];
  RecordingObserver observer;
  IndexReport report;
  std::thread run([&] { report = run_live_index(config, &observer); });
  ASSERT_TRUE(eventually([&] { return matches(dir / "index", "milk") == 1; }));

  write_file(dir / "inbox" / "third.txt", "An article about butter.");
  ASSERT_TRUE(eventually([&] { return observer.taken().size() == 1; }));
  // Unchanged, it is no upsert.
  write_file(dir / "inbox" / "second.txt", "An article about cheese.");
  write_file(dir / "inbox" / "first.txt", "An article about milk and cream.");
  fs::remove(dir / "inbox" / "third.txt");
  ASSERT_TRUE(eventually([&] {
    std::size_t deleted = 0;
    for (const LiveCommit& commit : observer.taken()) deleted += commit.deleted_ids.size();
    return deleted == 1;
  }));
  cancel = true;
  ASSERT_EQ(write(wake[1], "", 1), 1);
  run.join();
  close(wake[0]);
  close(wake[1]);

  std::vector<std::string> upserted, deleted;
  for (const LiveCommit& commit : observer.commits) {
    upserted.insert(upserted.end(), commit.upserted_ids.begin(), commit.upserted_ids.end());
    deleted.insert(deleted.end(), commit.deleted_ids.begin(), commit.deleted_ids.end());
  }
  EXPECT_EQ(observer.commits.front().upserted_ids, std::vector<std::string>{"third.txt"});
  EXPECT_EQ(observer.commits.front().added, 1u);
  EXPECT_EQ(upserted, (std::vector<std::string>{"third.txt", "first.txt"}));
  EXPECT_EQ(deleted, std::vector<std::string>{"third.txt"});
  EXPECT_EQ(report.added, 3u);
  EXPECT_EQ(report.deleted, 1u);
  EXPECT_TRUE(report.cancelled);
  IndexConfig reopen;
  reopen.db_path = config.index.db_path;
  EXPECT_EQ(IndexWriter(reopen).note("last"), std::to_string(observer.commits.size()));
}

// A saved search alerts on each article the watcher indexes that it
// matches, once, as `quarry alerts` reads it; an article it does not match
// and one that was there before the search was saved make none.
TEST_F(LiveIndexTest, ASavedSearchAlertsOnEachNewArticleItMatches) {
  write_file(inbox_ / "before.txt", "Title: Old\n\nOPEC raised its quota last year.");
  {
    ChildProcess first(QUARRY_INDEX_BIN, testing::index_args(db_, {inbox_}), dir_.path());
    ASSERT_EQ(first.wait(), 0) << first.err();
  }
  const testing::RunResult saved = testing::run_program(
      QUARRY_BIN, {"alert", "add", "--db", db_.string(), "opec", "OPEC", "quota"});
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  auto watcher = watch({inbox_});
  write_file(inbox_ / "cut.txt", "Title: Cut\n\nOPEC agreed a lower quota on Monday.");
  write_file(inbox_ / "other.txt", "Title: Rain\n\nRain fell on Monday.");
  ASSERT_TRUE(found("other.txt")) << watcher->err();
  auto alerts = [&] {
    return testing::run_program(QUARRY_BIN, {"alerts", "--db", db_.string()}).out;
  };
  ASSERT_TRUE(eventually([&] { return !alerts().empty(); })) << watcher->err();
  EXPECT_EQ(stop(*watcher), 0) << watcher->err();
  const std::vector<std::string> lines = testing::lines_of(alerts());
  ASSERT_EQ(lines.size(), 1u) << alerts();
  EXPECT_NE(lines[0].find(R"("alert":"opec","id":"cut.txt","title":"Cut")"), std::string::npos)
      << lines[0];
}

}  // namespace
}  // namespace quarry::testing
