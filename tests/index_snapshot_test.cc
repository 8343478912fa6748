// Snapshots of an index: a compacted copy that answers as the index did at
// one revision, taken while writers commit, refused over an existing
// folder, and never left looking whole when killed.
#include "quarry/index/index_snapshot.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>
#include <xapian.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lib/index/index_lock.h"
#include "lib/index/shard_set.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kQueries = {"harbour",        "storm AND election",
                                           "common",         "harbour OR election",
                                           "storm -harbour", "lighthouse"};

// Articles whose words overlap in a pattern the queries above tell apart.
std::vector<Article> articles(int first, int count) {
  std::vector<Article> made;
  for (int i = first; i < first + count; ++i) {
    Article article;
    article.id = "report-" + std::to_string(i);
    article.title = "Report " + std::to_string(i);
    article.body = "A common report.";
    if (i % 2 == 0) article.body += " The harbour was closed.";
    if (i % 3 == 0) article.body += " A storm came in from the sea.";
    if (i % 5 == 0) article.body += " The election was called off.";
    if (i >= 100) article.body += " The lighthouse keeper saw it.";
    article.date = "2024-05-" + std::to_string(10 + i % 15);
    article.language = "english";
    made.push_back(article);
  }
  return made;
}

// Builds dir/index of articles 0…29, with `shards` shards (0: one database).
std::string build_index(const TempDir& dir, std::size_t shards) {
  write_file(dir / "articles.jsonl", testing::to_json_lines(articles(0, 30)));
  IndexConfig config;
  config.db_path = (dir / "index").string();
  config.shards = shards;
  config.threads = 1;
  index_paths(config, {(dir / "articles.jsonl").string()});
  return config.db_path;
}

// Everything a search can read of the database at `path` (one, or a stub):
// each document's id, data, terms and values, and the metadata.
std::string contents(const std::string& path) {
  const Xapian::Database db(path);
  std::ostringstream out;
  out << db.get_doccount() << " documents, last " << db.get_lastdocid() << '\n';
  for (auto post = db.postlist_begin(""); post != db.postlist_end(""); ++post) {
    const Xapian::Document doc = db.get_document(*post);
    out << *post << ' ' << doc.get_data().size() << ' ' << std::hash<std::string>{}(doc.get_data());
    for (auto term = doc.termlist_begin(); term != doc.termlist_end(); ++term) {
      out << ' ' << *term << ':' << term.get_wdf();
    }
    for (auto value = doc.values_begin(); value != doc.values_end(); ++value) {
      out << " v" << value.get_valueno() << '=' << std::hash<std::string>{}(*value);
    }
    out << '\n';
  }
  for (auto key = db.metadata_keys_begin(); key != db.metadata_keys_end(); ++key) {
    out << "meta " << *key << '=' << db.get_metadata(*key).size() << '\n';
  }
  for (auto word = db.spellings_begin(); word != db.spellings_end(); ++word) {
    out << "spell " << *word << ':' << word.get_termfreq() << '\n';
  }
  return out.str();
}

// The ids each query finds, one line a query.
std::string answers(const std::string& db) {
  std::ostringstream out;
  for (const std::string& query : kQueries) {
    out << query << ':';
    for (const std::string& id : hit_ids(db, query)) out << ' ' << id;
    out << '\n';
  }
  return out.str();
}

// The path of `program` on PATH, or "" when it is not installed.
std::string installed(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "/usr/bin");
  for (std::string folder; std::getline(folders, folder, ':');) {
    const fs::path candidate = fs::path(folder) / program;
    if (!folder.empty() && access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return "";
}

// Runs xapian-check on each database of the snapshot at `dest`, when
// xapian-tools is installed.
void expect_xapian_check_passes(const fs::path& dest) {
  const std::string check = installed("xapian-check");
  if (check.empty()) return;
  std::vector<fs::path> databases{dest};
  if (detail::is_shard_set(dest.string())) {
    databases.clear();
    for (const std::string& part : detail::shard_set_parts(dest.string())) {
      databases.push_back(dest / part);
    }
  }
  for (const fs::path& database : databases) {
    const RunResult checked = run_program(check, {database.string()});
    EXPECT_EQ(checked.exit_code, 0) << database << ": " << checked.out << checked.err;
  }
}

// The entries of `folder` whose names start with `prefix`.
std::vector<std::string> entries_starting(const fs::path& folder, const std::string& prefix) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(prefix)) found.push_back(name);
  }
  return found;
}

// Whether process `pid` waits for a file lock: /proc/locks lists a blocked
// request as "N: -> FLOCK  ADVISORY  WRITE PID DEVICE:INODE 0 EOF".
bool waits_for_lock(pid_t pid) {
  std::ifstream locks("/proc/locks");
  for (std::string line; std::getline(locks, line);) {
    std::istringstream words(line);
    std::string number, arrow, kind, advisory, mode;
    pid_t holder = 0;
    words >> number >> arrow >> kind >> advisory >> mode >> holder;
    if (arrow == "->" && holder == pid) return true;
  }
  return false;
}

// Whether process `pid` has the commit lock of the index at `db` open: a
// writer opens it only to commit, and while a snapshot holds it, tries to
// take it until it may go on without it.
bool has_commit_lock_open(pid_t pid, const std::string& db) {
  std::error_code error;
  const fs::path lock = fs::canonical(detail::commit_lock_path(db), error);
  if (error) return false;
  for (const auto& fd : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", error)) {
    std::error_code gone;
    if (fs::read_symlink(fd.path(), gone) == lock) return true;
  }
  return false;
}

// Waits until `child` waits for a file lock, or (with `db`) for the commit
// lock of that index (true), or has ended (false).
bool blocked_on_a_lock(ChildProcess& child, const std::string& db = "") {
  const auto deadline = std::chrono::steady_clock::now() + time_allowed(std::chrono::seconds(60));
  while (std::chrono::steady_clock::now() < deadline) {
    if (waits_for_lock(child.pid())) return true;
    if (!db.empty() && has_commit_lock_open(child.pid(), db)) return true;
    if (!child.running()) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

// Calls `act` once, at the `nth` (from 1) step `step` of a snapshot.
class StepHook : public SnapshotObserver {
 public:
  StepHook(SnapshotStep step, int nth, std::function<void()> act)
      : step_(step), left_(nth), act_(std::move(act)) {}
  void on_step(SnapshotStep step, const std::string& /*path*/) override {
    if (step == step_ && --left_ == 0) act_();
  }

 private:
  SnapshotStep step_;
  int left_;
  std::function<void()> act_;
};

// Whether the index at `db` holds the article `id` within a bounded wait,
// as a reader opening it finds.
bool holds_eventually(const fs::path& db, const std::string& id) {
  const auto deadline = std::chrono::steady_clock::now() + time_allowed(std::chrono::seconds(60));
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      if (Searcher(db.string()).search("id:\"" + id + "\"").total == 1) return true;
    } catch (const Error&) {
      // No index yet.
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

class IndexSnapshotTest : public ::testing::TestWithParam<std::size_t> {};

INSTANTIATE_TEST_SUITE_P(OneDatabaseAndShards, IndexSnapshotTest, ::testing::Values(0, 3),
                         [](const auto& info) {
                           return info.param == 0 ? std::string("OneDatabase")
                                                  : std::to_string(info.param) + "Shards";
                         });

TEST_P(IndexSnapshotTest, AnswersAsTheIndexAndPassesXapianCheck) {
  const TempDir dir;
  const std::string db = build_index(dir, GetParam());
  const std::string saved = "{\"searches\": []}\n";
  write_file(fs::path(db) / "saved-searches.json", saved);
  const fs::path dest = dir / "backups" / "monday";
  const RunResult taken = run_program(QUARRY_INDEX_BIN, {"--db", db, "--snapshot", dest.string()});
  ASSERT_EQ(taken.exit_code, 0) << taken.err;
  EXPECT_TRUE(taken.err.starts_with("quarry-index: snapshot of " + db + " written to " +
                                    dest.string() + ": "))
      << taken.err;
  EXPECT_EQ(contents(dest.string()), contents(db));
  EXPECT_EQ(answers(dest.string()), answers(db));
  EXPECT_NE(answers(db).find("report-0 report-10"), std::string::npos) << "the queries find";
  EXPECT_EQ(testing::read_file(dest / "saved-searches.json"), saved);
  expect_xapian_check_passes(dest);
  EXPECT_EQ(entries_starting(dest.parent_path(), "monday"), std::vector<std::string>{"monday"})
      << "no partial folder is left";
}

// The writer commits three times between the copy of the files and their
// compaction, as a live index does every second: the snapshot is the
// revision copied.
TEST_P(IndexSnapshotTest, IsTheRevisionCopiedWhateverIsCommittedWhileItCompacts) {
  const TempDir dir;
  const std::string db = build_index(dir, GetParam());
  const std::string before = contents(db);
  const std::string answered = answers(db);
  int commits = 0;
  StepHook commit_thrice(SnapshotStep::kCompacting, 1, [&] {
    IndexConfig config;
    config.db_path = db;
    IndexWriter writer(config);
    for (const Article& article : articles(100, 3)) {
      writer.upsert(article, "test");
      writer.commit();
      ++commits;
    }
  });
  const fs::path dest = dir / "snapshot";
  take_snapshot({.db_path = db, .dest = dest.string()}, &commit_thrice);
  ASSERT_EQ(commits, 3);
  EXPECT_NE(contents(db), before) << "the index moved on";
  EXPECT_EQ(Xapian::Database(db).get_doccount(), 33u);
  EXPECT_EQ(contents(dest.string()), before);
  EXPECT_EQ(answers(dest.string()), answered);
  expect_xapian_check_passes(dest);
}

// Another quarry-index updates the index while the snapshot copies its
// files: it waits, and its commits go to the index, not the snapshot.
TEST_P(IndexSnapshotTest, AWriterWaitsWhileTheFilesAreCopied) {
  const TempDir dir;
  const std::string db = build_index(dir, GetParam());
  write_file(dir / "more.jsonl", testing::to_json_lines(articles(100, 5)));
  const std::string before = contents(db);
  const std::string answered = answers(db);
  std::unique_ptr<ChildProcess> writer;
  bool writer_waited = false;
  // The second file copied: the copy is under way.
  StepHook start_writer(SnapshotStep::kCopying, 2, [&] {
    writer = std::make_unique<ChildProcess>(
        QUARRY_INDEX_BIN,
        std::vector<std::string>{"--db", db, "--quiet", (dir / "more.jsonl").string()}, dir.path());
    writer_waited = blocked_on_a_lock(*writer, db);
  });
  const fs::path dest = dir / "snapshot";
  take_snapshot({.db_path = db, .dest = dest.string()}, &start_writer);
  ASSERT_TRUE(writer);
  EXPECT_TRUE(writer_waited) << "the writer committed during the copy";
  EXPECT_EQ(writer->wait(), 0) << writer->err();
  EXPECT_EQ(Xapian::Database(db).get_doccount(), 35u) << "the writer's articles are in the index";
  EXPECT_EQ(contents(dest.string()), before);
  EXPECT_EQ(answers(dest.string()), answered);
  expect_xapian_check_passes(dest);
}

// A writer that has waited kSnapshotHoldLimit for the copy commits; the
// snapshot finds the copy under way mixed and copies again, holding the
// revision the writer committed.
TEST(IndexSnapshot, IsCopiedAgainWhenAWriterWouldWaitNoLonger) {
  const TempDir dir;
  const std::string db = build_index(dir, 0);
  write_file(dir / "more.jsonl", testing::to_json_lines(articles(100, 5)));
  std::optional<int> writer_exit;
  std::string writer_err;
  StepHook commit_past_the_copy(SnapshotStep::kCopying, 2, [&] {
    ChildProcess writer(QUARRY_INDEX_BIN, {"--db", db, "--quiet", (dir / "more.jsonl").string()},
                        dir.path());
    writer_exit = writer.wait(std::chrono::seconds(60));
    writer_err = writer.err();
  });
  const fs::path dest = dir / "snapshot";
  take_snapshot({.db_path = db, .dest = dest.string()}, &commit_past_the_copy);
  EXPECT_EQ(writer_exit, 0) << "the writer waited for the copy: " << writer_err;
  EXPECT_EQ(Xapian::Database(db).get_doccount(), 35u);
  EXPECT_EQ(contents(dest.string()), contents(db)) << "the snapshot is the writer's revision";
  expect_xapian_check_passes(dest);
}

// A live index (quarry-index --watch) of dir/inbox into dir/index,
// started with first.txt in the inbox.
struct LiveInbox {
  LiveInbox() {
    write_file(inbox / "first.txt", "An article about the harbour.");
    watcher = std::make_unique<ChildProcess>(
        QUARRY_INDEX_BIN, testing::index_args(db, {inbox}, {"--watch", "--commit-interval", "0.2"}),
        dir.path());
  }

  const TempDir dir;
  const fs::path db = dir / "index";
  const fs::path inbox = dir / "inbox";
  std::unique_ptr<ChildProcess> watcher;
};

// A live index holds the index's write lock for its whole run and commits
// as articles land: a snapshot is taken beside it, its commit waiting for
// the copy, and the next snapshot holds that commit.
TEST(IndexSnapshot, IsTakenBesideALiveIndex) {
  LiveInbox live;
  auto& [dir, db, inbox, watcher] = live;
  ASSERT_TRUE(holds_eventually(db, "first.txt")) << watcher->err();
  const std::string before = contents(db.string());
  bool live_waited = false;
  StepHook land_an_article(SnapshotStep::kCopying, 2, [&] {
    write_file(inbox / "second.txt", "An article about the storm.");
    live_waited = blocked_on_a_lock(*watcher, db.string());
  });
  take_snapshot({.db_path = db.string(), .dest = (dir / "one").string()}, &land_an_article);
  EXPECT_TRUE(live_waited) << "the live index committed during the copy: " << watcher->err();
  EXPECT_EQ(contents((dir / "one").string()), before);
  expect_xapian_check_passes(dir / "one");

  ASSERT_TRUE(holds_eventually(db, "second.txt")) << watcher->err();
  take_snapshot({.db_path = db.string(), .dest = (dir / "two").string()});
  EXPECT_TRUE(holds_eventually(dir / "two", "second.txt"));
  EXPECT_EQ(answers((dir / "two").string()), answers(db.string()));
  watcher->signal(SIGTERM);
  EXPECT_EQ(watcher->wait(), 0) << watcher->err();
}

// A snapshot stopped while it holds commits (Ctrl-Z, a hung backup disk),
// its side of the lock held here: the live index's articles still become
// searchable, once its commit has waited kSnapshotHoldLimit, and SIGTERM
// ends it with its articles committed while the snapshot holds on.
TEST(IndexSnapshot, AStalledSnapshotHoldsCommitsNoLongerThanTheLimit) {
  LiveInbox live;
  auto& [dir, db, inbox, watcher] = live;
  ASSERT_TRUE(holds_eventually(db, "first.txt")) << watcher->err();
  {
    const detail::CommitLock stalled(db.string());
    write_file(inbox / "second.txt", "An article about the storm.");
    EXPECT_TRUE(holds_eventually(db, "second.txt")) << "commits wait for the snapshot";
  }
  // Free once, the lock is waited for again by the next commit.
  write_file(inbox / "third.txt", "An article about the ferry.");
  ASSERT_TRUE(holds_eventually(db, "third.txt")) << watcher->err();

  const detail::CommitLock stalled(db.string());
  write_file(inbox / "fourth.txt", "An article about the lighthouse.");
  EXPECT_TRUE(blocked_on_a_lock(*watcher, db.string())) << "the commit did not wait";
  watcher->signal(SIGTERM);
  EXPECT_EQ(watcher->wait(std::chrono::seconds(30)), 0)
      << "SIGTERM waited for the snapshot: " << watcher->err();
  EXPECT_TRUE(holds_eventually(db, "fourth.txt"));
}

TEST(IndexSnapshot, ADestThatIsNotAnEmptyFolderIsRefusedAndLeftAlone) {
  const TempDir dir;
  const std::string db = build_index(dir, 0);
  const fs::path dest = dir / "taken";
  write_file(dest / "notes.txt", "mine\n");
  const RunResult refused =
      run_program(QUARRY_INDEX_BIN, {"--db", db, "--snapshot", dest.string()});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err, "quarry-index: snapshot " + dest.string() +
                             " exists and is not an empty folder; choose a new or empty one\n");
  EXPECT_EQ(entries_starting(dest, ""), std::vector<std::string>{"notes.txt"});
  EXPECT_EQ(testing::read_file(dest / "notes.txt"), "mine\n");
  EXPECT_EQ(entries_starting(dir.path(), "taken"), std::vector<std::string>{"taken"});

  const fs::path file = dir / "file";
  write_file(file, "x");
  EXPECT_EQ(run_program(QUARRY_INDEX_BIN, {"--db", db, "--snapshot", file.string()}).exit_code, 2);
  EXPECT_EQ(testing::read_file(file), "x");

  const RunResult with_paths =
      run_program(QUARRY_INDEX_BIN, {"--db", db, "--snapshot", (dir / "new").string(), "more/"});
  EXPECT_EQ(with_paths.exit_code, 2) << with_paths.err;
  EXPECT_FALSE(fs::exists(dir / "new"));

  const fs::path empty = dir / "empty";
  fs::create_directory(empty);
  EXPECT_EQ(run_program(QUARRY_INDEX_BIN, {"--db", db, "--snapshot", empty.string()}).exit_code, 0);
  EXPECT_EQ(contents(empty.string()), contents(db)) << "an empty folder is filled";

  const RunResult no_index = run_program(
      QUARRY_INDEX_BIN, {"--db", (dir / "none").string(), "--snapshot", (dir / "s").string()});
  EXPECT_EQ(no_index.exit_code, 1);
  EXPECT_TRUE(no_index.err.starts_with("quarry-index: no index at ")) << no_index.err;
  EXPECT_FALSE(fs::exists(dir / "s"));
}

// Killed while it waits for a writer's commit to end, with its folder made
// beside dest: dest does not appear.
TEST(IndexSnapshot, AKilledSnapshotLeavesNoDest) {
  const TempDir dir;
  const std::string db = build_index(dir, 0);
  const fs::path dest = dir / "snapshot";
  {
    detail::CommitGate gate(db, nullptr);
    const detail::CommitLock committing = gate.enter();
    ChildProcess snapshot(QUARRY_INDEX_BIN, {"--db", db, "--snapshot", dest.string()}, dir.path());
    ASSERT_TRUE(blocked_on_a_lock(snapshot)) << snapshot.err();
    snapshot.signal(SIGKILL);
    EXPECT_EQ(snapshot.wait(), 128 + SIGKILL);
  }
  EXPECT_FALSE(fs::exists(dest));
  const std::vector<std::string> left = entries_starting(dir.path(), "snapshot");
  ASSERT_EQ(left.size(), 1u);
  EXPECT_TRUE(left[0].starts_with("snapshot.partial-")) << left[0];

  // The next one is taken whole, beside what the killed one left.
  EXPECT_EQ(run_program(QUARRY_INDEX_BIN, {"--db", db, "--snapshot", dest.string()}).exit_code, 0);
  EXPECT_EQ(contents(dest.string()), contents(db));
}

// A writer's commit holds the lock file in the index folder, where a
// snapshot waits for it; once taken, the snapshot leaves nothing beside the
// index but itself.
TEST(IndexSnapshot, WaitsForACommitHoldingTheLockInTheIndexFolder) {
  const TempDir dir;
  const std::string db = build_index(dir, 3);
  const std::set<std::string> before = testing::names_in(dir.path());
  const fs::path dest = dir / "snapshot";
  const int committing =
      open((fs::path(db) / ".commit.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_EQ(flock(committing, LOCK_EX), 0);
  const TempDir elsewhere;
  ChildProcess snapshot(QUARRY_INDEX_BIN, {"--db", db, "--snapshot", dest.string()},
                        elsewhere.path());
  EXPECT_TRUE(blocked_on_a_lock(snapshot)) << snapshot.err();
  EXPECT_FALSE(fs::exists(dest));
  close(committing);
  EXPECT_EQ(snapshot.wait(), 0) << snapshot.err();
  std::set<std::string> after = before;
  after.insert("snapshot");
  EXPECT_EQ(testing::names_in(dir.path()), after);
  EXPECT_EQ(contents(dest.string()), contents(db));
}

}  // namespace
}  // namespace quarry::testing
