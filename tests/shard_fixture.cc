#include "tests/shard_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "lib/index/schema.h"
#include "lib/index/shard_set.h"
#include "quarry/index/index_writer.h"

namespace quarry::testing {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr char kSynonyms[] = "football, soccer\n";

// Scores of shards and of one database agree to this relative difference:
// Xapian adds a hit's term weights in an order that depends on each
// database's statistics, so the last bits may differ.
constexpr double kScoreTolerance = 1e-9;

void expect_close(double got, double expected, const std::string& what) {
  EXPECT_LE(std::abs(got - expected), kScoreTolerance * std::abs(expected))
      << what << ": " << got << " vs " << expected;
}

}  // namespace

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
  for (std::size_t n = 0; n < kShardArticles; ++n) {
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

std::vector<Article> later_news(const std::string& prefix, std::size_t count) {
  std::vector<Article> articles;
  for (std::size_t n = 0; n < count; ++n) {
    articles.push_back({prefix + std::to_string(n), "Harbour strike",
                        "Dockers at the harbour went on strike again.", "2017-12-30", "business",
                        "Reuters"});
  }
  return articles;
}

const std::vector<std::string> kShardQueries = {
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

std::string build(const TempDir& dir, const std::string& name, std::size_t shards,
                  const std::vector<Article>& articles) {
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

SearchOptions page_with_facets() {
  SearchOptions options;
  options.limit = 5;
  options.offset = 5;
  options.facets.fields = {FacetField::kSource, FacetField::kCategory, FacetField::kDate};
  return options;
}

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

void expect_same_results(Searcher& one, Searcher& shards, const std::string& label,
                         const std::vector<std::string>& queries) {
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

OpenOptions allowing_partial() {
  OpenOptions options;
  options.allow_partial = true;
  return options;
}

RunResult run_quarry(const std::vector<std::string>& args) { return run_program(QUARRY_BIN, args); }

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

bool runs(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const std::size_t end = line.rfind(')');
  return end != std::string::npos && end + 2 < line.size() && line[end + 2] != 'Z';
}

ServedSet::ServedSet(const TempDir& dir)
    : set(build(dir, "set", 2)),
      first({shard_path(set, 0)}),
      second({shard_path(set, 1)}),
      stub(remote_stub(dir, set, {&first, &second})) {}

std::size_t CuttingProxy::pass(std::size_t link, const char* bytes, std::size_t size, bool* end) {
  Frame& frame = frames_[link];
  for (std::size_t i = 0; i < size; ++i) {
    const auto byte = static_cast<unsigned char>(bytes[i]);
    switch (frame.at) {
      case Frame::At::kType:
        frame.at = Frame::At::kLength;
        if (++messages_ == cut_at_) {
          cut_ = true;
          *end = true;
          return i + 1;
        }
        break;
      case Frame::At::kLength:
        frame.left = byte;
        frame.shift = 0;
        frame.at = byte == 0xff ? Frame::At::kLongLength
                   : byte == 0  ? Frame::At::kType
                                : Frame::At::kBody;
        break;
      case Frame::At::kLongLength:
        // 255 more than the bytes that follow, seven bits at a time, the
        // last with its top bit set.
        if (frame.shift == 0) frame.left = 255;
        frame.left += static_cast<std::size_t>(byte & 0x7f) << frame.shift;
        frame.shift += 7;
        if (byte & 0x80) frame.at = frame.left == 0 ? Frame::At::kType : Frame::At::kBody;
        break;
      case Frame::At::kBody: {
        const std::size_t skip = std::min(frame.left, size - i);
        frame.left -= skip;
        i += skip - 1;
        if (frame.left == 0) frame.at = Frame::At::kType;
        break;
      }
    }
  }
  return size;
}

ReplicatedSet::ReplicatedSet(const TempDir& dir)
    : set(build(dir, "set", 2)),
      servers{std::make_unique<TcpServer>(std::vector<std::string>{shard_path(set, 0)}),
              std::make_unique<TcpServer>(std::vector<std::string>{shard_path(set, 0)}),
              std::make_unique<TcpServer>(std::vector<std::string>{shard_path(set, 1)}),
              std::make_unique<TcpServer>(std::vector<std::string>{shard_path(set, 1)})} {
  for (const auto& server : servers) lines.push_back(server->stub_line());
  write_stub(dir);
}

void ReplicatedSet::add_proxies(const TempDir& dir) {
  for (const auto& server : servers) {
    proxies.push_back(std::make_unique<CuttingProxy>(server->port()));
  }
  lines.clear();
  for (const auto& proxy : proxies) lines.push_back(proxy->stub_line());
  write_stub(dir);
}

void ReplicatedSet::write_stub(const TempDir& dir) {
  write_file(dir / "replicas.stub", "auto " + lexicon_path(set) + "\n" + lines[0] + "\n#replica " +
                                        lines[1] + "\n" + lines[2] + "\n#replica " + lines[3] +
                                        "\n");
  stub = (dir / "replicas.stub").string();
}

std::string ReplicatedSet::shard_name(std::size_t index) const {
  return "shard " + lines[2 * index] + " or " + lines[2 * index + 1];
}

std::size_t searched_replica(Searcher& searcher, std::size_t index) {
  const IndexStats stats = searcher.stats();
  EXPECT_EQ(stats.shard_replicas.size(), 2u);
  const std::vector<ReplicaStats>& replicas = stats.shard_replicas.at(index).replicas;
  EXPECT_EQ(replicas.size(), 2u);
  EXPECT_NE(replicas.at(0).searched, replicas.at(1).searched);
  return replicas.at(0).searched ? 0 : 1;
}

}  // namespace quarry::testing
