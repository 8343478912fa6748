// Shards searched as one database: local shards, their stub file, shards
// served by xapian-tcpsrv and stub files written by hand give the answers
// of one database of the same articles, in the same order.
#include <gtest/gtest.h>
#include <xapian.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "app/terminal/prompt.h"
#include "lib/search/hit_order.h"
#include "quarry/error.h"
#include "tests/shard_fixture.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

// Articles whose every word is the same, so every query scores them the
// same: only the order of equal scores tells them apart. Listed in an order
// that is neither by date nor by id, so that document numbers (what Xapian
// would order them by) give another order.
std::vector<Article> twins() {
  const std::vector<std::pair<std::string, std::string>> ids_and_dates = {
      {"t-07", "2017-12-01"}, {"t-02", ""}, {"t-11", "2017-12-09"}, {"t-05", "2017-12-09"},
      {"t-01", "2017-11-30"}, {"t-09", ""}, {"t-03", "2018-01-02"}, {"t-10", "2017-12-09"},
      {"t-04", "2017-11-30"}, {"t-08", ""}, {"t-06", "2016-05-05"}, {"t-12", "2017-12-01"}};
  std::vector<Article> articles;
  for (const auto& [id, date] : ids_and_dates) {
    articles.push_back({id, "Coffee prices", "Coffee prices rose again.", date, "", "Reuters"});
  }
  return articles;
}

// Newest first, articles without a date last, then by id.
const std::vector<std::string> kTwinsInOrder = {"t-03", "t-05", "t-10", "t-11", "t-07", "t-12",
                                                "t-01", "t-04", "t-06", "t-02", "t-08", "t-09"};

std::vector<std::string> page_ids(Searcher& searcher, const std::string& query,
                                  std::size_t offset) {
  SearchOptions options;
  options.limit = 5;
  options.offset = offset;
  std::vector<std::string> ids;
  for (const Hit& hit : searcher.search(query, options).hits) ids.push_back(hit.id);
  return ids;
}

TEST(ShardSet, LocalShardsSearchAsOneDatabase) {
  TempDir dir;
  const std::string one_path = build(dir, "one", 0);
  const std::string set = build(dir, "set", 3);
  Searcher one(one_path);

  Searcher folder(set);
  expect_same_results(one, folder, "the folder");
  Searcher stub_file(std::vector<std::string>{(fs::path(set) / "XAPIANDB").string()});
  expect_same_results(one, stub_file, "its stub file");
  Searcher listed(std::vector<std::string>{lexicon_path(set), shard_path(set, 0),
                                           shard_path(set, 1), shard_path(set, 2)});
  expect_same_results(one, listed, "each database given");
  // Without the lexicon, the shards' own spelling data adds up to the
  // whole; only the synonyms live in the lexicon alone.
  Searcher shards_only(
      std::vector<std::string>{shard_path(set, 0), shard_path(set, 1), shard_path(set, 2)});
  expect_same_results(one, shards_only, "the shards alone", without(kShardQueries, "soccer"));

  EXPECT_EQ(folder.search("Guardiolla prices").suggestion, "Guardiola prices");
  EXPECT_GT(folder.search("soccer").hits.size(), 0u);
  const IndexStats stats = folder.stats();
  EXPECT_EQ(stats.articles, kShardArticles);
  EXPECT_EQ(stats.shards, 3u);
  EXPECT_GT(stats.bytes_on_disk, 0u);
  EXPECT_EQ(stats.distinct_words, one.stats().distinct_words);
}

TEST(ShardSet, LexiconSpellingEqualsOneDatabases) {
  TempDir dir;
  const std::string one_path = build(dir, "one", 0);
  const std::string set = build(dir, "set", 2);
  EXPECT_EQ(spelling_of(Xapian::Database(lexicon_path(set))),
            spelling_of(Xapian::Database(one_path)));
}

TEST(ShardSet, RemoteShardsSearchAsOneDatabase) {
  TempDir dir;
  const std::string one_path = build(dir, "one", 0);
  ServedSet served(dir);

  Searcher one(one_path);
  Searcher remote(std::vector<std::string>{served.stub});
  expect_same_results(one, remote, "remote shards");
  EXPECT_EQ(remote.article_count(), kShardArticles);
  EXPECT_EQ(remote.stats().remote_shards, 2u);

  // Sorted by date, the servers order by the day, as one database does
  // articles without times (Xapian's remote protocol takes no key maker,
  // which keeps to the time of day).
  for (SortOrder sort : {SortOrder::kOldestFirst, SortOrder::kNewestFirst}) {
    SearchOptions options;
    options.sort = sort;
    options.limit = kShardArticles;
    std::vector<std::string> one_dates, remote_dates;
    for (const Hit& hit : one.search("oil OR prices", options).hits) one_dates.push_back(hit.date);
    for (const Hit& hit : remote.search("oil OR prices", options).hits) {
      remote_dates.push_back(hit.date);
    }
    EXPECT_FALSE(one_dates.empty());
    EXPECT_EQ(remote_dates, one_dates);
  }

  // The whole article comes from whichever shard holds it.
  for (const Hit& hit : one.search("oil prices").hits) {
    const std::optional<Article> fetched = remote.fetch(hit.id);
    ASSERT_TRUE(fetched) << hit.id;
    EXPECT_EQ(fetched->body, one.fetch(hit.id)->body);
  }
  std::istringstream lines("Unique7word\n:show 1\n");
  std::ostringstream out, diagnostics;
  answer_lines(remote, lines, {}, out, diagnostics, "quarry");
  EXPECT_NE(out.str().find(one.fetch("story-7")->body), std::string::npos) << out.str();
  EXPECT_EQ(diagnostics.str(), "");
}

TEST(ShardSet, EqualScoresComeInOneOrderEverywhere) {
  TempDir dir;
  Searcher one(build(dir, "one", 0, twins()));
  Searcher local(build(dir, "local", 3, twins()));
  const std::string set = build(dir, "set", 2, twins());
  TcpServer first({shard_path(set, 0)});
  TcpServer second({shard_path(set, 1)});
  Searcher remote(std::vector<std::string>{remote_stub(dir, set, {&first, &second})});
  for (const std::string query : {"coffee", "title:coffee", "coffee prices", "\"coffee prices\""}) {
    SCOPED_TRACE(query);
    std::vector<std::string> ids;
    for (std::size_t offset = 0; offset < kTwinsInOrder.size(); offset += 5) {
      const std::vector<std::string> page = page_ids(one, query, offset);
      EXPECT_EQ(page_ids(local, query, offset), page) << "local shards, from " << offset;
      EXPECT_EQ(page_ids(remote, query, offset), page) << "remote shards, from " << offset;
      ids.insert(ids.end(), page.begin(), page.end());
    }
    EXPECT_EQ(ids, kTwinsInOrder);
  }
}

TEST(ShardSet, NearlyEqualScoresAreTies) {
  // Scores that differ in their last bits, as sums in another order do.
  std::vector<Hit> hits(4);
  const std::vector<std::pair<std::string, std::string>> ids_and_dates = {
      {"b", "2017-01-01"}, {"a", "2017-01-01"}, {"c", "2018-01-01"}, {"d", "2019-01-01"}};
  const double scores[] = {2.0, 2.0 * (1 - 1e-14), 2.0 * (1 + 1e-15), 1.5};
  for (std::size_t i = 0; i < hits.size(); ++i) {
    hits[i].rank = i + 1;
    hits[i].id = ids_and_dates[i].first;
    hits[i].date = ids_and_dates[i].second;
    hits[i].score = scores[i];
  }
  detail::order_near_ties(&hits);
  std::vector<std::string> ids;
  for (const Hit& hit : hits) ids.push_back(hit.id);
  // The first three tie: newest first, then by id; a lower score stays last.
  EXPECT_EQ(ids, (std::vector<std::string>{"c", "a", "b", "d"}));
  for (std::size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i].rank, i + 1);
}

TEST(ShardSet, StubFilesAreReadAsXapianDoes) {
  TempDir dir;
  const std::string one_path = build(dir, "one", 0);
  const std::string set = build(dir, "set", 2);
  // Relative to the stub's folder, with comments and blank lines.
  write_file(dir / "stubs" / "all",
             "# the shards of set\n\nauto ../set/lexicon\nauto ../set/shard-0\n"
             "glass ../set/shard-1\n");
  Searcher one(one_path);
  Searcher stub(std::vector<std::string>{(dir / "stubs" / "all").string()});
  expect_same_results(one, stub, "a hand-written stub");
  // Xapian opens the same file as the same database.
  EXPECT_EQ(Xapian::Database((dir / "stubs" / "all").string()).get_doccount(), kShardArticles);

  write_file(dir / "stubs" / "bad", "auto ../set/lexicon\nflint ../set/shard-0\n");
  try {
    Searcher bad(std::vector<std::string>{(dir / "stubs" / "bad").string()});
    FAIL() << "a line that is not a database must be an error";
  } catch (const IndexError& error) {
    EXPECT_NE(std::string(error.what()).find((dir / "stubs" / "bad").string() + ":2: "),
              std::string::npos)
        << error.what();
  }

  write_file(dir / "stubs" / "missing", "auto ../set/shard-0\nauto ../set/shard-9\n");
  EXPECT_THROW(Searcher(std::vector<std::string>{(dir / "stubs" / "missing").string()}),
               IndexError);
  const OpenOptions partial = allowing_partial();
  Searcher rest(std::vector<std::string>{(dir / "stubs" / "missing").string()}, partial);
  const SearchResult result = rest.search("oil");
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_NE(result.warnings[0].find("shard-9 cannot be opened"), std::string::npos)
      << result.warnings[0];
  EXPECT_GT(result.hits.size(), 0u);

  EXPECT_THROW(Searcher(std::vector<std::string>{}), ConfigError);
}

}  // namespace
}  // namespace quarry::testing
