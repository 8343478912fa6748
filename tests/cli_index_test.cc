// quarry-index run as a user or a script would: incremental runs, what
// cannot be indexed (a usage error that writes nothing), bad inputs
// reported and skipped while the rest is indexed, and a second writer
// refused or waiting as asked while readers carry on.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xapian.h>

#include <chrono>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/cli_fixture.h"
#include "tests/fault_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// How many times `needle` occurs in `text`.
std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

// The folder `db`, made if need be, for a lock file in it.
const fs::path& made(const fs::path& db) {
  fs::create_directories(db);
  return db;
}

// Holds the lock a running quarry-index holds on `db`, in its folder.
class HeldLock {
 public:
  explicit HeldLock(const fs::path& db)
      : fd_(open((made(db) / ".index.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
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

TEST(CliIndexTest, IndexesCorpusThenFindsItUnchanged) {
  TempDir dir;
  RunResult first = run_index(dir / "index", {QUARRY_CORPUS_DIR});
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.err.find(summary("3 added, 0 updated, 0 unchanged, 0 deleted, 0 skipped")),
            std::string::npos)
      << first.err;
  EXPECT_EQ(first.out, "");

  RunResult second = run_index(dir / "index", {QUARRY_CORPUS_DIR});
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.err.find(summary("0 added, 0 updated, 3 unchanged, 0 deleted, 0 skipped")),
            std::string::npos)
      << second.err;
}

TEST(CliIndexTest, ReplacesChangedArticleAndDeletesVanishedOne) {
  TempDir dir;
  const fs::path corpus = dir / "corpus";
  fs::copy(QUARRY_CORPUS_DIR, corpus);
  ASSERT_EQ(run_index(dir / "index", {corpus.string()}).exit_code, 0);

  write_file(corpus / kRaucous, "A xylophone recital at Old Trafford.\n\nNothing else happened.\n");
  fs::remove(corpus / kKompany);
  RunResult update = run_index(dir / "index", {corpus.string()});
  EXPECT_EQ(update.exit_code, 0) << update.err;
  EXPECT_NE(update.err.find(summary("0 added, 1 updated, 1 unchanged, 1 deleted, 0 skipped")),
            std::string::npos)
      << update.err;

  expect_finds(dir / "index", {
                                  {"xylophone", {kRaucous}},  // the new text of the changed article
                                  {"raucous", {}},            // its old text
                                  {"kompany", {}},            // only in the deleted article
                                  {"Portuguese", {kAmazon}},  // no longer in the deleted article
                                  {"Mourinho", {kAmazon}},
                              });
}

TEST(CliIndexTest, APathThatCannotBeReadIsAUsageError) {
  TempDir dir;
  write_file(dir / "notes.md", "Not an article.");
  for (const fs::path& bad : {dir / "missing.txt", dir / "notes.md"}) {
    RunResult result = run_index(dir / "index", {QUARRY_CORPUS_DIR, bad.string()});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_EQ(lines_of(result.err).size(), 1u) << result.err;
    EXPECT_TRUE(result.err.starts_with("quarry-index: " + bad.string() + ": ")) << result.err;
    EXPECT_EQ(occurrences(result.err, bad.string()), 1u) << "named once: " << result.err;
    EXPECT_FALSE(fs::exists(dir / "index")) << bad;
    EXPECT_EQ(names_in(dir.path()), (std::set<std::string>{"notes.md"})) << bad;
  }
}

TEST(CliIndexTest, AnIndexIsNeverWrittenAmongOtherFiles) {
  TempDir dir;
  fs::copy(QUARRY_CORPUS_DIR, dir / "articles");
  RunResult result = run_index(dir / "articles", {(dir / "articles").string()});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("holds files that are not an index; choose an empty or new folder"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(std::distance(fs::directory_iterator(dir / "articles"), fs::directory_iterator()), 3);
}

TEST(CliIndexTest, EmptyPathsAndPipesAreUsageErrorsThatWriteNothing) {
  TempDir dir;
  fs::create_directory(dir / "work");
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const fs::path fifo_corpus = dir / "news.jsonl";
  ASSERT_EQ(mkfifo(fifo_corpus.c_str(), 0600), 0);
  // Run from a folder of its own, where an empty path would write.
  const fs::path before = fs::current_path();
  fs::current_path(dir / "work");
  const RunResult empty = run_program(QUARRY_INDEX_BIN, {"--db", "", QUARRY_CORPUS_DIR});
  const RunResult piped = run_index(fifo, {QUARRY_CORPUS_DIR});
  const RunResult piped_in = run_index(dir / "index", {fifo_corpus.string()});
  const RunResult searched = run_program(QUARRY_BIN, {"--db", "", "Ederson"});
  fs::current_path(before);
  for (const RunResult& result : {empty, piped, piped_in, searched}) {
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_EQ(lines_of(result.err).size(), 1u) << result.err;
    EXPECT_EQ(result.out, "");
  }
  EXPECT_TRUE(names_in(dir / "work").empty());
  EXPECT_EQ(names_in(dir.path()), (std::set<std::string>{"fifo", "news.jsonl", "work"}));
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_TRUE(fs::is_fifo(fifo_corpus));
}

TEST(CliIndexTest, AnEmptyFolderWarnsAndOtherFilesAreNamedOnce) {
  TempDir dir;
  fs::create_directories(dir / "empty");
  // Nothing to make a new index of: refused, and nothing is left behind.
  RunResult nothing = run_index(dir / "new-index", {(dir / "empty").string()});
  EXPECT_EQ(nothing.exit_code, 2) << nothing.err;
  EXPECT_EQ(nothing.err, "quarry-index: nothing to index in " + (dir / "empty").string() +
                             ": no .txt, .jsonl or .jsonl.gz file; no index was made at " +
                             (dir / "new-index").string() + "\n");
  EXPECT_EQ(names_in(dir.path()), (std::set<std::string>{"empty"}));
  // Beside articles, or into an index that exists, an empty folder is named.
  ASSERT_EQ(run_index(dir / "index", {QUARRY_CORPUS_DIR}).exit_code, 0);
  RunResult empty = run_index(dir / "index", {(dir / "empty").string()});
  EXPECT_EQ(empty.exit_code, 3) << empty.err;
  EXPECT_NE(empty.err.find((dir / "empty").string() +
                           ": no .txt, .jsonl or .jsonl.gz file in this folder (skipped)"),
            std::string::npos)
      << empty.err;

  fs::copy(QUARRY_CORPUS_DIR, dir / "mixed");
  for (const char* other : {"a.md", "b.md", "c.html", "d.csv"}) {
    write_file(dir / "mixed" / other, "Not an article.");
  }
  RunResult mixed = run_index(dir / "mixed-index", {(dir / "mixed").string()});
  EXPECT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_NE(mixed.err.find("quarry-index: skipped 4 files of unknown kinds: .md ×2, .csv, .html\n"),
            std::string::npos)
      << mixed.err;
  EXPECT_EQ(occurrences(mixed.err, ".md"), 1u) << mixed.err;
  // Quiet runs still say so: the files were left out.
  RunResult quiet = run_index(dir / "quiet-index", {"--quiet", (dir / "mixed").string()});
  EXPECT_EQ(quiet.err, "quarry-index: skipped 4 files of unknown kinds: .md ×2, .csv, .html\n");
}

TEST(CliIndexTest, ADateThatIsNoDateIsDroppedWithAWarning) {
  TempDir dir;
  write_file(dir / "news.jsonl",
             R"({"id": "a", "title": "Milk", "body": "Milk prices.", "date": "yesterday"})"
             "\n");
  RunResult result = run_index(dir / "index", {(dir / "news.jsonl").string()});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find((dir / "news.jsonl").string() +
                            ":1: date 'yesterday' is not an ISO 8601 date (YYYY-MM-DD): the "
                            "article is kept without it\n"),
            std::string::npos)
      << result.err;
  const json found = json::parse(run_quarry(dir / "index", {"--format", "json", "milk"}).out);
  ASSERT_EQ(found.at("hits").size(), 1u);
  EXPECT_FALSE(found.at("hits")[0].contains("date")) << found.dump();
}

// A value past its field's limit is cut, and a message quotes no more than
// the start of one: a 10 KB language, a 300 KB category.
TEST(CliIndexTest, LongFieldValuesAreCutAndQuotedShort) {
  TempDir dir;
  const fs::path news = dir / "news.jsonl";
  write_file(news, R"({"id": "a", "title": "Milk", "body": "Milk prices.", "language": ")" +
                       std::string(10 * 1024, 'x') + "\"}\n" +
                       R"({"id": "b", "title": "Milk", "body": "Milk shortage.", "category": ")" +
                       std::string(300 * 1024, 'c') + "\"}\n");
  RunResult result = run_index(dir / "index", {news.string()});
  EXPECT_EQ(result.exit_code, 0) << result.err.substr(0, 1000);
  for (const std::string& line : lines_of(result.err)) EXPECT_LT(line.size(), 300u) << line;
  EXPECT_NE(result.err.find(news.string() + ":1: language '" + std::string(64, 'x') +
                            "…' is not one Quarry can stem"),
            std::string::npos)
      << result.err.substr(0, 1000);
  EXPECT_NE(result.err.find(news.string() +
                            ":2: category of 307200 bytes is longer than 256: only its first 256 "
                            "bytes are kept\n"),
            std::string::npos)
      << result.err.substr(0, 1000);
  const json found = json::parse(
      run_quarry(dir / "index", {"--format", "json", "--facets", "category", "milk"}).out);
  ASSERT_EQ(found.at("hits").size(), 2u);
  EXPECT_EQ(found.at("facets").at("category"),
            json::parse(R"([[")" + std::string(256, 'c') + R"(", 1]])"));
}

TEST(CliIndexTest, ARunThatMeetsOnlyProblemsReportedBeforeSaysSoOnceAndSucceeds) {
  TempDir dir;
  const fs::path corpus = dir / "news.jsonl";
  const std::string good = R"({"id": "a", "title": "Milk", "body": "Milk prices."})"
                           "\n";
  const std::string empty = R"({"id": "b", "title": "", "body": " "})"
                            "\n";
  const std::string undated =
      R"({"id": "c", "title": "Derby", "body": "A derby.", "date": "yesterday"})"
      "\n";
  write_file(corpus, good + empty + undated);
  RunResult first = run_index(dir / "index", {corpus.string()});
  EXPECT_EQ(first.exit_code, 3) << first.err;
  EXPECT_NE(first.err.find(":2: empty article (skipped)\n"), std::string::npos) << first.err;
  EXPECT_NE(first.err.find(":3: date 'yesterday'"), std::string::npos) << first.err;

  RunResult again = run_index(dir / "index", {corpus.string()});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.err.find("empty article"), std::string::npos) << again.err;
  EXPECT_EQ(again.err.find("yesterday"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("quarry-index: 1 warning of an earlier run not repeated: its file is "
                           "unchanged\n"),
            std::string::npos)
      << again.err;
  EXPECT_NE(again.err.find(" 2 unchanged, 0 deleted, 1 skipped, as before, in "), std::string::npos)
      << again.err;

  // A new problem in the file is news, and the run fails again: the old one
  // is named again too, since its file changed.
  write_file(corpus, good + empty + undated + R"({"id": "d"})" + "\n");
  RunResult changed = run_index(dir / "index", {corpus.string()});
  EXPECT_EQ(changed.exit_code, 3) << changed.err;
  EXPECT_NE(changed.err.find(":4: field \"body\" must be a string (skipped)\n"), std::string::npos)
      << changed.err;
  EXPECT_NE(changed.err.find(":2: empty article (skipped)\n"), std::string::npos) << changed.err;
  EXPECT_NE(changed.err.find(" 2 skipped in "), std::string::npos) << changed.err;

  // Fixed: nothing is skipped, and nothing old is remembered.
  write_file(corpus, good);
  RunResult fixed = run_index(dir / "index", {corpus.string()});
  EXPECT_EQ(fixed.exit_code, 0) << fixed.err;
  EXPECT_NE(fixed.err.find(" 1 unchanged, 1 deleted, 0 skipped in "), std::string::npos)
      << fixed.err;
}

TEST(CliIndexTest, SkipsBrokenFilesAndIndexesTheRest) {
  TempDir dir;
  const fs::path corpus = dir / "corpus";
  write_file(corpus / "good.txt", "A quokka smiles.\n\nThe quokka lives on Rottnest Island.\n");
  constexpr char kBinary[] =
      "\x7f"
      "ELF\2\1\1\0\0\0\0 quokka \0\0\x3e\0";
  write_file(corpus / "binary.txt", std::string(kBinary, sizeof kBinary - 1));
  write_file(corpus / "invalid_utf8.txt",
             "The wombat\xff\xfe sleeps.\n\nA wombat digs a burrow \xc3\x28 at night.\n");
  write_file(corpus / "empty.txt", "");
  write_file(corpus / "articles.jsonl",
             R"({"id": "j1", "title": "Narwhal", "body": "The narwhal swims under the ice."})"
             "\n"
             R"({"id": "j2", "title": "Broken", "body": "never closed)"
             "\n"
             R"({"id": "j3", "title": "Platypus", "body": "The platypus lays eggs."})"
             "\n");

  RunResult indexed = run_index(dir / "index", {corpus.string()});
  EXPECT_EQ(indexed.exit_code, 3) << indexed.err;
  for (const std::string bad :
       {"binary.txt", "invalid_utf8.txt", "empty.txt", "articles.jsonl:2"}) {
    EXPECT_NE(indexed.err.find(bad), std::string::npos) << bad << " not named in:\n" << indexed.err;
  }
  EXPECT_EQ(indexed.err.find("articles.jsonl:1"), std::string::npos) << indexed.err;
  EXPECT_EQ(indexed.err.find("articles.jsonl:3"), std::string::npos) << indexed.err;
  EXPECT_NE(indexed.err.find("quarry-index: 4 added, 0 updated"), std::string::npos) << indexed.err;

  expect_finds(dir / "index", {
                                  {"quokka", {"good.txt"}},
                                  {"wombat", {"invalid_utf8.txt"}},
                                  {"narwhal", {"j1"}},
                                  {"platypus", {"j3"}},
                                  {"closed", {}},
                              });
}

TEST_F(CliCorpusTest, LockedIndexRefusesWriterButServesSearches) {
  Xapian::WritableDatabase holder(db().string(), Xapian::DB_OPEN);

  RunResult indexed = run_index(db(), {QUARRY_CORPUS_DIR});
  EXPECT_EQ(indexed.exit_code, 1) << indexed.err;
  EXPECT_NE(indexed.err.find("locked"), std::string::npos) << indexed.err;
  EXPECT_TRUE(indexed.err.starts_with("quarry-index: ")) << indexed.err;

  json result = search_json("Ederson");
  EXPECT_EQ(id_set(result), kAllArticles);
}

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
  EXPECT_EQ(names_in(db), (std::set<std::string>{".index.lock"}));

  // A bounded wait gives up after about that long.
  const RunResult gave_up =
      run_program(QUARRY_INDEX_BIN, index_args(db, {dir / "a.jsonl"}, {"--wait=1"}));
  const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(gave_up.exit_code, 1) << gave_up.err;
  EXPECT_NE(gave_up.err.find("locked by another quarry-index"), std::string::npos);
  EXPECT_GE(waited.count(), 1.0);
  EXPECT_LT(waited, time_allowed(std::chrono::seconds(5)));

  // --wait alone waits until the other run ends, then indexes.
  ChildProcess waiting(QUARRY_INDEX_BIN, index_args(db, {dir / "a.jsonl"}, {"--wait"}), dir.path());
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  EXPECT_TRUE(waiting.running());
  lock.release();
  EXPECT_EQ(waiting.wait(), 0) << waiting.err();
  EXPECT_EQ(index_discrepancies(db, synthetic_ids("a", 20)), "");

  const RunResult bad =
      run_program(QUARRY_INDEX_BIN, index_args(db, {dir / "a.jsonl"}, {"--wait=-3"}));
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
}

}  // namespace
}  // namespace quarry::testing
