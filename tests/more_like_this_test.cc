// Articles like a given one (SearchOptions::like, quarry --like, the
// prompt's :like), on one database and on shards.
#include "lib/search/more_like_this.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/terminal/prompt.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "tests/child_process.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

constexpr std::size_t kPerTopic = 12;

// Articles of two topics that share only common words: an article's likes
// are the articles of its own topic.
std::vector<Article> two_topics() {
  const std::vector<std::string> sport = {"goal",   "striker", "penalty", "referee",
                                          "league", "keeper",  "derby",   "midfield"};
  const std::vector<std::string> money = {"shares", "profit",   "dividend", "investors",
                                          "bond",   "earnings", "merger",   "inflation"};
  std::vector<Article> articles;
  for (std::size_t n = 0; n < 2 * kPerTopic; ++n) {
    const bool is_sport = n % 2 == 0;
    const std::vector<std::string>& words = is_sport ? sport : money;
    Article article;
    article.id = (is_sport ? "sport-" : "money-") + std::to_string(n / 2);
    article.title = "Report " + std::to_string(n);
    for (std::size_t w = 0; w < 40; ++w) {
      article.body += words[(n * 7 + w * (w + 3)) % words.size()] + " ";
      if (w % 5 == 0) article.body += "the week said ";
    }
    article.category = is_sport ? "sport" : "business";
    article.date = "2024-01-" + std::string(n + 1 < 10 ? "0" : "") + std::to_string(n + 1);
    articles.push_back(std::move(article));
  }
  return articles;
}

std::string build(const TempDir& dir, const std::string& name, std::size_t shards) {
  write_file(dir / (name + ".jsonl"), to_json_lines(two_topics()));
  IndexConfig config;
  config.db_path = (dir / name).string();
  config.shards = shards;
  index_paths(config, {(dir / (name + ".jsonl")).string()});
  return config.db_path;
}

SearchOptions like(const std::string& id) {
  SearchOptions options;
  options.limit = 100;
  options.like.id = id;
  return options;
}

TEST(MoreLikeThis, FindsArticlesOfTheSameTopicButNotItself) {
  TempDir dir;
  Searcher searcher(build(dir, "index", 0));
  const SearchResult result = searcher.search("", like("sport-3"));
  ASSERT_GE(result.hits.size(), kPerTopic - 1);
  for (std::size_t i = 0; i < kPerTopic - 1; ++i) {
    EXPECT_EQ(result.hits[i].category, "sport") << result.hits[i].id;
  }
  for (const Hit& hit : result.hits) EXPECT_NE(hit.id, "sport-3");
  EXPECT_FALSE(result.highlight.stems.empty());
}

TEST(MoreLikeThis, AQueryNarrowsTheHits) {
  TempDir dir;
  Searcher searcher(build(dir, "index", 0));
  const SearchResult all = searcher.search("", like("money-2"));
  const SearchResult narrowed = searcher.search("date:2024-01-01..2024-01-10", like("money-2"));
  ASSERT_FALSE(narrowed.hits.empty());
  EXPECT_LT(narrowed.total, all.total);
  for (const Hit& hit : narrowed.hits) {
    EXPECT_LE(hit.date, "2024-01-10") << hit.id;
    EXPECT_EQ(hit.category, "business") << hit.id;
  }
  // A query of words narrows too, and its words are the ones highlighted.
  const SearchResult words = searcher.search("penalty", like("sport-1"));
  ASSERT_FALSE(words.hits.empty());
  EXPECT_EQ(words.highlight.stems, std::vector<std::string>{"penalti"});
}

TEST(MoreLikeThis, AnUnknownIdIsAnError) {
  TempDir dir;
  Searcher searcher(build(dir, "index", 0));
  EXPECT_THROW(searcher.search("", like("sport-99")), UnknownArticleError);
  try {
    searcher.search("", like("sport-99"));
  } catch (const QueryError& error) {
    EXPECT_EQ(std::string(error.what()), "no article has the id \"sport-99\"");
  }
}

TEST(MoreLikeThis, ShardsFindWhatOneDatabaseFinds) {
  TempDir dir;
  Searcher one(build(dir, "one", 0));
  Searcher two(build(dir, "two", 2));
  for (const std::string id : {"sport-0", "money-5"}) {
    const SearchResult a = one.search("", like(id));
    const SearchResult b = two.search("", like(id));
    ASSERT_EQ(a.hits.size(), b.hits.size()) << id;
    EXPECT_EQ(a.total, b.total);
    for (std::size_t i = 0; i < a.hits.size(); ++i) {
      EXPECT_EQ(a.hits[i].id, b.hits[i].id) << id << " rank " << i + 1;
      EXPECT_NEAR(a.hits[i].score, b.hits[i].score, 1e-9 * a.hits[i].score);
    }
  }
}

TEST(MoreLikeThis, PromptLikesAHitOfTheLastResults) {
  TempDir dir;
  Searcher searcher(build(dir, "index", 0));
  std::ostringstream out, diagnostics;
  PromptConfig config;
  config.session.search.limit = 5;
  config.session.search.snippets.enabled = false;
  PromptSession session(searcher, config, out, diagnostics, "quarry");
  session.handle(":like 1");
  EXPECT_NE(diagnostics.str().find("no query yet"), std::string::npos);
  session.handle("profit");
  const SearchResult first = searcher.search("profit", config.session.search);
  ASSERT_FALSE(first.hits.empty());
  out.str("");
  session.handle(":like 1");
  SearchOptions options = config.session.search;
  options.like.id = first.hits[0].id;
  const SearchResult expected = searcher.search("", options);
  ASSERT_FALSE(expected.hits.empty());
  for (const Hit& hit : expected.hits) {
    EXPECT_NE(out.str().find(hit.id), std::string::npos) << hit.id;
    EXPECT_EQ(hit.category, "business");
  }
  EXPECT_EQ(out.str().find(first.hits[0].id + " "), std::string::npos);
  // :next pages through the articles like it.
  out.str("");
  session.handle(":next");
  options.offset = 5;
  const SearchResult page2 = searcher.search("", options);
  ASSERT_FALSE(page2.hits.empty());
  EXPECT_NE(out.str().find(page2.hits[0].id), std::string::npos);
  EXPECT_EQ(session.problems(), 1u);
}

RunResult quarry(const std::vector<std::string>& args) { return run_program(QUARRY_BIN, args); }

TEST(MoreLikeThisCli, LikeOnTheSampleCorpusAndOnTwoShards) {
  TempDir dir;
  const std::string one = (dir / "one").string();
  const std::string two = (dir / "two").string();
  ASSERT_EQ(run_program(QUARRY_INDEX_BIN, index_args(one, {QUARRY_CORPUS_DIR})).exit_code, 0);
  ASSERT_EQ(run_program(QUARRY_INDEX_BIN, index_args(two, {QUARRY_CORPUS_DIR}, {"--shards", "2"}))
                .exit_code,
            0);
  const std::string id = "000_574c536d11495eda.txt";
  for (const std::string& db : {one, two}) {
    const RunResult run =
        quarry({"--db", db, "--format", "json", "--collapse", "none", "--like", id});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out.find("\"id\":\"" + id + "\""), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("\"total\":2"), std::string::npos) << run.out;
    // Every report shown is of the article's own story, and says so.
    const nlohmann::json every = nlohmann::json::parse(run.out);
    for (const nlohmann::json& hit : every.at("hits")) {
      EXPECT_EQ(hit.value("same_story", false), true) << hit;
    }
    // Shown by stories, the other two are the article's own story, the
    // articles most like it: one hit, marked so, with its other report.
    const RunResult stories = quarry({"--db", db, "--format", "json", "--like", id});
    ASSERT_EQ(stories.exit_code, 0) << stories.err;
    const nlohmann::json answer = nlohmann::json::parse(stories.out);
    EXPECT_EQ(answer.at("total"), 2) << stories.out;
    ASSERT_EQ(answer.at("hits").size(), 1u) << stories.out;
    EXPECT_EQ(answer.at("hits")[0].value("same_story", false), true) << stories.out;
    const RunResult text = quarry({"--db", db, "--color", "never", "--like", id});
    EXPECT_NE(text.out.find(" · same story\n"), std::string::npos) << text.out;
  }
  const RunResult unknown = quarry({"--db", one, "--like", "nothing.txt"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err, "quarry: no article has the id \"nothing.txt\"\n");
  EXPECT_TRUE(unknown.out.empty());
}

}  // namespace
}  // namespace quarry::testing
