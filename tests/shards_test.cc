// Sharded indexes: quarry-index --shards, stub files, and shards served by
// xapian-tcpsrv, whose results must be those of the same articles in one
// database.
#include <gtest/gtest.h>
#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/prompt.h"
#include "lib/index/schema.h"
#include "lib/index/shard_set.h"
#include "lib/search/hit_order.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t kArticles = 40;
constexpr char kSynonyms[] = "football, soccer\n";

// News-like articles with sources, dates and categories to filter on. The
// words come from a fixed generator, so every run indexes the same text.
std::vector<Article> news() {
  static const char* const kWords[] = {
      "minister", "election", "oil",     "prices", "bank",    "rates",   "football", "match",
      "penalty",  "storm",    "harbour", "coffee", "exports", "strike",  "union",    "court",
      "ruling",   "merger",   "shares",  "profit", "drought", "harvest", "wheat",    "vaccine",
      "hospital", "budget",   "tariff",  "steel",  "airline", "pilot",   "dressing", "room"};
  static const char* const kSources[] = {"Reuters", "Press Association", "BBC News"};
  constexpr std::size_t kWordCount = sizeof kWords / sizeof kWords[0];
  std::mt19937 random(20171210);
  std::vector<Article> articles;
  for (std::size_t n = 0; n < kArticles; ++n) {
    Article article;
    article.id = "story-" + std::to_string(n);
    for (int w = 0; w < 4; ++w)
      article.title += std::string(w ? " " : "") + kWords[random() % kWordCount];
    for (int w = 0; w < 60; ++w)
      article.body += std::string(w ? " " : "") + kWords[random() % kWordCount];
    if (n % 5 == 0) article.body += " Guardiola praised the oil prices.";
    article.body += " Unique" + std::to_string(n) + "word.";
    article.source = kSources[n % 3];
    const std::size_t day = 1 + n % 28;
    article.date = "2017-12-" + std::string(day < 10 ? "0" : "") + std::to_string(day);
    article.category = n % 2 ? "business" : "sport";
    articles.push_back(std::move(article));
  }
  return articles;
}

const std::vector<std::string> kQueries = {
    "oil prices",
    "\"oil prices\"",
    "\"dressing room\" penalty",
    "+bank -rates",
    "source:\"Press Association\" oil",
    "date:2017-12-01..2017-12-10 harvest",
    "category:sport penalty OR match",
    "title:storm",
    "minister NEAR/3 election",
    "harb*",
    "Guardiolla prices",  // misspelt: a suggestion
    "soccer",             // a synonym of football
    "coffee OR wheat OR steel",
};

// Indexes the articles (with the synonyms) into dir/NAME, in `shards` shards
// (0: one database).
std::string build(const TempDir& dir, const std::string& name, std::size_t shards,
                  const std::vector<Article>& articles = news()) {
  write_file(dir / (name + ".jsonl"), to_json_lines(articles));
  write_file(dir / "synonyms.txt", kSynonyms);
  IndexConfig config;
  config.db_path = (dir / name).string();
  config.shards = shards;
  config.synonyms_file = (dir / "synonyms.txt").string();
  const IndexReport report = index_paths(config, {(dir / (name + ".jsonl")).string()});
  EXPECT_EQ(report.added, articles.size());
  return config.db_path;
}

SearchOptions all_hits() {
  SearchOptions options;
  options.limit = 100;
  return options;
}

// Scores of shards and of one database agree to this relative difference:
// Xapian adds a hit's term weights in an order that depends on each
// database's statistics, so the last bits may differ.
constexpr double kScoreTolerance = 1e-9;

void expect_close(double got, double expected, const std::string& what) {
  EXPECT_LE(std::abs(got - expected), kScoreTolerance * std::abs(expected))
      << what << ": " << got << " vs " << expected;
}

// The same hits in the same order, with the same scores, texts and
// highlights, the same count and the same facets.
void expect_same(const SearchResult& one, const SearchResult& shards, const std::string& label) {
  SCOPED_TRACE(label + ": " + one.query);
  EXPECT_EQ(shards.total, one.total);
  EXPECT_EQ(shards.total_exact, one.total_exact);
  ASSERT_EQ(shards.facets.size(), one.facets.size());
  for (std::size_t f = 0; f < one.facets.size(); ++f) {
    EXPECT_EQ(shards.facets[f].values, one.facets[f].values) << facet_name(one.facets[f].field);
  }
  EXPECT_EQ(shards.suggestion, one.suggestion);
  EXPECT_TRUE(shards.warnings.empty());
  ASSERT_EQ(shards.hits.size(), one.hits.size());
  std::map<std::string, const Hit*> expected;
  for (std::size_t i = 0; i < one.hits.size(); ++i) {
    expected[one.hits[i].id] = &one.hits[i];
    expect_close(shards.hits[i].score, one.hits[i].score, "score at rank " + std::to_string(i + 1));
    EXPECT_EQ(shards.hits[i].id, one.hits[i].id) << "at rank " << i + 1;
  }
  for (const Hit& hit : shards.hits) {
    ASSERT_TRUE(expected.count(hit.id)) << hit.id;
    const Hit& want = *expected[hit.id];
    expect_close(hit.score, want.score, hit.id);
    EXPECT_EQ(hit.title, want.title);
    EXPECT_EQ(hit.date, want.date);
    EXPECT_EQ(hit.snippet.text, want.snippet.text);
    // Remote hits are highlighted by stemming their text, local ones from
    // the index's positions: the two must agree.
    EXPECT_EQ(hit.title_highlights, want.title_highlights) << hit.id;
    ASSERT_EQ(hit.snippet.highlights.size(), want.snippet.highlights.size());
    for (std::size_t h = 0; h < want.snippet.highlights.size(); ++h) {
      EXPECT_EQ(hit.snippet.highlights[h].begin, want.snippet.highlights[h].begin);
      EXPECT_EQ(hit.snippet.highlights[h].end, want.snippet.highlights[h].end);
    }
  }
}

// A page further on, with the matches counted by every field.
SearchOptions page_with_facets() {
  SearchOptions options;
  options.limit = 5;
  options.offset = 5;
  options.facets.fields = {FacetField::kSource, FacetField::kCategory, FacetField::kDate};
  return options;
}

void expect_same_results(Searcher& one, Searcher& shards, const std::string& label,
                         const std::vector<std::string>& queries = kQueries) {
  for (const std::string& query : queries) {
    expect_same(one.search(query, all_hits()), shards.search(query, all_hits()), label);
    expect_same(one.search(query, page_with_facets()), shards.search(query, page_with_facets()),
                label + ", a page with facets");
    EXPECT_EQ(shards.count(query).total, one.count(query).total) << label << ": " << query;
  }
}

std::vector<std::string> without(std::vector<std::string> queries, const std::string& query) {
  queries.erase(std::remove(queries.begin(), queries.end(), query), queries.end());
  return queries;
}

std::string shard_path(const std::string& set, std::size_t index) {
  return (fs::path(set) / detail::shard_name(index)).string();
}

std::string lexicon_path(const std::string& set) {
  return (fs::path(set) / detail::kLexiconName).string();
}

// The shard of `set` that holds the article, or -1.
int shard_holding(const std::string& set, std::size_t shards, const std::string& id) {
  for (std::size_t i = 0; i < shards; ++i) {
    if (Xapian::Database(shard_path(set, i)).term_exists(detail::id_term(id))) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

std::vector<std::pair<std::string, Xapian::doccount>> spelling_of(const Xapian::Database& db) {
  std::vector<std::pair<std::string, Xapian::doccount>> words;
  for (auto it = db.spellings_begin(); it != db.spellings_end(); ++it) {
    words.emplace_back(*it, it.get_termfreq());
  }
  return words;
}

std::string remote_stub(const TempDir& dir, const std::string& set,
                        const std::vector<const TcpServer*>& servers) {
  std::string stub = "# the lexicon stays local: the remote protocol carries no spelling data\n";
  stub += "auto " + lexicon_path(set) + "\n";
  for (const TcpServer* server : servers) stub += server->stub_line() + "\n";
  write_file(dir / "remote.stub", stub);
  return (dir / "remote.stub").string();
}

// A set of two shards in `dir`, each served by xapian-tcpsrv, and the stub
// file that names the servers.
struct ServedSet {
  explicit ServedSet(const TempDir& dir)
      : set(build(dir, "set", 2)),
        first({shard_path(set, 0)}),
        second({shard_path(set, 1)}),
        stub(remote_stub(dir, set, {&first, &second})) {}

  std::string set;
  TcpServer first;
  TcpServer second;
  std::string stub;
};

RunResult run_quarry(const std::vector<std::string>& args) { return run_program(QUARRY_BIN, args); }

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
  expect_same_results(one, shards_only, "the shards alone", without(kQueries, "soccer"));

  EXPECT_EQ(folder.search("Guardiolla prices").suggestion, "Guardiola prices");
  EXPECT_GT(folder.search("soccer").hits.size(), 0u);
  const IndexStats stats = folder.stats();
  EXPECT_EQ(stats.articles, kArticles);
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
  EXPECT_EQ(remote.article_count(), kArticles);
  EXPECT_EQ(remote.stats().remote_shards, 2u);

  // Sorted by date, the servers order by the day, as one database does
  // articles without times (Xapian's remote protocol takes no key maker,
  // which keeps to the time of day).
  for (SortOrder sort : {SortOrder::kOldestFirst, SortOrder::kNewestFirst}) {
    SearchOptions options;
    options.sort = sort;
    options.limit = kArticles;
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

TEST(ShardSet, UnreachableShardIsNamedOrLeftOut) {
  TempDir dir;
  ServedSet served(dir);
  served.second.stop();
  const std::string name = served.second.stub_line();

  RunResult failed = run_quarry({"--db", served.stub, "oil"});
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_NE(failed.err.find("quarry: shard " + name + " is unreachable: "), std::string::npos)
      << failed.err;
  EXPECT_EQ(failed.out, "");

  RunResult text = run_quarry({"--db", served.stub, "--allow-partial", "oil"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.err.find("quarry: warning: shard " + name + " is unreachable: "),
            std::string::npos)
      << text.err;

  RunResult partial =
      run_quarry({"--db", served.stub, "--allow-partial", "--format", "json", "oil"});
  ASSERT_EQ(partial.exit_code, 0) << partial.err;
  const json result = json::parse(partial.out);
  ASSERT_EQ(result.at("warnings").size(), 1u);
  EXPECT_NE(result["warnings"][0].get<std::string>().find(name), std::string::npos);
  ASSERT_GT(result.at("hits").size(), 0u);
  for (const json& hit : result["hits"]) {
    EXPECT_EQ(detail::shard_of(hit.at("id").get<std::string>(), 2), 0u) << hit.dump();
  }
}

TEST(ShardSet, ShardFailingMidSessionIsLeftOutOrNamed) {
  TempDir dir;
  ServedSet served(dir);
  OpenOptions partial;
  partial.allow_partial = true;
  Searcher lenient(std::vector<std::string>{served.stub}, partial);
  Searcher strict(std::vector<std::string>{served.stub});
  const std::size_t all = lenient.search("oil", all_hits()).hits.size();
  ASSERT_EQ(strict.search("oil", all_hits()).hits.size(), all);

  served.second.stop();
  const SearchResult rest = lenient.search("oil", all_hits());
  ASSERT_EQ(rest.warnings.size(), 1u);
  EXPECT_NE(rest.warnings[0].find("shard " + served.second.stub_line()), std::string::npos)
      << rest.warnings[0];
  EXPECT_GT(rest.hits.size(), 0u);
  EXPECT_LT(rest.hits.size(), all);
  for (const Hit& hit : rest.hits) EXPECT_EQ(detail::shard_of(hit.id, 2), 0u) << hit.id;

  try {
    strict.search("oil");
    FAIL() << "a shard that stopped answering must be an error";
  } catch (const IndexError& error) {
    EXPECT_NE(
        std::string(error.what()).find("shard " + served.second.stub_line() + " is unreachable"),
        std::string::npos)
        << error.what();
  }
}

TEST(ShardSet, HungShardTimesOut) {
  TempDir dir;
  const std::string set = build(dir, "set", 2);
  SilentListener hung;
  const std::string name = "remote 127.0.0.1:" + std::to_string(hung.port());
  write_file(dir / "hung.stub",
             "auto " + lexicon_path(set) + "\nauto " + shard_path(set, 0) + "\n" + name + "\n");
  const std::string stub = (dir / "hung.stub").string();

  // What the search costs on this machine without the hung shard, so that
  // only the wait for it is measured: one second, far from the default ten.
  auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(run_quarry({"--db", set, "oil"}).exit_code, 0);
  const auto healthy = std::chrono::steady_clock::now() - start;
  start = std::chrono::steady_clock::now();
  RunResult failed = run_quarry({"--db", stub, "--timeout", "1", "--connect-timeout", "1", "oil"});
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_NE(failed.err.find("shard " + name + " is unreachable"), std::string::npos) << failed.err;
  EXPECT_LT(took - healthy, std::chrono::seconds(6));

  RunResult partial =
      run_quarry({"--db", stub, "--timeout", "1", "--allow-partial", "--format", "json", "oil"});
  ASSERT_EQ(partial.exit_code, 0) << partial.err;
  EXPECT_EQ(json::parse(partial.out).at("warnings").size(), 1u);
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
  EXPECT_EQ(report.unchanged, kArticles - 2);
  EXPECT_EQ(report.deleted, 1u);
  EXPECT_EQ(report.added, 0u);

  EXPECT_EQ(shard_holding(set, 3, "story-7"), home);
  EXPECT_EQ(shard_holding(set, 3, "story-8"), -1);
  Searcher searcher(set);
  EXPECT_EQ(searcher.article_count(), kArticles - 1);
  const SearchResult found = searcher.search("quokka");
  ASSERT_EQ(found.hits.size(), 1u);
  EXPECT_EQ(found.hits[0].id, "story-7");
  // Not even corrected to the Unique6word of another article.
  SearchOptions as_typed;
  as_typed.spelling.correct = Correction::kNever;
  EXPECT_TRUE(searcher.search("Unique7word", as_typed).hits.empty());
  // Nothing was written beside the shards.
  std::set<std::string> entries;
  for (const auto& entry : fs::directory_iterator(set)) {
    entries.insert(entry.path().filename().string());
  }
  EXPECT_EQ(entries,
            (std::set<std::string>{"XAPIANDB", "lexicon", "shard-0", "shard-1", "shard-2"}));

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
  EXPECT_EQ(Xapian::Database((dir / "stubs" / "all").string()).get_doccount(), kArticles);

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
  OpenOptions partial;
  partial.allow_partial = true;
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
