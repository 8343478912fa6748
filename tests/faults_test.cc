// Faults while indexing and searching: the process killed or interrupted, a
// full disk, a read-only index, two first builds, searches during updates.
// In each case nothing committed is lost and a plain re-run completes. Slow:
// built into quarry_slow_tests (see CMakeLists.txt).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
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
  if (!fs::exists(db / "iamglass")) return;  // a first build not yet merged
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

// The start of `text`, for a failure message: the runs that flood
// standard error write megabytes.
std::string head(const std::string& text) {
  constexpr std::size_t kMost = 2000;
  return text.size() <= kMost ? text : text.substr(0, kMost) + "…";
}

// The end of `text`, where a run writes its summary.
std::string tail(const std::string& text) {
  constexpr std::size_t kMost = 2000;
  return text.size() <= kMost ? text : "…" + text.substr(text.size() - kMost);
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
    if (fs::exists(db() / "iamglass")) break;  // merged before the kill
  }

  // 3. A re-run completes whatever was left.
  ChildProcess rerun(QUARRY_INDEX_BIN, build, dir_.path());
  ASSERT_EQ(rerun.wait(), 0) << rerun.err();
  expect_complete(synthetic_ids("a", kArticles));

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
  std::vector<std::string> all = synthetic_ids("a", kArticles);
  const std::vector<std::string> more = synthetic_ids("b", kUpdates);
  all.insert(all.end(), more.begin(), more.end());
  expect_complete(all);
}

// A corpus that holds quarry-index at a known point for as long as the test
// likes: `before` articles, then more malformed lines than a pipe holds the
// messages of, then `after` articles. Run with ChildOptions::hold_err, the
// indexer has read every article before the first message, and stops in
// the middle of the messages until the test waits for it.
std::string corpus_with_a_stop(std::size_t before, std::size_t after, std::uint32_t seed) {
  // Each message names the file and the line, some 80 bytes: ten times
  // the 64 KiB a pipe holds.
  constexpr std::size_t kMalformed = 8192;
  std::string corpus = synthetic_corpus(before, seed, "a");
  for (std::size_t i = 0; i < kMalformed; ++i) corpus += "{\n";
  return corpus + synthetic_corpus(after, seed + 1, "z");
}

// Whether `signal`, sent to `pid` with kill(), has been taken by one of its
// threads: it no longer shows as pending in /proc.
bool wait_until_delivered(pid_t pid, int signal, milliseconds patience) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  while (std::chrono::steady_clock::now() < deadline) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    bool pending = false;
    bool seen = false;
    while (std::getline(status, line)) {
      if (!line.starts_with("ShdPnd:")) continue;
      seen = true;
      pending = (std::stoull(line.substr(7), nullptr, 16) >> (signal - 1)) & 1;
    }
    if (!seen) throw std::runtime_error("cannot read the pending signals of a child");
    if (!pending) return true;
    std::this_thread::sleep_for(milliseconds(1));
  }
  return false;
}

class SignalTest : public ::testing::Test {
 protected:
  static constexpr std::size_t kBefore = 300;
  static constexpr std::size_t kAfter = 50;
  static constexpr std::size_t kFirst = 10;

  fs::path db() const { return dir_ / "index"; }

  TempDir dir_;
};

TEST_F(SignalTest, SigtermAndSigintCommitWhatWasReadAndSaySo) {
  write_file(dir_ / "corpus.jsonl", corpus_with_a_stop(kBefore, kAfter, 7));
  write_file(dir_ / "first.jsonl", synthetic_corpus(kFirst, 8, "f"));
  for (const int number : {SIGTERM, SIGINT}) {
    for (const bool update : {false, true}) {
      SCOPED_TRACE(std::string(number == SIGTERM ? "SIGTERM" : "SIGINT") +
                   (update ? " while updating" : " while building"));
      fs::remove_all(db());
      std::vector<std::string> expected;
      if (update) {
        ChildProcess first(QUARRY_INDEX_BIN, index_args(db(), {dir_ / "first.jsonl"}), dir_.path());
        ASSERT_EQ(first.wait(), 0) << first.err();
        expected = synthetic_ids("f", kFirst);
      }
      const std::vector<std::string> args =
          index_args(db(), {dir_ / "corpus.jsonl"}, {"--commit-every", "100"});
      ChildProcess child(QUARRY_INDEX_BIN, args, dir_.path(),
                         {.env = {}, .file_size_limit = {}, .hold_err = true});
      ASSERT_TRUE(child.wait_for_err()) << "no message about the malformed lines";
      child.signal(number);
      ASSERT_TRUE(wait_until_delivered(child.pid(), number, milliseconds(60000)));
      EXPECT_EQ(child.wait(), 1) << head(child.err());
      EXPECT_TRUE(has_line_starting(child.err(),
                                    "quarry-index: interrupted; what was indexed "
                                    "is saved, run again to finish"))
          << tail(child.err());
      EXPECT_EQ(xapian_check(db()), "");
      const std::vector<std::string> before = synthetic_ids("a", kBefore);
      expected.insert(expected.end(), before.begin(), before.end());
      EXPECT_EQ(index_discrepancies(db(), expected), "");

      ChildProcess rerun(QUARRY_INDEX_BIN, args, dir_.path());
      ASSERT_EQ(rerun.wait(), 3) << head(rerun.err());
      const std::vector<std::string> after = synthetic_ids("z", kAfter);
      expected.insert(expected.end(), after.begin(), after.end());
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
  EXPECT_EQ(index_discrepancies(db, synthetic_ids("old", 50)), "");
  Searcher searcher(db.string());
  EXPECT_EQ(searcher.search("quarrystone").total, 50u);
}

// A full disk: a tmpfs of `bytes` at `disk`, or where nothing can be
// mounted, a file size limit on the child, which makes writes fail as a
// full disk does (EFBIG, "File too large", instead of ENOSPC).
void fill_disk_at(PrivateMounts& mounts, const fs::path& disk, std::size_t bytes,
                  ChildOptions& options) {
  fs::create_directories(disk);
  if (!mounts.mount_tmpfs(disk, bytes)) options.file_size_limit = bytes;
}

// What a run on a full disk must end with: exit 1 and one line naming the
// cause.
void expect_one_line_naming_a_full_disk(std::optional<int> code, const std::string& err) {
  EXPECT_EQ(code, 1) << head(err);
  EXPECT_TRUE(err.starts_with("quarry-index: ")) << head(err);
  EXPECT_TRUE(err.find("No space left on device") != std::string::npos ||
              err.find("too large") != std::string::npos)
      << head(err);
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << head(err);
}

// The index at `db` as its last commit left it: consistent, each article
// once, the `old` articles it was built with all there.
void expect_last_commit(const fs::path& db, std::size_t old, std::size_t most) {
  expect_sound(db, most);
  Searcher searcher(db.string());
  for (const std::string& id : synthetic_ids("old", old)) {
    EXPECT_EQ(searcher.search("id:\"" + id + "\"").total, 1u) << id;
  }
}

// A live index fed more than the disk holds, with a saved search matched
// beside its commits. Xapian 1.4 writes a commit's values from a
// destructor, where a full disk ended the process with std::terminate; the
// disk fills at another point of a commit at each size.
TEST(DiskFaultTest, LiveIndexOnAFullDiskEndsWithOneLineAndItsLastCommit) {
  constexpr std::size_t kOld = 50;
  constexpr std::size_t kNew = 4000;
  constexpr std::size_t kLinesAWrite = 50;
  TempDir dir;
  write_file(dir / "first.jsonl", synthetic_corpus(kOld, 1, "old"));
  const std::vector<std::string> feed = lines_of(synthetic_corpus(kNew, 2, "new"));
  PrivateMounts mounts;
  for (int run = 0; run < 6; ++run) {
    const bool watch = run == 5;
    SCOPED_TRACE("run " + std::to_string(run) + (watch ? ", --watch" : ", standard input"));
    const fs::path disk = dir / ("disk-" + std::to_string(run));
    ChildOptions options;
    fill_disk_at(mounts, disk, (2 << 20) + run * (384 << 10), options);
    const fs::path db = disk / "index";
    ChildProcess first(QUARRY_INDEX_BIN, index_args(db, {dir / "first.jsonl"}), dir.path(),
                       options);
    ASSERT_EQ(first.wait(), 0) << first.err();
    const RunResult saved =
        run_program(QUARRY_BIN, {"alert", "add", "--db", db.string(), "stone", "quarrystone"});
    ASSERT_EQ(saved.exit_code, 0) << saved.err;

    const fs::path followed = dir / ("feed-" + std::to_string(run) + ".jsonl");
    write_file(followed, "");
    options.pipe_in = !watch;
    std::vector<std::string> live_options{"--commit-interval", "0.2"};
    if (watch) live_options.push_back("--watch");
    ChildProcess live(QUARRY_INDEX_BIN,
                      index_args(db, {watch ? followed : fs::path("-")}, live_options), dir.path(),
                      options);
    // Written a little at a time, so that commits of a few articles fill
    // the disk, as a feed does.
    for (std::size_t line = 0; line < feed.size() && live.running(); line += kLinesAWrite) {
      std::string lines;
      for (std::size_t i = line; i < std::min(line + kLinesAWrite, feed.size()); ++i) {
        lines += feed[i] + "\n";
      }
      if (watch) {
        std::ofstream(followed, std::ios::app) << lines;
      } else if (!live.write_in(lines)) {
        break;
      }
      std::this_thread::sleep_for(milliseconds(20));
    }
    live.close_in();
    const std::optional<int> code = live.wait();
    expect_one_line_naming_a_full_disk(code, live.err());
    expect_last_commit(db, kOld, kOld + kNew);
  }
}

// A snapshot onto a disk too small for it says so, and leaves nothing.
TEST(DiskFaultTest, SnapshotOntoAFullDiskNamesTheCause) {
  TempDir dir;
  write_file(dir / "corpus.jsonl", synthetic_corpus(1000, 3, "a"));
  const fs::path db = dir / "index";
  ChildProcess build(QUARRY_INDEX_BIN, index_args(db, {dir / "corpus.jsonl"}), dir.path());
  ASSERT_EQ(build.wait(), 0) << build.err();
  PrivateMounts mounts;
  ChildOptions options;
  const fs::path backup = dir / "backup";
  fill_disk_at(mounts, backup, 512 << 10, options);
  ChildProcess snapshot(QUARRY_INDEX_BIN,
                        {"--db", db.string(), "--snapshot", (backup / "monday").string()},
                        dir.path(), options);
  const std::optional<int> code = snapshot.wait();
  expect_one_line_naming_a_full_disk(code, snapshot.err());
  EXPECT_EQ(snapshot.err().find("Input/output error"), std::string::npos) << snapshot.err();
  EXPECT_TRUE(fs::is_empty(backup)) << "a partial folder is left";
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

  EXPECT_EQ(index_discrepancies(db, synthetic_ids("old", 30)), "");
  const RunResult search =
      run_program(QUARRY_BIN, {"--db", db.string(), "--format", "json", "quarrystone"});
  EXPECT_EQ(search.exit_code, 0) << search.err;
  EXPECT_NE(search.out.find("\"total\":30"), std::string::npos) << search.out;
}

// 3. Two indexers at once.

TEST(ConcurrentIndexTest, TwoFirstBuildsAtOnceLeaveOneWholeIndex) {
  TempDir dir;
  write_file(dir / "big.jsonl", corpus_with_a_stop(300, 50, 3));
  const fs::path db = dir / "index";
  // The first build is held in the middle of its input until it is waited for.
  ChildProcess first(QUARRY_INDEX_BIN, index_args(db, {dir / "big.jsonl"}), dir.path(),
                     {.env = {}, .file_size_limit = {}, .hold_err = true});
  ASSERT_TRUE(first.wait_for_err());
  ASSERT_TRUE(fs::exists(building_folder(db, first)));
  const RunResult second = run_program(QUARRY_INDEX_BIN, index_args(db, {dir / "big.jsonl"}));
  EXPECT_EQ(second.exit_code, 1) << head(second.err);
  EXPECT_EQ(head(second.err),
            "quarry-index: index " + db.string() + " is locked by another quarry-index\n");
  ASSERT_TRUE(first.running());
  EXPECT_EQ(first.wait(), 3) << head(first.err());
  std::vector<std::string> expected = synthetic_ids("a", 300);
  const std::vector<std::string> after = synthetic_ids("z", 50);
  expected.insert(expected.end(), after.begin(), after.end());
  EXPECT_EQ(index_discrepancies(db, expected), "");
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
