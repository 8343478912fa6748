// Faults while indexing and searching: the process killed at any moment, a
// full disk, a read-only index, a second indexer, searches during updates.
// In each case nothing committed is lost and a plain re-run completes.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "quarry/error.h"
#include "quarry/search/searcher.h"
#include "tests/child_process.h"
#include "tests/fault_util.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

std::vector<std::string> ids(const std::string& prefix, std::size_t count) {
  std::vector<std::string> all;
  for (std::size_t i = 0; i < count; ++i) all.push_back(prefix + std::to_string(i));
  return all;
}

std::vector<std::string> index_args(const fs::path& db, const std::vector<fs::path>& inputs,
                                    std::vector<std::string> options = {}) {
  std::vector<std::string> args{"--db", db.string(), "--quiet"};
  args.insert(args.end(), options.begin(), options.end());
  for (const fs::path& input : inputs) args.push_back(input.string());
  return args;
}

// dir/index, built by quarry-index from dir/first.jsonl (`first`
// articles) and followed by dir/`next_name` (`next` more), for the update
// each test then runs. Stops the test if the build fails.
void build_then_write_more(const TempDir& dir, std::size_t first, const std::string& next_name,
                           std::size_t next, const std::string& first_prefix,
                           const std::string& next_prefix) {
  write_file(dir / "first.jsonl", synthetic_corpus(first, 1, first_prefix));
  write_file(dir / next_name, synthetic_corpus(next, 2, next_prefix));
  ChildProcess build(QUARRY_INDEX_BIN, index_args(dir / "index", {dir / "first.jsonl"}),
                     dir.path());
  ASSERT_EQ(build.wait(), 0) << build.err();
}

bool has_line_starting(const std::string& text, const std::string& start) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(start)) return true;
  }
  return false;
}

// The checks made after every fault: if the index exists it opens, Xapian
// finds it consistent, it answers a search, and no article is in it twice.
void expect_sound(const fs::path& db, std::size_t most_articles) {
  if (!fs::exists(db) || fs::is_empty(db)) return;  // a first build not yet merged
  EXPECT_EQ(xapian_check(db), "");
  Searcher searcher(db.string());
  const std::size_t count = searcher.article_count();
  EXPECT_LE(count, most_articles);
  const SearchResult result = searcher.search("quarrystone");
  EXPECT_EQ(result.total, count);
  const std::string twice = index_discrepancies(db, {});
  // With no expected ids, only the document count (here, any) may differ.
  EXPECT_EQ(twice.find("stored article"), std::string::npos) << twice;
}

// Waits until `path` exists or the child ends; false if neither happens.
bool wait_for_path(const fs::path& path, ChildProcess& child, milliseconds patience) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  while (std::chrono::steady_clock::now() < deadline) {
    std::error_code ignored;
    if (fs::exists(path, ignored)) return true;
    if (!child.running()) return false;
    std::this_thread::sleep_for(milliseconds(2));
  }
  return false;
}

// The private folder of the build the child runs.
fs::path building_folder(const fs::path& db, const ChildProcess& child) {
  return db.string() + ".building-" + std::to_string(child.pid());
}

class KillTest : public ::testing::Test {
 protected:
  static constexpr std::size_t kArticles = 6000;
  static constexpr std::size_t kUpdates = 1500;

  void SetUp() override {
    seed_ = test_seed();
    std::cout << "seed " << seed_ << " (set QUARRY_TEST_SEED to replay)\n";
    RecordProperty("seed", std::to_string(seed_));
    write_file(corpus(), synthetic_corpus(kArticles, seed_, "a"));
    random_.seed(seed_);
  }

  fs::path db() const { return dir_ / "index"; }
  fs::path corpus() const { return dir_ / "corpus.jsonl"; }

  // Kills `args`' run after a random delay up to `most`, then checks.
  void kill_after_random_delay(const std::vector<std::string>& args, milliseconds most,
                               std::size_t most_articles) {
    ChildProcess child(QUARRY_INDEX_BIN, args, dir_.path());
    const milliseconds delay(std::uniform_int_distribution<long>(0, most.count())(random_));
    std::this_thread::sleep_for(delay);
    child.signal(SIGKILL);
    const std::optional<int> code = child.wait();
    ASSERT_TRUE(code.has_value());
    SCOPED_TRACE("killed after " + std::to_string(delay.count()) + " ms (exit " +
                 std::to_string(*code) + ")");
    expect_sound(db(), most_articles);
  }

  void expect_complete(const std::vector<std::string>& expected) {
    EXPECT_EQ(xapian_check(db()), "");
    EXPECT_EQ(index_discrepancies(db(), expected), "");
  }

  TempDir dir_;
  std::uint32_t seed_ = 0;
  std::mt19937 random_;
};

TEST_F(KillTest, KilledAnywhereLosesNothingAndARerunCompletes) {
  const std::vector<std::string> build = index_args(db(), {corpus()}, {"--commit-every", "1000"});

  // 1. The shard phase of a first build, at random moments.
  for (int round = 0; round < 3; ++round) {
    kill_after_random_delay(build, milliseconds(1500), kArticles);
  }

  // 2. The merge: killed once it has started, at a random moment in it.
  fs::remove_all(db());
  for (const auto& entry : fs::directory_iterator(dir_.path())) {
    if (entry.path().filename().string().starts_with("index.building-")) {
      fs::remove_all(entry.path());
    }
  }
  for (int round = 0; round < 3; ++round) {
    ChildProcess child(QUARRY_INDEX_BIN, build, dir_.path());
    if (wait_for_path(building_folder(db(), child) / "merged", child, milliseconds(120000))) {
      std::this_thread::sleep_for(
          milliseconds(std::uniform_int_distribution<long>(0, 400)(random_)));
    }
    child.signal(SIGKILL);
    ASSERT_TRUE(child.wait().has_value());
    expect_sound(db(), kArticles);
    if (fs::exists(db()) && !fs::is_empty(db())) break;  // merged before the kill
  }

  // 3. A re-run completes whatever was left.
  ChildProcess rerun(QUARRY_INDEX_BIN, build, dir_.path());
  ASSERT_EQ(rerun.wait(), 0) << rerun.err();
  expect_complete(ids("a", kArticles));

  // 4. Updates to the existing index: changed and new articles, killed at
  // random moments between and during commits.
  write_file(dir_ / "more.jsonl", synthetic_corpus(kUpdates, seed_ + 1, "b"));
  write_file(corpus(), synthetic_corpus(kArticles, seed_ + 2, "a"));
  const std::vector<std::string> update =
      index_args(db(), {corpus(), dir_ / "more.jsonl"}, {"--commit-every", "500"});
  for (int round = 0; round < 4; ++round) {
    kill_after_random_delay(update, milliseconds(3000), kArticles + kUpdates);
  }
  ChildProcess finish(QUARRY_INDEX_BIN, update, dir_.path());
  ASSERT_EQ(finish.wait(), 0) << finish.err();
  std::vector<std::string> all = ids("a", kArticles);
  const std::vector<std::string> more = ids("b", kUpdates);
  all.insert(all.end(), more.begin(), more.end());
  expect_complete(all);
}

// A corpus that takes long enough to index that a signal finds it working.
class SignalTest : public KillTest {};

TEST_F(SignalTest, SigtermAndSigintCommitWhatWasDoneAndSaySo) {
  for (const int number : {SIGTERM, SIGINT}) {
    for (const bool update : {false, true}) {
      SCOPED_TRACE(std::string(number == SIGTERM ? "SIGTERM" : "SIGINT") +
                   (update ? " while updating" : " while building"));
      fs::remove_all(db());
      if (update) {
        write_file(dir_ / "first.jsonl", synthetic_corpus(10, seed_, "f"));
        ChildProcess first(QUARRY_INDEX_BIN, index_args(db(), {dir_ / "first.jsonl"}), dir_.path());
        ASSERT_EQ(first.wait(), 0) << first.err();
      }
      const std::vector<std::string> args = index_args(db(), {corpus()}, {"--commit-every", "500"});
      ChildProcess child(QUARRY_INDEX_BIN, args, dir_.path());
      std::this_thread::sleep_for(milliseconds(700));
      child.signal(number);
      const std::optional<int> code = child.wait();
      ASSERT_TRUE(code.has_value());
      if (*code == 0) {
        GTEST_SKIP() << "the corpus was indexed before the signal arrived";
      }
      EXPECT_EQ(*code, 1) << child.err();
      EXPECT_TRUE(has_line_starting(child.err(),
                                    "quarry-index: interrupted; what was indexed "
                                    "is saved, run again to finish"))
          << child.err();
      EXPECT_EQ(xapian_check(db()), "");
      const std::size_t saved = Searcher(db().string()).article_count();
      EXPECT_GT(saved, update ? 10u : 0u);
      EXPECT_LT(saved, kArticles + (update ? 10 : 0));

      ChildProcess rerun(QUARRY_INDEX_BIN, args, dir_.path());
      ASSERT_EQ(rerun.wait(), 0) << rerun.err();
      std::vector<std::string> expected = ids("a", kArticles);
      if (update) {
        const std::vector<std::string> first = ids("f", 10);
        expected.insert(expected.end(), first.begin(), first.end());
      }
      EXPECT_EQ(index_discrepancies(db(), expected), "");
    }
  }
}

// 2. A full disk and a read-only index.

TEST(DiskFaultTest, FullDiskIsAClearErrorAndTheLastCommitStaysReadable) {
  TempDir dir;
  write_file(dir / "first.jsonl", synthetic_corpus(50, 1, "old"));
  write_file(dir / "big.jsonl", synthetic_corpus(4000, 2, "new"));
  const fs::path disk = dir / "disk";
  fs::create_directories(disk);
  const fs::path db = disk / "index";

  PrivateMounts mounts;
  ChildOptions options;
  if (mounts.mount_tmpfs(disk, 2 << 20)) {
    std::cout << "full disk: a 2 MiB tmpfs\n";
  } else {
    // Where nothing can be mounted, a file size limit makes writes fail as
    // a full disk does (EFBIG instead of ENOSPC).
    std::cout << "full disk: RLIMIT_FSIZE (" << mounts.reason() << ")\n";
    options.file_size_limit = 2 << 20;
  }
  RecordProperty("full_disk", options.file_size_limit ? "RLIMIT_FSIZE" : "tmpfs");

  ChildProcess first(QUARRY_INDEX_BIN, index_args(db, {dir / "first.jsonl"}), dir.path(), options);
  ASSERT_EQ(first.wait(), 0) << first.err();

  // An update that cannot fit, and a first build elsewhere on the full disk.
  for (const fs::path& target : {db, disk / "other"}) {
    ChildProcess full(QUARRY_INDEX_BIN,
                      index_args(target, {dir / "big.jsonl"}, {"--commit-every", "1000"}),
                      dir.path(), options);
    const std::optional<int> code = full.wait();
    EXPECT_EQ(code, 1) << full.err();
    const std::string err = full.err();
    EXPECT_TRUE(err.starts_with("quarry-index: ")) << err;
    EXPECT_NE(err.find(target.string()), std::string::npos) << err;
    EXPECT_TRUE(err.find("No space left") != std::string::npos ||
                err.find("too large") != std::string::npos)
        << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  }

  EXPECT_EQ(xapian_check(db), "");
  EXPECT_EQ(index_discrepancies(db, ids("old", 50)), "");
  Searcher searcher(db.string());
  EXPECT_EQ(searcher.search("quarrystone").total, 50u);
}

TEST(DiskFaultTest, ReadOnlyIndexIsAClearErrorAndStaysSearchable) {
  TempDir dir;
  ASSERT_NO_FATAL_FAILURE(build_then_write_more(dir, 30, "second.jsonl", 30, "old", "new"));
  const fs::path db = dir / "index";

  PrivateMounts mounts;
  if (!mounts.make_read_only(db)) {
    GTEST_SKIP() << "root writes whatever the permissions, and " << mounts.reason();
  }
  ChildProcess update(QUARRY_INDEX_BIN, index_args(db, {dir / "second.jsonl"}), dir.path());
  EXPECT_EQ(update.wait(), 1) << update.err();
  const std::string err = update.err();
  EXPECT_TRUE(err.starts_with("quarry-index: ")) << err;
  EXPECT_NE(err.find(db.string()), std::string::npos) << err;
  EXPECT_NE(err.find("Read-only file system"), std::string::npos) << err;
  EXPECT_EQ(err.find("locked by another"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;

  EXPECT_EQ(index_discrepancies(db, ids("old", 30)), "");
  const RunResult search =
      run_program(QUARRY_BIN, {"--db", db.string(), "--format", "json", "quarrystone"});
  EXPECT_EQ(search.exit_code, 0) << search.err;
  EXPECT_NE(search.out.find("\"total\":30"), std::string::npos) << search.out;
}

// 3. Two indexers at once.

// Holds the lock a running quarry-index holds.
class HeldLock {
 public:
  explicit HeldLock(const fs::path& db)
      : fd_(open((db.string() + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0 || flock(fd_, LOCK_EX) != 0) throw std::runtime_error("cannot lock " + db.string());
  }
  ~HeldLock() { release(); }
  void release() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

TEST(ConcurrentIndexTest, SecondIndexerExitsOrWaitsAsAsked) {
  TempDir dir;
  write_file(dir / "a.jsonl", synthetic_corpus(20, 1, "a"));
  const fs::path db = dir / "index";
  HeldLock lock(db);

  // Refused at once, with the documented message, for a new index too.
  const auto start = std::chrono::steady_clock::now();
  const RunResult refused = run_program(QUARRY_INDEX_BIN, index_args(db, {dir / "a.jsonl"}));
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.err,
            "quarry-index: index " + db.string() + " is locked by another quarry-index\n");
  EXPECT_FALSE(fs::exists(db));

  // A bounded wait gives up after about that long.
  const RunResult gave_up =
      run_program(QUARRY_INDEX_BIN, index_args(db, {dir / "a.jsonl"}, {"--wait=1"}));
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(gave_up.exit_code, 1) << gave_up.err;
  EXPECT_NE(gave_up.err.find("locked by another quarry-index"), std::string::npos);
  EXPECT_GE(waited, 1.0);
  EXPECT_LT(waited, 20.0);

  // --wait alone waits until the other run ends, then indexes.
  ChildProcess waiting(QUARRY_INDEX_BIN, index_args(db, {dir / "a.jsonl"}, {"--wait"}), dir.path());
  std::this_thread::sleep_for(milliseconds(800));
  EXPECT_TRUE(waiting.running());
  lock.release();
  EXPECT_EQ(waiting.wait(), 0) << waiting.err();
  EXPECT_EQ(index_discrepancies(db, ids("a", 20)), "");

  const RunResult bad =
      run_program(QUARRY_INDEX_BIN, index_args(db, {dir / "a.jsonl"}, {"--wait=-3"}));
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
}

TEST(ConcurrentIndexTest, TwoFirstBuildsAtOnceLeaveOneWholeIndex) {
  TempDir dir;
  write_file(dir / "big.jsonl", synthetic_corpus(6000, 3, "a"));
  const fs::path db = dir / "index";
  ChildProcess first(QUARRY_INDEX_BIN, index_args(db, {dir / "big.jsonl"}), dir.path());
  ASSERT_TRUE(wait_for_path(building_folder(db, first), first, milliseconds(60000)));
  const RunResult second = run_program(QUARRY_INDEX_BIN, index_args(db, {dir / "big.jsonl"}));
  if (first.running()) {
    EXPECT_EQ(second.exit_code, 1) << second.err;
    EXPECT_NE(second.err.find("locked by another quarry-index"), std::string::npos) << second.err;
  }
  EXPECT_EQ(first.wait(), 0) << first.err();
  EXPECT_EQ(index_discrepancies(db, ids("a", 6000)), "");
}

// 4. Searches while the index is being updated.

TEST(ConcurrentSearchTest, SearchesDuringUpdatesAlwaysAnswer) {
  TempDir dir;
  ASSERT_NO_FATAL_FAILURE(build_then_write_more(dir, 1000, "more.jsonl", 4000, "a", "b"));
  const fs::path db = dir / "index";

  ChildProcess update(
      QUARRY_INDEX_BIN,
      index_args(db, {dir / "first.jsonl", dir / "more.jsonl"}, {"--commit-every", "50"}),
      dir.path());
  Searcher searcher(db.string());
  SearchOptions options;
  options.limit = 50;
  std::size_t searches = 0;
  std::size_t last_total = 0;
  std::vector<std::string> failures;
  while (update.running() || searches == 0) {
    try {
      const SearchResult result = searcher.search("quarrystone", options);
      // Articles are only added: a later search never sees fewer.
      EXPECT_GE(result.total, last_total);
      last_total = result.total;
      for (const Hit& hit : result.hits) {
        if (!searcher.fetch(hit.id)) failures.push_back("fetch " + hit.id);
      }
      searcher.complete("qua", 10);
      ++searches;
    } catch (const Error& error) {
      failures.push_back(error.what());
    }
  }
  EXPECT_EQ(update.wait(), 0) << update.err();
  EXPECT_TRUE(failures.empty()) << failures.size() << " failures, first: " << failures[0];
  EXPECT_GT(searches, 1u);
  std::cout << searches << " searches during the update\n";
  EXPECT_EQ(searcher.search("quarrystone").total, 5000u);
}

TEST(ConcurrentSearchTest, BatchRunDuringUpdatesAnswersEveryQuery) {
  TempDir dir;
  ASSERT_NO_FATAL_FAILURE(build_then_write_more(dir, 1000, "more.jsonl", 3000, "a", "b"));
  const fs::path db = dir / "index";
  std::string queries;
  for (int i = 0; i < 3000; ++i) queries += "q" + std::to_string(i) + "\tquarrystone\n";
  write_file(dir / "queries.tsv", queries);

  ChildProcess update(
      QUARRY_INDEX_BIN,
      index_args(db, {dir / "first.jsonl", dir / "more.jsonl"}, {"--commit-every", "50"}),
      dir.path());
  ChildProcess batch(QUARRY_BIN,
                     {"--db", db.string(), "--batch", (dir / "queries.tsv").string(), "-j", "2",
                      "--no-snippets", "--no-timings"},
                     dir.path());
  EXPECT_EQ(batch.wait(), 0) << batch.err();
  EXPECT_EQ(update.wait(), 0) << update.err();
  EXPECT_EQ(batch.err(), "");
  std::istringstream answers(batch.out());
  std::size_t lines = 0;
  for (std::string line; std::getline(answers, line); ++lines) {
    EXPECT_EQ(line.find("\"error\""), std::string::npos) << line;
  }
  EXPECT_EQ(lines, 3000u);
}

}  // namespace
}  // namespace quarry::testing
