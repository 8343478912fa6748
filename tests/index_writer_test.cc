#include "quarry/index/index_writer.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <filesystem>
#include <iterator>
#include <map>
#include <ostream>

#include "lib/index/index_lock.h"
#include "quarry/error.h"
#include "quarry/input/article_reader.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::write_file;

class CollectingObserver : public IndexObserver {
 public:
  void on_problem(const ReadProblem& problem) override { problems.push_back(problem); }
  void on_progress(const IndexReport& so_far) override {
    if (steps.empty() || steps.back() != so_far.step) steps.push_back(so_far.step);
    last_progress = so_far;
  }
  std::vector<ReadProblem> problems;
  std::vector<IndexStep> steps;
  IndexReport last_progress;
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

// The first article of an id is kept, as a second run keeps it: taking the
// last would rewrite it on every run.
TEST(IndexWriter, DuplicateIdsInOneRunKeepTheFirstAndNeverDuplicate) {
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
  EXPECT_EQ(searcher.fetch("x")->title, "First");
  ASSERT_EQ(observer.problems.size(), 1u);
  EXPECT_EQ(observer.problems[0].where.line, 2u);
  EXPECT_TRUE(observer.problems[0].skipped);

  const IndexReport again = index_paths(config, {(dir / "corpus.jsonl").string()});
  EXPECT_EQ(again.updated, 0u);
  EXPECT_EQ(again.unchanged, 1u);
  EXPECT_EQ(again.skipped, 1u);
  EXPECT_EQ(again.skipped_as_before, 1u);
}

TEST(IndexWriter, ARunTellsEachStepAfterReading) {
  TempDir dir;
  write_file(dir / "corpus.jsonl", R"({"id": "a", "title": "Milk", "body": "Milk was thrown."})"
                                   "\n"
                                   R"({"id": "b", "title": "Derby", "body": "A derby was won."})"
                                   "\n");
  const IndexConfig config = config_for(dir);
  CollectingObserver build;
  index_paths(config, {(dir / "corpus.jsonl").string()}, &build);
  // Two articles: no progress while reading, which tells every thousand.
  EXPECT_EQ(build.steps, (std::vector<IndexStep>{IndexStep::kFinishingParts,
                                                 IndexStep::kLinkingStories, IndexStep::kMerging}));
  EXPECT_EQ(build.last_progress.added, 2u);

  CollectingObserver update;
  index_paths(config, {(dir / "corpus.jsonl").string()}, &update);
  EXPECT_EQ(update.steps,
            (std::vector<IndexStep>{IndexStep::kCommitting, IndexStep::kLinkingStories}));
  EXPECT_EQ(update.last_progress.unchanged, 2u);
}

TEST(IndexWriter, UnreadablePathsAreRefusedBeforeAnythingIsWritten) {
  TempDir dir;
  write_file(dir / "a.txt", "An article about milk.");
  write_file(dir / "notes.md", "Not an article.");
  const IndexConfig config = config_for(dir);
  for (const fs::path& bad : {dir / "missing", dir / "notes.md"}) {
    try {
      index_paths(config, {bad.string(), (dir / "a.txt").string()});
      ADD_FAILURE() << "indexed beside " << bad;
    } catch (const InputError& error) {
      EXPECT_EQ(std::string(error.what()).find(bad.string()), 0u) << error.what();
    }
    EXPECT_FALSE(fs::exists(config.db_path)) << bad;
  }
}

TEST(IndexWriter, AFolderOfOtherFilesIsNoIndex) {
  TempDir dir;
  write_file(dir / "articles" / "a.txt", "An article about milk.");
  IndexConfig config = config_for(dir);
  config.db_path = (dir / "articles").string();
  EXPECT_THROW(index_paths(config, {(dir / "articles").string()}), ConfigError);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir / "articles"), fs::directory_iterator()), 1);
  config.db_path = (dir / "articles" / "a.txt").string();
  EXPECT_THROW(index_paths(config, {(dir / "articles").string()}), ConfigError);
  // An index, one database or shards, is updated as ever.
  config.db_path = (dir / "index").string();
  EXPECT_EQ(index_paths(config, {(dir / "articles").string()}).added, 1u);
  EXPECT_EQ(index_paths(config, {(dir / "articles").string()}).unchanged, 1u);
  config.db_path = (dir / "set").string();
  config.shards = 2;
  EXPECT_EQ(index_paths(config, {(dir / "articles").string()}).added, 1u);
  config.shards = 0;
  EXPECT_EQ(index_paths(config, {(dir / "articles").string()}).unchanged, 1u);
}

TEST(IndexWriter, FoldersWithoutArticlesAndOtherFilesAreReported) {
  TempDir dir;
  fs::create_directories(dir / "empty");
  write_file(dir / "mixed" / "a.txt", "An article about milk.");
  for (const char* other : {"a.md", "b.md", "c.html", "Makefile", ".hidden.md"}) {
    write_file(dir / "mixed" / other, "Not an article.");
  }
  write_file(dir / "notes" / "readme.md", "Not an article.");
  CollectingObserver observer;
  const IndexReport report = index_paths(
      config_for(dir),
      {(dir / "empty").string(), (dir / "mixed").string(), (dir / "notes").string()}, &observer);
  EXPECT_EQ(report.added, 1u);
  EXPECT_EQ(report.skipped, 2u);
  ASSERT_EQ(observer.problems.size(), 2u);
  EXPECT_EQ(observer.problems[0].where.path, (dir / "empty").string());
  EXPECT_EQ(observer.problems[1].where.path, (dir / "notes").string());
  // Hidden files are left out without a word, as ever.
  const std::map<std::string, std::size_t> other = {{".md", 3}, {".html", 1}, {"", 1}};
  EXPECT_EQ(report.other_files, other);
}

TEST(IndexWriter, ADateThatIsNoDateIsDroppedAndReported) {
  TempDir dir;
  write_file(dir / "news.jsonl",
             R"({"id": "a", "title": "Milk", "body": "Milk prices.", "date": "yesterday"})"
             "\n"
             R"({"id": "b", "title": "Milk", "body": "Milk again.", "date": "2017-12-10T15:01"})"
             "\n");
  CollectingObserver observer;
  const IndexConfig config = config_for(dir);
  const IndexReport report = index_paths(config, {(dir / "news.jsonl").string()}, &observer);
  EXPECT_EQ(report.added, 2u);
  EXPECT_EQ(report.skipped, 0u);
  ASSERT_EQ(observer.problems.size(), 1u);
  EXPECT_EQ(observer.problems[0].where.line, 1u);
  EXPECT_NE(observer.problems[0].reason.find("'yesterday'"), std::string::npos);
  EXPECT_FALSE(observer.problems[0].skipped);
  Searcher searcher(config.db_path);
  EXPECT_EQ(searcher.fetch("a")->date, "");
  EXPECT_EQ(searcher.fetch("b")->date, "2017-12-10T15:01");
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

// The articles of a folder, as read_articles finds them.
class CollectingSink : public ArticleSink {
 public:
  void on_article(Article&& article, const SourceLocation&) override {
    articles.push_back(std::move(article));
  }
  void on_problem(const ReadProblem& problem) override { ADD_FAILURE() << problem.reason; }
  std::vector<Article> articles;
};

TEST(IndexWriter, LinksTheStoriesOfWhatItWrites) {
  TempDir dir;
  CollectingSink corpus;
  read_articles(QUARRY_CORPUS_DIR, corpus);
  ASSERT_EQ(corpus.articles.size(), 3u);
  const IndexConfig config = config_for(dir);
  {
    IndexWriter writer(config);
    for (const Article& article : corpus.articles) writer.upsert(article, QUARRY_CORPUS_DIR);
    writer.commit();
  }
  SearchOptions options;
  options.collapse.by = Collapse::kStory;
  const SearchResult one_story = Searcher(config.db_path).search("penalty Herrera", options);
  EXPECT_EQ(one_story.total, 3u);
  EXPECT_EQ(one_story.stories, 1u);
  ASSERT_EQ(one_story.hits.size(), 1u);
  EXPECT_EQ(one_story.hits[0].more_total, 2u);

  // A commit links what changed since the last: the story loses a report.
  {
    IndexWriter writer(config);
    writer.upsert(corpus.articles[0], QUARRY_CORPUS_DIR);
    writer.upsert(corpus.articles[1], QUARRY_CORPUS_DIR);
    EXPECT_EQ(writer.delete_unseen(QUARRY_CORPUS_DIR), 1u);
    writer.commit();
  }
  const SearchResult smaller = Searcher(config.db_path).search("penalty Herrera", options);
  ASSERT_EQ(smaller.hits.size(), 1u);
  EXPECT_EQ(smaller.hits[0].more_total, 1u);
}

// Removing by id, in one database and in a shard set, where the id's shard
// holds it: the article is gone from searches, its story shrinks, and an
// id the index does not hold is told apart.
TEST(IndexWriter, RemovesAnArticleById) {
  CollectingSink corpus;
  read_articles(QUARRY_CORPUS_DIR, corpus);
  ASSERT_EQ(corpus.articles.size(), 3u);
  for (std::size_t shards : {0, 3}) {
    SCOPED_TRACE(shards);
    TempDir dir;
    IndexConfig config = config_for(dir);
    config.shards = shards;
    {
      IndexWriter writer(config);
      for (const Article& article : corpus.articles) writer.upsert(article, QUARRY_CORPUS_DIR);
      writer.commit();
    }
    {
      IndexWriter writer(config);
      EXPECT_TRUE(writer.remove(corpus.articles[2].id));
      EXPECT_FALSE(writer.remove(corpus.articles[2].id));
      EXPECT_FALSE(writer.remove("no-such-article"));
      writer.commit();
    }
    Searcher searcher(config.db_path);
    EXPECT_EQ(searcher.article_count(), 2u);
    EXPECT_EQ(searcher.search("id:" + corpus.articles[2].id).total, 0u);
    EXPECT_EQ(searcher.search("id:" + corpus.articles[1].id).total, 1u);
    SearchOptions options;
    options.collapse.by = Collapse::kStory;
    const SearchResult story = searcher.search("penalty Herrera", options);
    ASSERT_EQ(story.hits.size(), 1u);
    EXPECT_EQ(story.hits[0].more_total, 1u);
  }
}

// A note is read back before and after its commit, by the next writer
// too, and one set to "" is gone.
TEST(IndexWriter, KeepsNotesInTheIndex) {
  for (std::size_t shards : {0, 2}) {
    SCOPED_TRACE(shards);
    TempDir dir;
    IndexConfig config = config_for(dir);
    config.shards = shards;
    Article article;
    article.id = "a";
    article.body = "An article about milk.";
    {
      IndexWriter writer(config);
      EXPECT_EQ(writer.note("alerts"), "");
      writer.upsert(article, "here");
      writer.set_note("alerts", "seen a");
      EXPECT_EQ(writer.note("alerts"), "seen a");
      writer.commit();
    }
    {
      IndexWriter writer(config);
      EXPECT_EQ(writer.note("alerts"), "seen a");
      EXPECT_EQ(writer.note("other"), "");
      writer.set_note("alerts", "");
      writer.commit();
    }
    IndexWriter writer(config);
    EXPECT_EQ(writer.note("alerts"), "");
    EXPECT_EQ(Searcher(config.db_path).article_count(), 1u);
  }
}

TEST(IndexWriter, ASecondWriterIsRefusedWhileTheFirstHoldsTheLock) {
  TempDir dir;
  write_file(dir / "a.txt", "An article about milk.");
  IndexConfig config = config_for(dir);
  const std::string locked = "index " + config.db_path + " is locked by another quarry-index";
  auto first = std::make_unique<IndexWriter>(config);
  // Another writer, a run as quarry-index makes, and the lock such a run
  // takes are all refused, however the path is spelled.
  for (const std::string& path : {config.db_path, config.db_path + "/"}) {
    config.db_path = path;
    try {
      IndexWriter second(config);
      ADD_FAILURE() << "a second writer opened " << path;
    } catch (const IndexLockedError& error) {
      EXPECT_EQ(error.what(), locked);
    }
    EXPECT_THROW(index_paths(config, {(dir / "a.txt").string()}), IndexLockedError);
  }
  config = config_for(dir);
  EXPECT_THROW(detail::IndexLock(config.db_path, detail::LockWait(0), nullptr), IndexLockedError);
  first.reset();
  EXPECT_EQ(index_paths(config, {(dir / "a.txt").string()}).added, 1u);
}

TEST(IndexWriter, IsRefusedWhileARunBuildsANewIndex) {
  TempDir dir;
  const IndexConfig config = config_for(dir);
  // What quarry-index holds while it builds a new index, which does not
  // exist until the build is merged.
  const detail::IndexLock run(config.db_path, detail::LockWait(0), nullptr);
  EXPECT_THROW(IndexWriter writer(config), IndexLockedError);
  EXPECT_EQ(testing::names_in(config.db_path), std::set<std::string>{".index.lock"})
      << "no index was written";
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
  EXPECT_THROW(Searcher searcher((dir / "index").string()), IndexError);
}

}  // namespace
}  // namespace quarry
