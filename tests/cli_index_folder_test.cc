// quarry-index keeps its lock files in the index folder, as Xapian keeps
// its own: every kind of run leaves the folder around the index as it found
// it, a lock held there keeps a second writer out, and a folder holding
// only the lock is no index yet.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/cli_fixture.h"
#include "tests/fault_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using Names = std::set<std::string>;
using Options = std::vector<std::string>;

constexpr char kLock[] = ".index.lock";

// Holds the lock file `path` as a running quarry-index does.
class HeldFile {
 public:
  explicit HeldFile(const fs::path& path)
      : fd_(open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0 || flock(fd_, LOCK_EX) != 0)
      throw std::runtime_error("cannot lock " + path.string());
  }
  ~HeldFile() { close(fd_); }
  HeldFile(const HeldFile&) = delete;
  HeldFile& operator=(const HeldFile&) = delete;

 private:
  int fd_;
};

// quarry-index --watch into `db` until an article holding `word` is
// searchable there, then stopped as a service manager stops it.
void watch_until_found(const TempDir& dir, const fs::path& db, const fs::path& inbox,
                       const std::string& word) {
  ChildProcess watcher(QUARRY_INDEX_BIN,
                       index_args(db, {inbox}, {"--watch", "--commit-interval", "0.2"}),
                       dir.path());
  EXPECT_TRUE(eventually([&] { return matches(db, word) == 1; })) << watcher.err();
  watcher.signal(SIGTERM);
  EXPECT_EQ(watcher.wait(std::chrono::seconds(60)), 0) << watcher.err();
}

TEST(IndexFolderTest, RunsLeaveNothingBesideTheIndex) {
  TempDir dir;
  const fs::path inbox = dir / "inbox";
  const fs::path indexes = dir / "indexes";
  const fs::path db = indexes / "news";
  write_file(inbox / "first.txt", "An article about the lighthouse.");
  fs::create_directory(indexes);

  const RunResult first = run_index(db, {inbox.string()});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(names_in(indexes), Names{"news"}) << "a first build";
  EXPECT_TRUE(fs::exists(db / kLock));
  write_file(inbox / "second.txt", "An article about the harbour.");
  ASSERT_EQ(run_index(db, {inbox.string()}).exit_code, 0);
  EXPECT_EQ(names_in(indexes), Names{"news"}) << "an incremental run";

  write_file(inbox / "third.txt", "An article about the ferry.");
  watch_until_found(dir, db, inbox, "ferry");
  watch_until_found(dir, indexes / "live", inbox, "ferry");
  EXPECT_EQ(names_in(indexes), (Names{"live", "news"})) << "--watch";

  const fs::path dest = dir / "backups" / "monday";
  const RunResult snapshot =
      run_program(QUARRY_INDEX_BIN, {"--db", db.string(), "--snapshot", dest.string()});
  ASSERT_EQ(snapshot.exit_code, 0) << snapshot.err;
  EXPECT_EQ(names_in(indexes), (Names{"live", "news"})) << "a snapshot";
  EXPECT_EQ(names_in(dest.parent_path()), Names{"monday"});
  EXPECT_EQ(names_in(dest).count(kLock), 0u) << "a snapshot is no run's lock";

  for (const char* run : {"a first build", "an incremental run"}) {
    const RunResult sharded =
        run_program(QUARRY_INDEX_BIN, index_args(indexes / "sharded", {inbox}, {"--shards", "2"}));
    ASSERT_EQ(sharded.exit_code, 0) << sharded.err;
    EXPECT_EQ(names_in(indexes), (Names{"live", "news", "sharded"})) << run << " of shards";
  }
  EXPECT_TRUE(fs::exists(indexes / "sharded" / kLock));

  // Readers and Xapian's tools pass over the lock file.
  EXPECT_EQ(xapian_check(db), "");
  EXPECT_EQ(matches(db, "ferry"), 1u);
  EXPECT_EQ(matches(indexes / "sharded", "lighthouse"), 1u);
}

TEST(IndexFolderTest, ALockHeldInTheFolderKeepsEveryWriterOut) {
  TempDir dir;
  const fs::path inbox = dir / "inbox";
  write_file(inbox / "first.txt", "An article about the lighthouse.");
  struct Case {
    std::string name;
    std::optional<std::vector<std::string>> built;  // the options of a build before
    std::vector<std::string> run;
  };
  for (const Case& writer : std::vector<Case>{{"new", std::nullopt, {}},
                                              {"one", Options{}, {}},
                                              {"sharded", Options{"--shards", "2"}, {}},
                                              {"watched", Options{}, {"--watch"}}}) {
    const fs::path db = dir / writer.name;
    if (writer.built) {
      ASSERT_EQ(run_program(QUARRY_INDEX_BIN, index_args(db, {inbox}, *writer.built)).exit_code, 0);
    }
    fs::create_directories(db);
    const HeldFile held(db / kLock);
    // A child, so that a run that is let in (a watcher) is ended.
    ChildProcess refused(QUARRY_INDEX_BIN, index_args(db, {inbox}, writer.run), dir.path());
    EXPECT_EQ(refused.wait(std::chrono::seconds(60)), 1) << writer.name << ": " << refused.err();
    EXPECT_EQ(refused.err(),
              "quarry-index: index " + db.string() + " is locked by another quarry-index\n");
  }
}

// What a first build killed before its parts were merged leaves: no index
// to read, and one a run builds.
TEST(IndexFolderTest, AFolderHoldingOnlyTheLockIsNoIndexYet) {
  TempDir dir;
  const fs::path db = dir / "index";
  write_file(db / kLock, "");
  const RunResult search = run_program(QUARRY_BIN, {"--db", db.string(), "Ederson"});
  EXPECT_EQ(search.exit_code, 1) << search.err;
  EXPECT_EQ(search.err, "quarry: no index at " + db.string() +
                            "; build one with: quarry-index --db " + db.string() + " FOLDER\n");
  const RunResult built = run_index(db, {QUARRY_CORPUS_DIR});
  EXPECT_EQ(built.exit_code, 0) << built.err;
  EXPECT_EQ(matches(db, "Ederson"), 3u);

  // Beside another file, it is a folder of other files.
  const fs::path other = dir / "other";
  write_file(other / kLock, "");
  write_file(other / "notes.txt", "Mine.");
  const RunResult refused = run_index(other, {QUARRY_CORPUS_DIR});
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_EQ(names_in(other), (Names{kLock, "notes.txt"}));
}

// Lock files an earlier version left beside the index are no part of it.
TEST(IndexFolderTest, LockFilesLeftBesideTheIndexAreLeftAlone) {
  TempDir dir;
  const fs::path db = dir / "index";
  ASSERT_EQ(run_index(db, {QUARRY_CORPUS_DIR}).exit_code, 0);
  write_file(dir / "index.lock", "");
  write_file(dir / "index.commit.lock", "");
  const HeldFile old(dir / "index.lock");
  const RunResult again = run_index(db, {QUARRY_CORPUS_DIR});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(names_in(dir.path()), (Names{"index", "index.commit.lock", "index.lock"}));
  EXPECT_EQ(matches(db, "Ederson"), 3u);
}

}  // namespace
}  // namespace quarry::testing
