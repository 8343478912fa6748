#include "quarry/index/index_writer.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <ostream>

#include "quarry/error.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::TempDir;
using testing::write_file;

class CollectingObserver : public IndexObserver {
 public:
  void on_problem(const ReadProblem& problem) override { problems.push_back(problem); }
  std::vector<ReadProblem> problems;
};

IndexConfig config_for(const TempDir& dir) {
  IndexConfig config;
  config.db_path = (dir / "index").string();
  return config;
}

// A report's counts, compared as one so that a failure shows them all side
// by side.
struct Tally {
  std::size_t added, updated, unchanged, deleted, skipped;
  bool operator==(const Tally&) const = default;
};

void PrintTo(const Tally& tally, std::ostream* out) {
  *out << "{added " << tally.added << ", updated " << tally.updated << ", unchanged "
       << tally.unchanged << ", deleted " << tally.deleted << ", skipped " << tally.skipped << "}";
}

void expect_tally(const IndexReport& report, Tally tally) {
  EXPECT_EQ((Tally{report.added, report.updated, report.unchanged, report.deleted, report.skipped}),
            tally);
}

TEST(IndexWriter, ReindexingIsIncremental) {
  TempDir dir;
  const auto articles = dir / "articles";
  write_file(articles / "a.txt", "Milk thrown\n\nMourinho had milk thrown at him.");
  write_file(articles / "b.txt", "Penalty row\n\nA penalty appeal was rejected.");
  write_file(articles / "c.txt", "Goalkeeper\n\nEderson was involved.");
  const IndexConfig config = config_for(dir);

  expect_tally(index_paths(config, {articles.string()}), {3, 0, 0, 0, 0});
  expect_tally(index_paths(config, {articles.string()}), {0, 0, 3, 0, 0});

  write_file(articles / "b.txt", "Penalty row\n\nA penalty appeal by Herrera was rejected.");
  std::filesystem::remove(articles / "c.txt");
  expect_tally(index_paths(config, {articles.string()}), {0, 1, 1, 1, 0});

  Searcher searcher(config.db_path);
  EXPECT_EQ(searcher.article_count(), 2u);
  EXPECT_EQ(searcher.search("Herrera").hits.size(), 1u);
  EXPECT_TRUE(searcher.search("Ederson").hits.empty());
  EXPECT_FALSE(searcher.fetch("c.txt").has_value());
}

TEST(IndexWriter, ArticlesOfOtherFoldersAreNotDeleted) {
  TempDir dir;
  write_file(dir / "one" / "a.txt", "First folder article about milk.");
  write_file(dir / "two" / "b.txt", "Second folder article about water.");
  const IndexConfig config = config_for(dir);
  index_paths(config, {(dir / "one").string(), (dir / "two").string()});
  expect_tally(index_paths(config, {(dir / "one").string()}), {0, 0, 1, 0, 0});
  EXPECT_EQ(Searcher(config.db_path).article_count(), 2u);
}

TEST(IndexWriter, DuplicateIdsInOneRunKeepTheLastAndNeverDuplicate) {
  TempDir dir;
  write_file(dir / "corpus.jsonl", R"({"id": "x", "title": "First", "body": "first version"})"
                                   "\n"
                                   R"({"id": "x", "title": "Second", "body": "second version"})"
                                   "\n");
  CollectingObserver observer;
  const IndexConfig config = config_for(dir);
  index_paths(config, {(dir / "corpus.jsonl").string()}, &observer);
  Searcher searcher(config.db_path);
  EXPECT_EQ(searcher.article_count(), 1u);
  EXPECT_EQ(searcher.fetch("x")->title, "Second");
  ASSERT_EQ(observer.problems.size(), 1u);
  EXPECT_EQ(observer.problems[0].where.line, 2u);
}

TEST(IndexWriter, MissingPathIsReportedAndTheRestIndexed) {
  TempDir dir;
  write_file(dir / "a.txt", "An article about milk.");
  CollectingObserver observer;
  const IndexConfig config = config_for(dir);
  IndexReport report =
      index_paths(config, {(dir / "missing").string(), (dir / "a.txt").string()}, &observer);
  EXPECT_EQ(report.added, 1u);
  EXPECT_EQ(report.skipped, 1u);
  ASSERT_EQ(observer.problems.size(), 1u);
  EXPECT_EQ(observer.problems[0].where.path, (dir / "missing").string());
}

TEST(IndexWriter, StoresTheLanguageAndRefusesAnother) {
  TempDir dir;
  write_file(dir / "a.txt", "Les joueurs continuellement.");
  IndexConfig config = config_for(dir);
  config.language = "french";
  index_paths(config, {(dir / "a.txt").string()});
  EXPECT_EQ(Searcher(config.db_path).analyzer().config().language, "french");
  config.language = "german";
  EXPECT_THROW(index_paths(config, {(dir / "a.txt").string()}), ConfigError);
  config.language.clear();
  EXPECT_NO_THROW(index_paths(config, {(dir / "a.txt").string()}));
}

TEST(IndexWriter, SecondWriterGetsALockError) {
  TempDir dir;
  const IndexConfig config = config_for(dir);
  IndexWriter first(config);
  EXPECT_THROW(IndexWriter second(config), IndexLockedError);
}

TEST(IndexWriter, CancelledRunDeletesNothingAndTheNextRunCompletes) {
  TempDir dir;
  const auto articles = dir / "articles";
  auto write_article = [&](int i) {
    write_file(articles / ("a" + std::to_string(100 + i) + ".txt"),
               "Article number " + std::to_string(i) + " about milk.");
  };
  for (int i = 0; i < 20; ++i) write_article(i);
  std::atomic<bool> cancel{false};
  IndexConfig config = config_for(dir);
  config.commit_every = 3;
  config.cancel = &cancel;
  index_paths(config, {articles.string()});

  for (int i = 20; i < 30; ++i) write_article(i);
  for (int i = 0; i < 5; ++i)
    std::filesystem::remove(articles / ("a" + std::to_string(100 + i) + ".txt"));
  cancel = true;
  IndexReport interrupted = index_paths(config, {articles.string()});
  EXPECT_TRUE(interrupted.cancelled);
  EXPECT_EQ(interrupted.deleted, 0u);
  EXPECT_EQ(Searcher(config.db_path).article_count(), 20u);

  cancel = false;
  expect_tally(index_paths(config, {articles.string()}), {10, 0, 15, 5, 0});
  EXPECT_EQ(Searcher(config.db_path).article_count(), 25u);
}

TEST(IndexWriter, ForeignXapianDatabaseIsRefused) {
  TempDir dir;
  {
    Xapian::WritableDatabase foreign((dir / "index").string(), Xapian::DB_CREATE);
    foreign.add_document(Xapian::Document());
    foreign.commit();
  }
  EXPECT_THROW(IndexWriter writer(config_for(dir)), IndexError);
}

}  // namespace
}  // namespace quarry
