// Indexing into shards: each article stays in the shard its id routes it
// to, every shard knows the language, quarry-index keeps to the number of
// shards an index has, and changesets bring replicas up to date.
#include <gtest/gtest.h>
#include <xapian.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "lib/index/schema.h"
#include "lib/index/shard_set.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "tests/shard_fixture.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Runs a xapian-tools program to its end, failing the test with its output
// when it does not exit 0.
RunResult run_tool(const std::string& name, const std::vector<std::string>& args) {
  RunResult result = run_program(find_xapian_tool(name), args);
  EXPECT_EQ(result.exit_code, 0) << name << ": " << result.out << result.err;
  return result;
}

TEST(ShardSet, ChangedArticleIsReplacedInItsShard) {
  TempDir dir;
  std::vector<Article> articles = news();
  const std::string set = build(dir, "set", 3, articles);
  const int home = shard_holding(set, 3, "story-7");
  ASSERT_GE(home, 0);

  articles[7].body = "A quokka was seen near the harbour.";
  articles.erase(articles.begin() + 8);  // story-8 has gone
  write_file(dir / "set.jsonl", to_json_lines(articles));
  IndexConfig again;  // no --shards: the folder says what it is
  again.db_path = set;
  const IndexReport report = index_paths(again, {(dir / "set.jsonl").string()});
  EXPECT_EQ(report.updated, 1u);
  EXPECT_EQ(report.unchanged, kShardArticles - 2);
  EXPECT_EQ(report.deleted, 1u);
  EXPECT_EQ(report.added, 0u);

  EXPECT_EQ(shard_holding(set, 3, "story-7"), home);
  EXPECT_EQ(shard_holding(set, 3, "story-8"), -1);
  Searcher searcher(set);
  EXPECT_EQ(searcher.article_count(), kShardArticles - 1);
  const SearchResult found = searcher.search("quokka");
  ASSERT_EQ(found.hits.size(), 1u);
  EXPECT_EQ(found.hits[0].id, "story-7");
  // Not even corrected to the Unique6word of another article.
  SearchOptions as_typed;
  as_typed.spelling.correct = Correction::kNever;
  EXPECT_TRUE(searcher.search("Unique7word", as_typed).hits.empty());
  // Nothing was written beside the shards but the lock files.
  EXPECT_EQ(names_in(set), (std::set<std::string>{".commit.lock", ".index.lock", "XAPIANDB",
                                                  "lexicon", "shard-0", "shard-1", "shard-2"}));

  // The lexicon follows: its spelling data is that of one database of the
  // same articles.
  const std::string one_path = build(dir, "one", 0, articles);
  EXPECT_EQ(spelling_of(Xapian::Database(lexicon_path(set))),
            spelling_of(Xapian::Database(one_path)));
}

TEST(ShardSet, RoutingIsStableAcrossRuns) {
  TempDir dir;
  std::vector<Article> articles = news();
  const std::string first = build(dir, "first", 3, articles);
  std::reverse(articles.begin(), articles.end());
  const std::string second = build(dir, "second", 3, articles);
  std::set<int> used;
  for (const Article& article : articles) {
    const int shard = shard_holding(first, 3, article.id);
    EXPECT_EQ(shard, static_cast<int>(detail::shard_of(article.id, 3))) << article.id;
    EXPECT_EQ(shard_holding(second, 3, article.id), shard) << article.id;
    used.insert(shard);
  }
  EXPECT_EQ(used.size(), 3u) << "every shard holds articles";
}

TEST(ShardSet, EveryShardKnowsTheLanguage) {
  TempDir dir;
  write_file(dir / "a.jsonl", to_json_lines(news()));
  IndexConfig config;
  config.db_path = (dir / "set").string();
  config.shards = 2;
  config.language = "french";
  index_paths(config, {(dir / "a.jsonl").string()});
  for (const std::string& path : {lexicon_path(config.db_path), shard_path(config.db_path, 0),
                                  shard_path(config.db_path, 1)}) {
    EXPECT_EQ(Xapian::Database(path).get_metadata(detail::kLanguageKey), "french") << path;
  }
  EXPECT_EQ(Searcher(config.db_path).analyzer().config().language, "french");
  config.shards = 0;
  config.language = "english";
  EXPECT_THROW(index_paths(config, {(dir / "a.jsonl").string()}), ConfigError);
}

TEST(ShardSet, CommandLine) {
  TempDir dir;
  write_file(dir / "a.jsonl", to_json_lines(news()));
  const std::string corpus = (dir / "a.jsonl").string();
  const std::string set = (dir / "set").string();
  const std::string one = (dir / "one").string();
  RunResult made = run_program(QUARRY_INDEX_BIN, {"--db", set, "--shards", "2", "-q", corpus});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  ASSERT_EQ(run_program(QUARRY_INDEX_BIN, {"--db", one, "-q", corpus}).exit_code, 0);

  RunResult again = run_program(QUARRY_INDEX_BIN, {"--db", set, corpus});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("0 added, 0 updated, 40 unchanged"), std::string::npos) << again.err;

  RunResult other = run_program(QUARRY_INDEX_BIN, {"--db", set, "--shards", "3", corpus});
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("index " + set + " has 2 shards, not 3"), std::string::npos)
      << other.err;
  RunResult single = run_program(QUARRY_INDEX_BIN, {"--db", one, "--shards", "2", corpus});
  EXPECT_EQ(single.exit_code, 2);
  EXPECT_NE(single.err.find("index " + one + " is one database"), std::string::npos) << single.err;

  // Several --db flags are one index.
  RunResult whole = run_quarry({"--db", one, "--format", "json", "-n", "100", "oil prices"});
  RunResult flags = run_quarry({"--db", lexicon_path(set), "--db", shard_path(set, 0), "--db",
                                shard_path(set, 1), "--format", "json", "-n", "100", "oil prices"});
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  ASSERT_EQ(flags.exit_code, 0) << flags.err;
  EXPECT_EQ(json::parse(flags.out).at("hits").size(), json::parse(whole.out).at("hits").size());
  EXPECT_EQ(json::parse(flags.out).at("total"), json::parse(whole.out).at("total"));
}

TEST(ShardSet, ChangesetsBringReplicasUpToDateWithoutACopy) {
  TempDir dir;
  const std::string set = (dir / "set").string();
  write_file(dir / "a.jsonl", to_json_lines(news()));
  RunResult made = run_program(QUARRY_INDEX_BIN, {"--db", set, "--shards", "2", "--changesets", "5",
                                                  "-q", (dir / "a.jsonl").string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const unsigned port = free_loopback_port();
  ChildProcess server(find_xapian_tool("xapian-replicate-server"),
                      {"--interface", "127.0.0.1", "--port", std::to_string(port), set},
                      dir.path());
  ASSERT_TRUE(listens_soon(port, server)) << server.err();
  const std::string replica = (dir / "replica").string();
  const auto update = [&] {
    const RunResult run = run_tool(
        "xapian-replicate", {"--host", "127.0.0.1", "--port", std::to_string(port), "--master",
                             "shard-0", "--one-shot", "--verbose", "--reader-time", "0", replica});
    return run.out + run.err;
  };
  EXPECT_NE(update().find("Update complete: 1 copies"), std::string::npos);

  // A later run keeps its changes, and only they travel.
  write_file(dir / "b.jsonl", to_json_lines(later_news("later-", 10)));
  made = run_program(QUARRY_INDEX_BIN,
                     {"--db", set, "--changesets", "5", "-q", (dir / "b.jsonl").string()});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const std::string caught_up = update();
  EXPECT_NE(caught_up.find("Update complete: 0 copies"), std::string::npos) << caught_up;
  EXPECT_EQ(caught_up.find(" 0 changesets"), std::string::npos) << caught_up;
  const Xapian::Database master(shard_path(set, 0));
  EXPECT_EQ(Xapian::Database(replica).get_revision(), master.get_revision());
  EXPECT_EQ(Xapian::Database(replica).get_doccount(), master.get_doccount());

  // A run without them leaves the replica a whole copy to fetch.
  write_file(dir / "c.jsonl", to_json_lines(later_news("latest-", 10)));
  made = run_program(QUARRY_INDEX_BIN, {"--db", set, "-q", (dir / "c.jsonl").string()}, "",
                     {"XAPIAN_MAX_CHANGESETS=0"});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  EXPECT_NE(update().find("Update complete: 1 copies"), std::string::npos);
}

}  // namespace
}  // namespace quarry::testing
