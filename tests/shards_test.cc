// Sharded indexes: quarry-index --shards, stub files, and shards served by
// xapian-tcpsrv, whose results must be those of the same articles in one
// database.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>
#include <xapian.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/common/json_documents.h"
#include "app/server/request_handler.h"
#include "app/terminal/prompt.h"
#include "lib/index/schema.h"
#include "lib/index/shard_set.h"
#include "lib/search/hit_order.h"
#include "lib/search/slow_replicas.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "tests/child_process.h"
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

// Options that search on without a shard none of whose replicas answers.
OpenOptions allowing_partial() {
  OpenOptions options;
  options.allow_partial = true;
  return options;
}

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

// A shard that does not answer, searched with --allow-partial: every
// output says the result is a part, naming the shard, whatever its format.
TEST(ShardSet, EveryOutputOfAPartialResultSaysSo) {
  TempDir dir;
  ServedSet served(dir);
  // What the shard that answers holds alone.
  Searcher rest(std::vector<std::string>{lexicon_path(served.set), shard_path(served.set, 0)});
  const std::size_t part = rest.count("oil").total;
  Searcher whole(std::vector<std::string>{served.stub});
  ASSERT_LT(part, whole.count("oil").total);
  served.second.stop();
  // "quarry: warning: …", and in batches "quarry: qid 1: warning: …".
  const std::string warning = "warning: shard " + served.second.stub_line() + " is unreachable: ";
  const std::vector<std::string> partial{"--db", served.stub, "--allow-partial"};
  const auto with = [&](std::vector<std::string> args) {
    args.insert(args.begin(), partial.begin(), partial.end());
    return args;
  };

  struct Case {
    std::vector<std::string> args;
    std::string input;  // for --batch -
  };
  const Case diagnosed[] = {
      {{"oil"}, ""},
      {{"-n", "0", "oil"}, ""},
      {{"--count", "oil"}, ""},
      {{"--count", "--format", "json", "oil"}, ""},
      {{"--format", "trec"}, "oil\n"},
      {{"--batch", "-", "--format", "trec"}, "1\toil\n2\tprices\n"},
      {{"--batch", "-", "--format", "text"}, "1\toil\n"},
  };
  for (const Case& test : diagnosed) {
    const RunResult run = run_program(QUARRY_BIN, with(test.args), test.input);
    SCOPED_TRACE(test.args.front() + " " + test.args.back() + " " + test.input);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.err.find(warning), std::string::npos) << run.err;
    EXPECT_FALSE(run.out.empty());
  }
  const RunResult count = run_program(QUARRY_BIN, with({"--count", "oil"}));
  EXPECT_EQ(count.out, std::to_string(part) + "\n");

  // JSON says it in the answer itself, as a batch's JSON Lines do in each.
  const RunResult one = run_program(QUARRY_BIN, with({"--format", "json", "oil"}));
  const RunResult batch = run_program(QUARRY_BIN, with({"--batch", "-"}), "1\toil\n2\tprices\n");
  std::vector<json> answers{json::parse(one.out)};
  for (const std::string& line : lines_of(batch.out)) answers.push_back(json::parse(line));
  ASSERT_EQ(answers.size(), 3u) << batch.out << batch.err;
  for (const json& answer : answers) {
    ASSERT_EQ(answer.at("warnings").size(), 1u) << answer.dump();
    EXPECT_NE(answer["warnings"][0].get<std::string>().find(served.second.stub_line()),
              std::string::npos);
  }
  EXPECT_EQ(answers[0].at("total").get<std::size_t>(), part);

  // The server's JSON and its page.
  OpenOptions open;
  open.allow_partial = true;
  RequestHandler handler({served.stub}, open);
  const HttpResponse api = handler.handle("GET", "/api/search?q=oil");
  ASSERT_EQ(api.status, 200) << api.body;
  const json answer = json::parse(api.body);
  ASSERT_EQ(answer.at("warnings").size(), 1u) << api.body;
  EXPECT_NE(answer["warnings"][0].get<std::string>().find(served.second.stub_line()),
            std::string::npos);
  const HttpResponse page = handler.handle("GET", "/?q=oil");
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(
      page.body.find("<p class=\"warning\">shard " + served.second.stub_line() + " is unreachable"),
      std::string::npos)
      << page.body;
}

TEST(ShardSet, ShardFailingMidSessionIsLeftOutOrNamed) {
  TempDir dir;
  ServedSet served(dir);
  const OpenOptions partial = allowing_partial();
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

// Replicas: each shard served twice, its stub line followed by a "#replica"
// line. A search reads one copy of each shard and goes on with the other
// when it fails.

// A loopback port passing connections on to `target` both ways and reading
// the server's side as Xapian frames its messages (a type byte, a length,
// the bytes), so that a test can count the answers of a search and end the
// connection in the middle of one: a replica that dies during a query.
class CuttingProxy {
 public:
  explicit CuttingProxy(unsigned target) : target_(target), listen_fd_(listen_on_loopback(&port_)) {
    thread_ = std::thread([this] { run(); });
  }
  ~CuttingProxy() {
    stop_ = true;
    thread_.join();
    for (Link& link : links_) {
      close(link.client);
      close(link.server);
    }
    close(listen_fd_);
  }
  CuttingProxy(const CuttingProxy&) = delete;
  CuttingProxy& operator=(const CuttingProxy&) = delete;

  std::string stub_line() const { return "remote 127.0.0.1:" + std::to_string(port_); }
  // Messages the server has begun to send, over every connection.
  std::size_t messages() const { return messages_; }
  // Ends the connection carrying the server's message number `message`
  // (as messages() counts) after its first byte.
  void cut_at(std::size_t message) { cut_at_ = message; }
  bool cut() const { return cut_; }

 private:
  struct Link {
    int client = -1, server = -1;
    // Where the server's side is in a message: its type, its length's
    // first byte, its length's further bytes, or `left` bytes of it.
    enum class At { kType, kLength, kLongLength, kBody } at = At::kType;
    std::size_t left = 0, shift = 0;
  };

  void run() {
    while (!stop_) {
      std::vector<pollfd> fds{{listen_fd_, POLLIN, 0}};
      for (const Link& link : links_) {
        fds.push_back({link.client, POLLIN, 0});
        fds.push_back({link.server, POLLIN, 0});
      }
      if (poll(fds.data(), fds.size(), 20) <= 0) continue;
      // A link accepted now was not polled: it is looked at next time.
      const std::size_t polled = links_.size();
      if (fds[0].revents & POLLIN) accept_link();
      for (std::size_t i = 0; i < polled; ++i) {
        Link& link = links_[i];
        if (link.client < 0) continue;
        if (fds[1 + 2 * i].revents & (POLLIN | POLLHUP | POLLERR)) forward(link, false);
        if (link.client >= 0 && fds[2 + 2 * i].revents & (POLLIN | POLLHUP | POLLERR)) {
          forward(link, true);
        }
      }
    }
  }

  void accept_link() {
    const int client = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) return;
    const int server = connect_to_loopback(target_);
    if (server < 0) {
      close(client);
      return;
    }
    const int on = 1;
    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    links_.push_back({client, server});
  }

  void end(Link& link) {
    close(link.client);
    close(link.server);
    link.client = link.server = -1;
  }

  void forward(Link& link, bool from_server) {
    char buffer[65536];
    const ssize_t got = read(from_server ? link.server : link.client, buffer, sizeof buffer);
    if (got <= 0) return end(link);
    std::size_t pass = static_cast<std::size_t>(got);
    bool cut_here = false;
    if (from_server) {
      for (std::size_t i = 0; i < static_cast<std::size_t>(got); ++i) {
        const auto byte = static_cast<unsigned char>(buffer[i]);
        switch (link.at) {
          case Link::At::kType:
            if (++messages_ == cut_at_) {
              pass = i + 1;
              cut_here = true;
            }
            link.at = Link::At::kLength;
            break;
          case Link::At::kLength:
            link.left = byte;
            link.shift = 0;
            link.at = byte == 0xff ? Link::At::kLongLength
                      : byte == 0  ? Link::At::kType
                                   : Link::At::kBody;
            break;
          case Link::At::kLongLength:
            // 255 more than the bytes that follow, seven bits at a time,
            // the last with its top bit set.
            if (link.shift == 0) link.left = 255;
            link.left += static_cast<std::size_t>(byte & 0x7f) << link.shift;
            link.shift += 7;
            if (byte & 0x80) link.at = link.left == 0 ? Link::At::kType : Link::At::kBody;
            break;
          case Link::At::kBody: {
            const std::size_t skip = std::min(link.left, static_cast<std::size_t>(got) - i);
            link.left -= skip;
            i += skip - 1;
            if (link.left == 0) link.at = Link::At::kType;
            break;
          }
        }
        if (cut_here) break;
      }
    }
    const int to = from_server ? link.client : link.server;
    for (std::size_t sent = 0; sent < pass;) {
      const ssize_t wrote = write(to, buffer + sent, pass - sent);
      if (wrote <= 0) return end(link);
      sent += static_cast<std::size_t>(wrote);
    }
    if (cut_here) {
      cut_ = true;
      end(link);
    }
  }

  unsigned target_;
  unsigned port_ = 0;  // before listen_fd_, which sets it
  int listen_fd_ = -1;
  std::vector<Link> links_;  // the proxy's thread's alone
  std::atomic<bool> stop_{false};
  std::atomic<std::size_t> messages_{0};
  std::atomic<std::size_t> cut_at_{0};
  std::atomic<bool> cut_{false};
  std::thread thread_;
};

// Two shards, each served by two xapian-tcpsrv of the same folder, and a
// stub naming the first of each as the shard and the second as its replica.
struct ReplicatedSet {
  explicit ReplicatedSet(const TempDir& dir)
      : set(build(dir, "set", 2)),
        servers{std::make_unique<TcpServer>(std::vector<std::string>{shard_path(set, 0)}),
                std::make_unique<TcpServer>(std::vector<std::string>{shard_path(set, 0)}),
                std::make_unique<TcpServer>(std::vector<std::string>{shard_path(set, 1)}),
                std::make_unique<TcpServer>(std::vector<std::string>{shard_path(set, 1)})} {
    for (const auto& server : servers) lines.push_back(server->stub_line());
    write_stub(dir);
  }

  // With proxies between the searcher and the servers.
  void add_proxies(const TempDir& dir) {
    for (const auto& server : servers)
      proxies.push_back(std::make_unique<CuttingProxy>(server->port()));
    lines.clear();
    for (const auto& proxy : proxies) lines.push_back(proxy->stub_line());
    write_stub(dir);
  }

  void write_stub(const TempDir& dir) {
    write_file(dir / "replicas.stub", "auto " + lexicon_path(set) + "\n" + lines[0] +
                                          "\n#replica " + lines[1] + "\n" + lines[2] +
                                          "\n#replica " + lines[3] + "\n");
    stub = (dir / "replicas.stub").string();
  }

  // "shard A or B", as messages name shard `index`.
  std::string shard_name(std::size_t index) const {
    return "shard " + lines[2 * index] + " or " + lines[2 * index + 1];
  }

  std::string set;
  std::unique_ptr<TcpServer> servers[4];  // shard 0's two, then shard 1's
  std::vector<std::unique_ptr<CuttingProxy>> proxies;
  std::vector<std::string> lines;  // the stub lines of the four, in order
  std::string stub;
};

// Which of shard `index`'s two replicas `searcher` reads.
std::size_t searched_replica(Searcher& searcher, std::size_t index) {
  const IndexStats stats = searcher.stats();
  EXPECT_EQ(stats.shard_replicas.size(), 2u);
  const std::vector<ReplicaStats>& replicas = stats.shard_replicas.at(index).replicas;
  EXPECT_EQ(replicas.size(), 2u);
  EXPECT_NE(replicas.at(0).searched, replicas.at(1).searched);
  return replicas.at(0).searched ? 0 : 1;
}

TEST(Replicas, ReplicaDownBeforeASearchIsPassedOver) {
  TempDir dir;
  Searcher one(build(dir, "one", 0));
  ReplicatedSet served(dir);

  // Both copies answer, and say what they hold; searchers opened one after
  // the other start at different copies.
  Searcher first(std::vector<std::string>{served.stub});
  Searcher second(std::vector<std::string>{served.stub});
  EXPECT_NE(searched_replica(first, 1), searched_replica(second, 1));
  const IndexStats stats = first.stats();
  for (const ShardStats& shard : stats.shard_replicas) {
    for (const ReplicaStats& replica : shard.replicas) {
      EXPECT_TRUE(replica.answers) << replica.name << ": " << replica.error;
    }
  }
  EXPECT_EQ(stats.shard_replicas[1].replicas[0].name, served.lines[2]);

  // Killed while the searchers hold connections to it: one of them reads
  // shard 1 from it.
  served.servers[2]->stop();
  expect_same_results(one, first, "one replica of shard 1 gone, first searcher");
  expect_same_results(one, second, "one replica of shard 1 gone, second searcher");
  EXPECT_EQ(searched_replica(first, 1), 1u);
  const IndexStats after = second.stats();
  EXPECT_FALSE(after.shard_replicas[1].replicas[0].answers);
  EXPECT_FALSE(after.shard_replicas[1].replicas[0].error.empty());
  EXPECT_TRUE(after.shard_replicas[1].replicas[1].answers);

  // Killed before opening: whichever copy each searcher starts at.
  for (int n = 0; n < 2; ++n) {
    Searcher opened(std::vector<std::string>{served.stub});
    expect_same_results(one, opened, "opened with one replica of shard 1 gone",
                        {"oil prices", "harb*"});
  }
  for (int n = 0; n < 2; ++n) {
    RunResult run = run_quarry({"--db", served.stub, "--format", "json", "oil prices"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.err, "");
    const json result = json::parse(run.out);
    EXPECT_FALSE(result.contains("warnings") && !result["warnings"].empty()) << run.out;
    std::vector<std::string> ids, expected;
    for (const json& hit : result.at("hits")) ids.push_back(hit.at("id"));
    for (const Hit& hit : one.search("oil prices").hits) expected.push_back(hit.id);
    EXPECT_EQ(ids, expected);
  }
}

TEST(Replicas, ReplicaFailingMidSearchIsPassedOver) {
  TempDir dir;
  Searcher one(build(dir, "one", 0));
  ReplicatedSet served(dir);
  served.add_proxies(dir);
  Searcher searcher(std::vector<std::string>{served.stub});
  const SearchOptions options = page_with_facets();
  const std::string query = "category:sport penalty OR match";
  expect_same(one.search(query, options), searcher.search(query, options), "both copies");

  // How many messages shard 1's copy sends during this search; the next
  // one is ended in the middle of one of them, half way.
  const std::size_t copy = searched_replica(searcher, 1);
  CuttingProxy& read = *served.proxies[2 + copy];
  const std::size_t before = read.messages();
  expect_same(one.search(query, options), searcher.search(query, options), "counted");
  const std::size_t sent = read.messages() - before;
  ASSERT_GT(sent, 2u);
  read.cut_at(read.messages() + sent / 2 + 1);
  expect_same(one.search(query, options), searcher.search(query, options), "cut in the middle");
  EXPECT_TRUE(read.cut());
  EXPECT_EQ(searched_replica(searcher, 1), 1 - copy) << "the other copy now serves shard 1";
  expect_same_results(one, searcher, "after the cut", {"oil prices", "\"dressing room\" penalty"});
}

TEST(Replicas, HungReplicaGivesWayToTheNext) {
  TempDir dir;
  Searcher one(build(dir, "one", 0));
  const std::string set = build(dir, "set", 2);
  TcpServer first({shard_path(set, 0)});
  TcpServer second({shard_path(set, 1)});
  SilentListener hung;
  write_file(dir / "hung.stub", "auto " + lexicon_path(set) + "\n" + first.stub_line() +
                                    "\n#replica remote 127.0.0.1:" + std::to_string(hung.port()) +
                                    "\n" + second.stub_line() + "\n");
  OpenOptions options;
  options.connect_timeout = 1;
  options.timeout = 1;
  // Opened one after the other, one of them starts at the hung copy.
  for (int n = 0; n < 2; ++n) {
    Searcher searcher(std::vector<std::string>{(dir / "hung.stub").string()}, options);
    expect_same_results(one, searcher, "a replica of shard 0 hangs", {"oil prices", "harb*"});
  }
}

// A replica of shard 1 stopped (SIGSTOP), as a machine that froze: the
// kernel still accepts connections for it, but nothing answers them, and
// Xapian waits for an answer as long as its timeout (10 s by default).
// Searches with a time limit of kTimeLimit wait for it their share,
// kTimeLimit / 2, then read the other; the bounds below are generous, as
// the point is that nothing waits the 10–20 s of Xapian's timeouts.
constexpr double kTimeLimit = 4;
constexpr auto kShare = std::chrono::milliseconds(2000);
constexpr auto kWithinLimit = std::chrono::milliseconds(4000 + 4000);

struct HungReplica {
  explicit HungReplica(TcpServer& server) : server(server) { server.pause(); }
  ~HungReplica() {
    server.resume();
    detail::slow_replicas().clear(server.stub_line());
  }
  TcpServer& server;
};

std::vector<std::string> hit_ids(const RunResult& run) {
  const json result = json::parse(run.out);
  std::vector<std::string> ids;
  for (const json& hit : result.at("hits")) ids.push_back(hit.at("id"));
  return ids;
}

std::vector<std::string> ids_of(const std::vector<Hit>& hits) {
  std::vector<std::string> ids;
  for (const Hit& hit : hits) ids.push_back(hit.id);
  return ids;
}

TEST(Replicas, HungReplicaCostsOneSearchItsShareOfTheTimeLimit) {
  using Clock = std::chrono::steady_clock;
  TempDir dir;
  Searcher one(build(dir, "one", 0));
  ReplicatedSet served(dir);
  OpenOptions open;
  open.time_limit = kTimeLimit;
  SearchOptions limited = all_hits();
  limited.time_limit = kTimeLimit;
  const std::vector<std::string> stub{served.stub};
  // Searchers opened one after the other start at alternate replicas: the
  // first and the third read shard 1 from the same one.
  Searcher first(stub, open);
  Searcher second(stub, open);
  Searcher third(stub, open);
  const std::size_t copy = searched_replica(first, 1);
  ASSERT_EQ(searched_replica(third, 1), copy);
  ASSERT_NE(searched_replica(second, 1), copy);
  const SearchResult expected = one.search("oil prices", all_hits());

  const HungReplica hung(*served.servers[2 + copy]);
  Clock::time_point start = Clock::now();
  const SearchResult result = first.search("oil prices", limited);
  EXPECT_LT(Clock::now() - start, kWithinLimit);
  expect_same(expected, result, "a replica of shard 1 hangs");
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(searched_replica(first, 1), 1 - copy);

  // The replica is marked slow: the third searcher reads the other before
  // it waits, and a searcher opened now starts at the other.
  start = Clock::now();
  expect_same(expected, third.search("oil prices", limited), "the third searcher");
  EXPECT_LT(Clock::now() - start, kShare);
  EXPECT_EQ(searched_replica(third, 1), 1 - copy);
  start = Clock::now();
  Searcher opened(stub, open);
  expect_same(expected, opened.search("oil prices", limited), "a searcher opened after");
  EXPECT_LT(Clock::now() - start, kShare);
  expect_same(expected, second.search("oil prices", limited), "the second searcher");
  const IndexStats stats = opened.stats();
  EXPECT_FALSE(stats.shard_replicas.at(1).replicas.at(copy).answers);
}

TEST(Replicas, HungReplicaKeepsServerAndCommandLineWithinTheTimeLimit) {
  using Clock = std::chrono::steady_clock;
  TempDir dir;
  Searcher one(build(dir, "one", 0));
  ReplicatedSet served(dir);
  const std::vector<std::string> expected = ids_of(one.search("oil prices", all_hits()).hits);
  // As quarry serve's workers: each handler reads shard 1 from one of its
  // replicas, the two from different ones.
  SearchLimits limits;
  limits.time_limit = kTimeLimit;
  std::vector<RequestHandler> handlers;
  for (int n = 0; n < 2; ++n) {
    handlers.emplace_back(std::vector<std::string>{served.stub}, OpenOptions{}, nullptr, limits);
    ASSERT_FALSE(handlers.back().open().has_value());
  }
  const HungReplica hung(*served.servers[2]);
  for (int round = 0; round < 2; ++round) {
    for (RequestHandler& handler : handlers) {
      const Clock::time_point start = Clock::now();
      const HttpResponse response = handler.handle("GET", "/api/search?q=oil+prices&n=100");
      const auto took = Clock::now() - start;
      ASSERT_EQ(response.status, 200) << response.body;
      const json answer = json::parse(response.body);
      std::vector<std::string> ids;
      for (const json& hit : answer.at("hits")) ids.push_back(hit.at("id"));
      EXPECT_EQ(ids, expected);
      // The one that met the hung replica waited its share; later ones
      // read the other without waiting.
      EXPECT_LT(took, round == 0 ? kWithinLimit : kShare) << "round " << round;
    }
  }

  // Each run of quarry starts at either replica; a batch of two threads
  // opens a searcher at each. A searcher that starts at the hung one waits
  // its share for it.
  Clock::time_point start = Clock::now();
  const RunResult run = run_quarry(
      {"--db", served.stub, "--time-limit", "4", "--format", "json", "-n", "100", "oil prices"});
  EXPECT_LT(Clock::now() - start, kWithinLimit);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(hit_ids(run), expected);
  start = Clock::now();
  const RunResult batch = run_program(
      QUARRY_BIN,
      {"--db", served.stub, "--time-limit", "4", "-n", "100", "--batch", "-", "-j", "2"},
      "1\toil prices\n2\toil prices\n");
  EXPECT_LT(Clock::now() - start, kWithinLimit);
  ASSERT_EQ(batch.exit_code, 0) << batch.err;
  const std::vector<std::string> answers = lines_of(batch.out);
  ASSERT_EQ(answers.size(), 2u) << batch.out;
  for (const std::string& answer : answers) {
    EXPECT_EQ(hit_ids(RunResult{0, answer, ""}), expected);
  }
}

TEST(Replicas, ShardWithNoReplicaLeftIsNamedOrLeftOut) {
  TempDir dir;
  ReplicatedSet served(dir);
  const OpenOptions partial = allowing_partial();
  Searcher lenient(std::vector<std::string>{served.stub}, partial);
  served.servers[2]->stop();
  served.servers[3]->stop();
  const std::string name = served.shard_name(1);

  RunResult failed = run_quarry({"--db", served.stub, "oil"});
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_NE(failed.err.find("quarry: " + name + " is unreachable: " + served.lines[2] + ": "),
            std::string::npos)
      << failed.err;
  EXPECT_NE(failed.err.find("; " + served.lines[3] + ": "), std::string::npos) << failed.err;
  EXPECT_EQ(failed.out, "");

  // The other shard's answer: what its copy and the lexicon give alone.
  Searcher rest(std::vector<std::string>{lexicon_path(served.set), shard_path(served.set, 0)});
  std::vector<std::string> expected;
  for (const Hit& hit : rest.search("oil", all_hits()).hits) expected.push_back(hit.id);
  ASSERT_FALSE(expected.empty());

  RunResult partial_run = run_quarry(
      {"--db", served.stub, "--allow-partial", "--format", "json", "--limit", "100", "oil"});
  ASSERT_EQ(partial_run.exit_code, 0) << partial_run.err;
  const json result = json::parse(partial_run.out);
  ASSERT_EQ(result.at("warnings").size(), 1u);
  EXPECT_NE(result["warnings"][0].get<std::string>().find(name + " is unreachable"),
            std::string::npos)
      << result["warnings"][0];
  std::vector<std::string> ids;
  for (const json& hit : result.at("hits")) ids.push_back(hit.at("id"));
  EXPECT_EQ(ids, expected);

  // Gone during a session: left out with a warning naming the shard.
  const SearchResult left = lenient.search("oil", all_hits());
  ASSERT_EQ(left.warnings.size(), 1u);
  EXPECT_NE(left.warnings[0].find(name + " is unreachable"), std::string::npos) << left.warnings[0];
  ids.clear();
  for (const Hit& hit : left.hits) ids.push_back(hit.id);
  EXPECT_EQ(ids, expected);
  const IndexStats stats = lenient.stats();
  ASSERT_EQ(stats.shard_replicas.size(), 2u);
  for (const ReplicaStats& replica : stats.shard_replicas[1].replicas) {
    EXPECT_FALSE(replica.answers) << replica.name;
    EXPECT_FALSE(replica.searched) << replica.name;
  }
}

TEST(Replicas, StatsShowEachReplicaWhetherItAnswersAndItsRevision) {
  TempDir dir;
  const std::string set = build(dir, "set", 2);
  const fs::path copy = dir / "shard-1-copy";
  fs::copy(shard_path(set, 1), copy, fs::copy_options::recursive);
  const std::string gone = "remote 127.0.0.1:" + std::to_string(free_loopback_port());
  const TcpServer served({shard_path(set, 0)});
  write_file(dir / "stats.stub", "auto " + lexicon_path(set) + "\nauto " + shard_path(set, 0) +
                                     "\n#replica " + gone + "\n#replica " + served.stub_line() +
                                     "\nauto " + shard_path(set, 1) + "\n#replica auto " +
                                     copy.string() + "\n");
  Searcher searcher(std::vector<std::string>{(dir / "stats.stub").string()});
  // As /api/stats shows them.
  const json stats = json::parse(stats_json(searcher.stats()));
  const json& shards = stats.at("shard_replicas");
  ASSERT_EQ(shards.size(), 2u) << stats.dump();
  const json& first = shards[0].at("replicas");
  ASSERT_EQ(first.size(), 3u);
  const Xapian::Database shard0(shard_path(set, 0));
  EXPECT_EQ(first[0].at("name"), shard_path(set, 0));
  EXPECT_TRUE(first[0].at("answers"));
  EXPECT_NE(first[0].at("searched").get<bool>(), first[2].at("searched").get<bool>())
      << "one of the copies that answer serves the shard";
  EXPECT_EQ(first[0].at("revision"), shard0.get_revision());
  EXPECT_EQ(first[0].at("articles"), shard0.get_doccount());
  EXPECT_EQ(first[1].at("name"), gone);
  EXPECT_FALSE(first[1].at("answers"));
  EXPECT_FALSE(first[1].at("searched"));
  EXPECT_TRUE(first[1].at("revision").is_null());
  EXPECT_TRUE(first[1].at("articles").is_null());
  EXPECT_NE(first[1].at("error").get<std::string>().find("Connection refused"), std::string::npos);
  // A remote copy tells how many articles it holds, not its revision.
  EXPECT_EQ(first[2].at("name"), served.stub_line());
  EXPECT_TRUE(first[2].at("answers"));
  EXPECT_TRUE(first[2].at("revision").is_null());
  EXPECT_EQ(first[2].at("articles"), shard0.get_doccount());
  const json& second = shards[1].at("replicas");
  ASSERT_EQ(second.size(), 2u);
  EXPECT_EQ(second[1].at("name"), copy.string());
  EXPECT_NE(second[0].at("searched"), second[1].at("searched"));
  for (const json& replica : second) {
    EXPECT_TRUE(replica.at("answers")) << replica.dump();
    EXPECT_EQ(replica.at("revision"), Xapian::Database(shard_path(set, 1)).get_revision());
  }
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

// Runs a xapian-tools program to its end, failing the test with its output
// when it does not exit 0.
RunResult run_tool(const std::string& name, const std::vector<std::string>& args) {
  RunResult result = run_program(find_xapian_tool(name), args);
  EXPECT_EQ(result.exit_code, 0) << name << ": " << result.out << result.err;
  return result;
}

std::vector<Article> later_news(const std::string& prefix, std::size_t count) {
  std::vector<Article> articles;
  for (std::size_t n = 0; n < count; ++n) {
    articles.push_back({prefix + std::to_string(n), "Harbour strike",
                        "Dockers at the harbour went on strike again.", "2017-12-30", "business",
                        "Reuters"});
  }
  return articles;
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

// deploy/local-cluster, beside the sample articles.
std::string local_cluster() {
  return (fs::path(QUARRY_CORPUS_DIR).parent_path() / "deploy" / "local-cluster").string();
}

// A cluster started by deploy/local-cluster, stopped however the test ends.
struct LocalCluster {
  LocalCluster(const TempDir& dir, const std::vector<std::string>& corpora)
      : folder((dir / "cluster").string()) {
    std::vector<std::string> args{"start",      folder, "--shards",   "2",
                                  "--replicas", "2",    "--interval", "1"};
    args.insert(args.end(), corpora.begin(), corpora.end());
    started =
        run_program(local_cluster(), args, "", {std::string("QUARRY_INDEX=") + QUARRY_INDEX_BIN});
  }
  ~LocalCluster() { run_program(local_cluster(), {"stop", folder}); }

  // The pid in shard-K/NAME.pid.
  pid_t pid(std::size_t shard, const std::string& name) const {
    std::ifstream in(fs::path(folder) / detail::shard_name(shard) / (name + ".pid"));
    pid_t pid = 0;
    in >> pid;
    return pid;
  }
  // The port in shard-K/NAME.port: where the server NAME.pid names listens.
  unsigned port(std::size_t shard, const std::string& name) const {
    std::ifstream in(fs::path(folder) / detail::shard_name(shard) / (name + ".port"));
    unsigned port = 0;
    in >> port;
    return port;
  }

  std::string folder;
  RunResult started;
};

// Whether process `pid` runs: exists and is no zombie, which stays until
// whoever adopted it reaps it.
bool runs(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const std::size_t end = line.rfind(')');
  return end != std::string::npos && end + 2 < line.size() && line[end + 2] != 'Z';
}

TEST(LocalCluster, ServesReplicatedShardsKeptCurrentAndStops) {
  TempDir dir;
  write_file(dir / "a.jsonl", to_json_lines(news()));
  Searcher one(build(dir, "one", 0));
  LocalCluster cluster(dir, {(dir / "a.jsonl").string()});
  ASSERT_EQ(cluster.started.exit_code, 0) << cluster.started.out << cluster.started.err;
  const std::vector<std::string> lines = lines_of(cluster.started.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "--db " + cluster.folder);

  std::vector<std::string> expected;
  for (const Hit& hit : one.search("oil prices", all_hits()).hits) expected.push_back(hit.id);
  const std::vector<std::string> search{"--db", cluster.folder, "--format",  "json",
                                        "-n",   "100",          "oil prices"};
  RunResult run = run_quarry(search);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(hit_ids(run), expected);

  // Each shard's replicas answer, served by the processes in the pid files.
  Searcher searcher(std::vector<std::string>{cluster.folder});
  const IndexStats stats = searcher.stats();
  ASSERT_EQ(stats.shard_replicas.size(), 2u);
  for (const ShardStats& shard : stats.shard_replicas) {
    ASSERT_EQ(shard.replicas.size(), 2u);
    for (const ReplicaStats& replica : shard.replicas) EXPECT_TRUE(replica.answers) << replica.name;
  }
  for (std::size_t shard = 0; shard < 2; ++shard) {
    for (const char* name : {"master", "replica-0", "replica-1", "replicate-0", "replicate-1"}) {
      EXPECT_GT(cluster.pid(shard, name), 0) << shard << " " << name;
    }
  }

  // A replica killed: the same answer, from the other.
  ASSERT_EQ(kill(cluster.pid(1, "replica-0"), SIGKILL), 0);
  for (int n = 0; n < 2; ++n) {
    run = run_quarry(search);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.err, "");
    EXPECT_EQ(hit_ids(run), expected);
  }

  // Articles indexed into the master reach the replicas.
  write_file(dir / "b.jsonl", to_json_lines(later_news("later-", 10)));
  RunResult added =
      run_program(QUARRY_INDEX_BIN, {"--db", cluster.folder + "/master", "--changesets", "100",
                                     "-q", (dir / "b.jsonl").string()});
  ASSERT_EQ(added.exit_code, 0) << added.err;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  std::size_t found = 0;
  while (found != 10 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    run = run_quarry({"--db", cluster.folder, "--format", "json", "-n", "100", "dockers"});
    if (run.exit_code == 0) found = hit_ids(run).size();
  }
  EXPECT_EQ(found, 10u) << run.err;

  const pid_t server = cluster.pid(0, "replica-1");
  RunResult stopped = run_program(local_cluster(), {"stop", cluster.folder});
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
  EXPECT_FALSE(fs::exists(fs::path(cluster.folder) / "shard-0" / "replica-1.pid"));
  EXPECT_FALSE(runs(server)) << "the server still runs";
  run = run_quarry(search);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("is unreachable"), std::string::npos) << run.err;
}

// A socket listening on loopback `port`, or -1.
int listen_on_port(unsigned port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  if (bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      listen(fd, 4) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Waits (bounded) for process `pid` to end.
bool ends(pid_t pid) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (runs(pid) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return !runs(pid);
}

TEST(LocalCluster, StopEndsTheChildrenOfServersKilledBeforeAndChecksThePorts) {
  TempDir dir;
  write_file(dir / "a.jsonl", to_json_lines(news()));
  LocalCluster cluster(dir, {(dir / "a.jsonl").string()});
  ASSERT_EQ(cluster.started.exit_code, 0) << cluster.started.out << cluster.started.err;
  std::vector<unsigned> ports;
  for (std::size_t shard = 0; shard < 2; ++shard) {
    for (const char* name : {"master", "replica-0", "replica-1"}) {
      ports.push_back(cluster.port(shard, name));
      EXPECT_TRUE(accepts_connections(ports.back())) << shard << " " << name;
    }
  }

  // A connection to three replicas' servers, which each fork a child to
  // serve; then each server killed by its pid file (SIGKILL: on SIGTERM
  // xapian-tcpsrv ends its group itself): one replica of shard 0, both of
  // shard 1. Their children serve on.
  const std::pair<std::size_t, std::string> killed[] = {
      {0, "replica-0"}, {1, "replica-0"}, {1, "replica-1"}};
  std::vector<Xapian::Database> connections;
  for (const auto& [shard, name] : killed) {
    connections.push_back(Xapian::Remote::open("127.0.0.1", cluster.port(shard, name), 10000));
  }
  for (const auto& [shard, name] : killed) {
    ASSERT_EQ(kill(cluster.pid(shard, name), SIGKILL), 0);
    ASSERT_TRUE(ends(cluster.pid(shard, name))) << shard << " " << name;
  }
  for (Xapian::Database& connection : connections) EXPECT_NO_THROW(connection.keep_alive());

  // Shard 0's other replica gone with its group, and its port taken by a
  // process the cluster did not start: stop names it.
  const unsigned taken = cluster.port(0, "replica-1");
  ASSERT_EQ(kill(-cluster.pid(0, "replica-1"), SIGKILL), 0);
  ASSERT_TRUE(ends(cluster.pid(0, "replica-1")));
  const int holder = listen_on_port(taken);
  ASSERT_GE(holder, 0) << std::strerror(errno);

  const RunResult stopped = run_program(local_cluster(), {"stop", cluster.folder});
  close(holder);
  EXPECT_EQ(stopped.exit_code, 1) << stopped.out << stopped.err;
  EXPECT_EQ(stopped.err, "local-cluster: still held after stopping: port " + std::to_string(taken) +
                             " (listening)\n");
  EXPECT_FALSE(fs::exists(fs::path(cluster.folder) / "shard-0" / "replica-0.pid"));
  for (Xapian::Database& connection : connections) {
    EXPECT_THROW(connection.keep_alive(), Xapian::Error) << "a killed server's child serves on";
  }
  for (const unsigned port : ports) EXPECT_FALSE(accepts_connections(port)) << port;
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
