// Free words scored by Bm25WordsSource (lib/bm25_source.cc) must rank and
// score exactly as Xapian's BM25Weight does, with or without the table of
// lengths, whatever the pruning skips. The reference is Xapian ranking every
// match: Xapian 1.4's own pruning was seen to miss qualifying documents.
#include "lib/search/bm25_source.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "lib/search/query_parser.h"
#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "quarry/text/analyzer.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::TempDir;

// Made-up words, so that frequencies, not English, decide who is common.
std::vector<std::string> make_vocabulary(std::size_t size, std::mt19937& random) {
  static const char* const kSyllables[] = {"ba", "ko", "ri", "mu", "te", "lo", "sa", "vi",
                                           "ne", "du", "pa", "gi", "zo", "fe", "hu", "ca"};
  std::uniform_int_distribution<int> syllable(0, 15), count(2, 4);
  std::vector<std::string> words;
  while (words.size() < size) {
    std::string word;
    for (int i = count(random); i > 0; --i) word += kSyllables[syllable(random)];
    if (std::find(words.begin(), words.end(), word) == words.end()) words.push_back(word);
  }
  return words;
}

// A few words in most articles, most words in few, as in news.
const std::string& pick(const std::vector<std::string>& words, std::mt19937& random) {
  std::uniform_real_distribution<double> u(0, 1);
  const double x = u(random);
  return words[static_cast<std::size_t>(static_cast<double>(words.size()) * x * x * x)];
}

std::vector<Article> make_articles(const std::vector<std::string>& words, std::size_t count,
                                   std::mt19937& random) {
  std::uniform_int_distribution<int> length(1, 300), title_length(0, 6);
  std::vector<Article> articles;
  for (std::size_t i = 0; i < count; ++i) {
    Article article;
    article.id = "a" + std::to_string(i);
    for (int w = title_length(random); w > 0; --w) article.title += pick(words, random) + " ";
    for (int w = length(random); w > 0; --w) article.body += pick(words, random) + " ";
    article.date = "2020-01-01";
    article.category = i % 3 == 0 ? "sport" : "news";
    articles.push_back(std::move(article));
  }
  return articles;
}

std::vector<std::string> make_queries(const std::vector<std::string>& words, std::size_t count,
                                      std::mt19937& random) {
  std::uniform_int_distribution<int> size(1, 6), shape(0, 9);
  std::vector<std::string> queries;
  for (std::size_t i = 0; i < count; ++i) {
    std::string query;
    for (int w = size(random); w > 0; --w) query += pick(words, random) + " ";
    switch (shape(random)) {
      case 0:
        query += "-" + pick(words, random);
        break;
      case 1:
        query += "category:sport";
        break;
      case 2:
        query += "\"" + pick(words, random) + " " + pick(words, random) + "\"";
        break;
      case 3:
        query += "nosuchword";
        break;
      case 4:
        query += query;
        break;  // every word twice
      default:
        break;
    }
    queries.push_back(query);
  }
  return queries;
}

// The first `limit` hits from `offset` when Xapian scores every match, with
// nothing pruned.
std::vector<std::pair<Xapian::docid, double>> exhaustive(Xapian::Enquire& enquire,
                                                         const Xapian::Database& db,
                                                         const Xapian::Query& query,
                                                         Xapian::doccount offset,
                                                         Xapian::doccount limit) {
  enquire.set_query(query);
  const Xapian::MSet all = enquire.get_mset(0, db.get_doccount());
  std::vector<std::pair<Xapian::docid, double>> hits;
  for (Xapian::doccount i = offset; i < all.size() && i < offset + limit; ++i) {
    hits.emplace_back(*all[i], all[i].get_weight());
  }
  return hits;
}

// Same hits in the same order, but for hits whose scores tie (to the last
// bits, which depend on the order Xapian adds the words' weights in).
void expect_same(const std::vector<std::pair<Xapian::docid, double>>& expected,
                 const Xapian::MSet& actual, const std::string& query) {
  ASSERT_EQ(expected.size(), actual.size()) << query;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double want = expected[i].second;
    const auto hit = actual[static_cast<Xapian::doccount>(i)];
    EXPECT_NEAR(hit.get_weight(), want, 1e-12 * want) << query << " hit " << i;
    if (*hit == expected[i].first) continue;
    const bool ties =
        (i > 0 && std::abs(expected[i - 1].second - want) <= 1e-12 * want) ||
        (i + 1 < expected.size() && std::abs(expected[i + 1].second - want) <= 1e-12 * want);
    EXPECT_TRUE(ties) << query << ": hit " << i << " is " << *hit << ", not " << expected[i].first
                      << ", and ties no neighbour";
  }
}

class Bm25SourceTest : public testing::SharedIndexTest {
 protected:
  static void SetUpTestSuite() {
    std::mt19937 random(20261201);
    words_ = std::make_unique<std::vector<std::string>>(make_vocabulary(400, random));
    index_suite_articles(make_articles(*words_, 3000, random));
    queries_ = std::make_unique<std::vector<std::string>>(make_queries(*words_, 300, random));
  }
  static void TearDownTestSuite() {
    queries_.reset();
    words_.reset();
    SharedIndexTest::TearDownTestSuite();
  }

  static std::unique_ptr<std::vector<std::string>> words_;
  static std::unique_ptr<std::vector<std::string>> queries_;
};

std::unique_ptr<std::vector<std::string>> Bm25SourceTest::words_;
std::unique_ptr<std::vector<std::string>> Bm25SourceTest::queries_;

TEST_F(Bm25SourceTest, ScoresAsXapianDoesWithAndWithoutTheTable) {
  Xapian::Database db(db_path());
  const Analyzer analyzer;
  const detail::QueryParser parser(analyzer, {}, &db);
  // Xapian's k3 (0 or 1 here) must make no difference to words a source
  // takes.
  for (const auto& [p, k3] : {std::pair{detail::Bm25Parameters{1.5, 0.6, 0.5}, 1.0},
                              std::pair{detail::Bm25Parameters{1.2, 0.75, 0.5}, 1.0},
                              std::pair{detail::Bm25Parameters{1.2, 0, 0.5}, 0.0},
                              std::pair{detail::Bm25Parameters{0, 0.5, 0.5}, 1.0}}) {
    const auto norms = std::make_shared<const detail::LengthNorms>(db, p);
    Xapian::Enquire enquire(db);
    enquire.set_weighting_scheme(Xapian::BM25Weight(p.k1, 0, k3, p.b, p.min_normlen));
    std::size_t rewritten = 0;
    for (const std::string& query : *queries_) {
      const Xapian::Query parsed = parser.parse(query).query;
      // Queries left to Xapian are Xapian's business.
      if (detail::with_bm25_sources(parsed, p, nullptr).get_description() ==
          parsed.get_description()) {
        continue;
      }
      ++rewritten;
      for (const auto& [offset, limit] :
           {std::pair{0u, 1u}, std::pair{0u, 10u}, std::pair{0u, 100u}, std::pair{7u, 5u}}) {
        const auto expected = exhaustive(enquire, db, parsed, offset, limit);
        // The estimated total is Xapian's, from the same statistics.
        enquire.set_query(parsed);
        const Xapian::doccount total = enquire.get_mset(offset, limit).get_matches_estimated();
        enquire.set_query(detail::with_bm25_sources(parsed, p, norms));
        const Xapian::MSet with_table = enquire.get_mset(offset, limit);
        expect_same(expected, with_table, query);
        EXPECT_EQ(with_table.get_matches_estimated(), total) << query;
        enquire.set_query(detail::with_bm25_sources(parsed, p, nullptr));
        expect_same(expected, enquire.get_mset(offset, limit), query);
      }
    }
    // Words alone, with a filter or a NOT: most queries people type.
    EXPECT_GT(rewritten, queries_->size() * 6 / 10);
  }
}

TEST_F(Bm25SourceTest, PhrasesAndFiltersStayWithXapian) {
  const Analyzer analyzer;
  Xapian::Database db(db_path());
  const detail::QueryParser parser(analyzer, {}, &db);
  const detail::Bm25Parameters p{1.5, 0.6, 0.5};
  const std::string a = (*words_)[0], b = (*words_)[1];
  // A bag is one source; what is not a plain word keeps its own query.
  EXPECT_EQ(detail::with_bm25_sources(parser.parse(a + " " + b).query, p, nullptr).get_type(),
            Xapian::Query::LEAF_POSTING_SOURCE);
  const Xapian::Query phrase =
      detail::with_bm25_sources(parser.parse("\"" + a + " " + b + "\"").query, p, nullptr);
  EXPECT_EQ(phrase.get_type(), Xapian::Query::OP_PHRASE);
  const Xapian::Query filtered =
      detail::with_bm25_sources(parser.parse(a + " " + b + " category:sport").query, p, nullptr);
  EXPECT_NE(filtered.get_description().find("PostingSource"), std::string::npos);
  const Xapian::Query mixed =
      detail::with_bm25_sources(parser.parse(a + " \"" + a + " " + b + "\"").query, p, nullptr);
  EXPECT_EQ(mixed.get_description().find("PostingSource"), std::string::npos);
}

TEST_F(Bm25SourceTest, OnlyBm25WithoutK2IsTaken) {
  EXPECT_TRUE(detail::bm25_parameters(RankingConfig{}).has_value());
  EXPECT_FALSE(detail::bm25_parameters(RankingConfig{"bm25", {{"k2", 1}}}).has_value());
  EXPECT_FALSE(detail::bm25_parameters(RankingConfig{"bm25+", {}}).has_value());
  EXPECT_FALSE(detail::bm25_parameters(RankingConfig{"tfidf", {}}).has_value());
}

// The top `limit` scores of Xapian's own BM25 with Quarry's default
// parameters for `query`, read as `searcher` reads it, on the index at
// `db_path` as it is now.
std::vector<double> native_scores(const std::string& db_path, const Searcher& searcher,
                                  const std::string& query, Xapian::doccount limit) {
  Xapian::Database db(db_path);
  const detail::QueryParser parser(searcher.analyzer(), {}, &db);
  Xapian::Enquire enquire(db);
  enquire.set_weighting_scheme(Xapian::BM25Weight(1.5, 0, 1, 0.6, 0.5));
  enquire.set_query(parser.parse(query).query);
  std::vector<double> scores;
  const Xapian::MSet mset = enquire.get_mset(0, limit);
  for (auto it = mset.begin(); it != mset.end(); ++it) scores.push_back(it.get_weight());
  return scores;
}

// 200 articles of a vocabulary of 50 random words drawn from `seed`,
// indexed in a folder of their own, and a searcher of them; `random` draws
// on from there.
struct RandomIndex {
  explicit RandomIndex(unsigned seed)
      : random(seed),
        words(make_vocabulary(50, random)),
        articles(make_articles(words, 200, random)),
        searcher(indexed(dir, articles)) {}

  std::mt19937 random;
  const std::vector<std::string> words;
  std::vector<Article> articles;
  TempDir dir;
  Searcher searcher;

 private:
  static std::string indexed(const TempDir& dir, const std::vector<Article>& articles) {
    testing::index_articles(dir, articles);
    return testing::index_path(dir);
  }
};

// A session reads the table at its second search; it must not keep
// scoring with lengths of articles that have since changed.
TEST(Bm25SourceSearcher, RepeatedSearchesFollowTheIndex) {
  RandomIndex index(7);
  auto& [random, words, articles, dir, searcher] = index;
  const std::string query = words[0] + " " + words[1] + " " + words[7];

  // `searches` searches in a row, each scoring as Xapian does.
  auto expect_native = [&](int searches) {
    for (int search = 0; search < searches; ++search) {
      std::vector<double> got;
      for (const Hit& hit : searcher.search(query).hits) got.push_back(hit.score);
      const std::vector<double> want = native_scores(testing::index_path(dir), searcher, query, 10);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12 * want[i]);
    }
  };
  expect_native(3);
  // Every article rewritten longer, and new ones: lengths and the average
  // change.
  for (Article& article : articles) article.body += article.body + words[0];
  for (Article& article : make_articles(words, 50, random)) {
    article.id += "-new";
    articles.push_back(article);
  }
  testing::index_articles(dir, articles);
  expect_native(2);
}

// A live index commits every second: the table is kept across commits
// that only add articles, scoring with the average length of now, and read
// again once one article is replaced in place.
TEST(Bm25SourceSearcher, ATableKeptAcrossCommitsThatAddScoresAsXapianDoes) {
  RandomIndex index(11);
  auto& [random, words, articles, dir, searcher] = index;
  const std::string query = words[0] + " " + words[2] + " " + words[5];
  auto expect_native = [&](const std::string& step) {
    std::vector<double> got;
    for (const Hit& hit : searcher
                              .search(query,
                                      [] {
                                        SearchOptions options;
                                        options.limit = 20;
                                        return options;
                                      }())
                              .hits) {
      got.push_back(hit.score);
    }
    const std::vector<double> want = native_scores(testing::index_path(dir), searcher, query, 20);
    ASSERT_EQ(got.size(), want.size()) << step;
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_NEAR(got[i], want[i], 1e-12 * want[i]) << step << ", hit " << i;
    }
  };
  expect_native("first");
  expect_native("with the table read");
  // Long new articles move the average length.
  std::vector<Article> added = make_articles(words, 60, random);
  for (Article& article : added) {
    article.id += "-added";
    article.body += " " + article.body + " " + article.body;
  }
  articles.insert(articles.end(), added.begin(), added.end());
  testing::index_articles(dir, articles);
  expect_native("after articles were added");
  // One article holding the query's words made much longer, in place.
  for (Article& article : articles) {
    if (article.body.find(words[0]) == std::string::npos) continue;
    for (int i = 0; i < 20; ++i) article.body += " " + words[(i * 7) % words.size()];
    break;
  }
  testing::index_articles(dir, articles);
  expect_native("after an article was replaced");
}

}  // namespace
}  // namespace quarry
