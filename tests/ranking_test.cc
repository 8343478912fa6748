// Weighting schemes and their parameters (lib/ranking.cc), and how ranking
// options change a search's scores and order.
#include "quarry/search/ranking.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lib/search/weighting_scheme.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::sorted_ids;
using Parameters = std::map<std::string, double>;

std::vector<std::string> scheme_names() {
  std::vector<std::string> names;
  std::istringstream in(ranking_schemes());
  for (std::string name; in >> name;) names.push_back(name);
  return names;
}

TEST(Ranking, EverySchemeCanBeMade) {
  const std::vector<std::string> names = scheme_names();
  EXPECT_GE(names.size(), 10u);
  for (const std::string& name : names) {
    RankingConfig config;
    config.scheme = name;
    std::unique_ptr<Xapian::Weight> weight;
    ASSERT_NO_THROW(weight = detail::make_weight(config)) << name;
    EXPECT_NE(weight, nullptr) << name;
  }
}

struct WeightCase {
  std::string scheme;
  Parameters parameters;
};

TEST(Ranking, SchemesTakeTheirOwnParameters) {
  const std::vector<WeightCase> accepted = {
      {"bm25", {{"k1", 2}, {"b", 0.5}}},
      {"bm25+", {{"delta", 0.5}}},
      {"pl2", {{"c", 2}}},
      {"trad", {{"k", 0.5}}},
  };
  for (const WeightCase& c : accepted) {
    EXPECT_NO_THROW(detail::make_weight({c.scheme, c.parameters})) << c.scheme;
    EXPECT_NO_THROW(check_ranking({c.scheme, c.parameters})) << c.scheme;
  }
  const std::vector<WeightCase> rejected = {
      {"nosuch", {}},
      {"", {}},
      {"bm25", {{"c", 1}}},
      {"tfidf", {{"k1", 1}}},
      {"bool", {{"k1", 1}}},
      {"bm25", {{"", 1}}},
      // Xapian's own refusal of a value comes out as a ConfigError too.
      {"pl2", {{"c", 0}}},
  };
  for (const WeightCase& c : rejected) {
    EXPECT_THROW(detail::make_weight({c.scheme, c.parameters}), ConfigError) << c.scheme;
    EXPECT_THROW(check_ranking({c.scheme, c.parameters}), ConfigError) << c.scheme;
  }
}

TEST(Ranking, UnknownSchemeErrorListsTheKnownOnes) {
  try {
    detail::make_weight({"nosuch", {}});
    FAIL();
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("nosuch"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("bm25"), std::string::npos) << error.what();
  }
}

// A parameter out of its range is refused, naming the range, rather than
// ranking every match NaN or infinity.
TEST(Ranking, ParametersMustBeFiniteAndInRange) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::pair<WeightCase, std::string>> rejected = {
      {{"bm25", {{"k1", nan}}}, "k1 must be a number from 0 to 1000"},
      {{"bm25", {{"b", nan}}}, "b must be a number from 0 to 1"},
      {{"bm25", {{"k1", 1e308}}}, "k1 must be a number from 0 to 1000"},
      {{"bm25", {{"k1", inf}}}, "k1 must be a number from 0 to 1000"},
      {{"bm25", {{"k1", -1}}}, "k1 must be a number from 0 to 1000"},
      {{"bm25", {{"b", 1.5}}}, "b must be a number from 0 to 1"},
      {{"bm25", {{"b", -0.1}}}, "b must be a number from 0 to 1"},
      {{"bm25+", {{"delta", -inf}}}, "delta must be a number from 0 to 1000"},
      {{"pl2", {{"c", nan}}}, "c must be a number from 0 to 1000"},
      {{"trad", {{"k", 1e9}}}, "k must be a number from 0 to 1000"},
  };
  for (const auto& [c, message] : rejected) {
    try {
      check_ranking({c.scheme, c.parameters});
      ADD_FAILURE() << c.scheme << " " << c.parameters.begin()->first << " accepted";
    } catch (const ConfigError& error) {
      EXPECT_EQ(error.what(), "ranking scheme " + c.scheme + ": " + message);
    }
  }
  for (const WeightCase& c : std::vector<WeightCase>{{"bm25", {{"k1", 0}, {"b", 0}}},
                                                     {"bm25", {{"k1", 1000}, {"b", 1}}}}) {
    EXPECT_NO_THROW(check_ranking({c.scheme, c.parameters})) << c.scheme;
  }
}

Article article(std::string id, std::string title, std::string body) {
  return {std::move(id), std::move(title), std::move(body), "2018-01-10", "sport", "Express"};
}

// "quokka" is in the title of r1 only, once in a long article, and twice in
// the short body of r2: by the words alone r2 ranks first.
const std::vector<Article>& corpus() {
  static const std::vector<Article> kArticles = {
      article("r1", "Quokka sighting",
              "Visitors to the island spent the whole of a long weekend walking the coastal "
              "paths, watching the ferries come and go, eating in the harbour cafes and taking "
              "photographs of the lighthouse, the beaches, the dunes and the old prison before "
              "the last boat took them back to the mainland."),
      article("r2", "Island report", "A quokka ran past the shop. The quokka smiled."),
      article("r3", "Harbour works", "The harbour wall will be repaired this winter."),
      article("r4", "Ferry times", "Ferries leave the mainland every hour in summer."),
      article("r5", "Lighthouse open", "The lighthouse opens to visitors on Sundays."),
      article("r6", "Beach clean", "Volunteers cleaned the beaches after the storm."),
      article("r7", "Cafe awards", "Two harbour cafes won awards for their coffee."),
      article("r8", "Prison tours", "Tours of the old prison start in March."),
  };
  return kArticles;
}

class RankingSearch : public testing::SharedIndexTest {
 protected:
  static void SetUpTestSuite() { ASSERT_EQ(index_suite_articles(corpus()).added, corpus().size()); }

  static SearchOptions with_scheme(const std::string& scheme) {
    SearchOptions options;
    options.limit = 100;
    options.snippets.enabled = false;
    options.ranking.scheme = scheme;
    return options;
  }

  static const Hit& hit(const SearchResult& result, const std::string& id) {
    auto found = std::find_if(result.hits.begin(), result.hits.end(),
                              [&](const Hit& h) { return h.id == id; });
    if (found == result.hits.end()) throw std::runtime_error("no hit " + id);
    return *found;
  }
};

TEST_F(RankingSearch, EverySchemeFindsTheSameArticles) {
  const std::string query = "quokka OR lighthouse";
  const std::vector<std::string> expected = {"r1", "r2", "r5"};
  for (const std::string& scheme : scheme_names()) {
    SearchResult result;
    ASSERT_NO_THROW(result = searcher().search(query, with_scheme(scheme))) << scheme;
    EXPECT_EQ(sorted_ids(result), expected) << scheme;
    for (const Hit& h : result.hits) EXPECT_TRUE(std::isfinite(h.score)) << scheme;
  }
}

TEST_F(RankingSearch, SchemesScoreDifferently) {
  const SearchResult bm25 = searcher().search("quokka", with_scheme("bm25"));
  const SearchResult tfidf = searcher().search("quokka", with_scheme("tfidf"));
  ASSERT_EQ(bm25.hits.size(), 2u);
  ASSERT_EQ(tfidf.hits.size(), 2u);
  EXPECT_GT(std::abs(hit(bm25, "r2").score - hit(tfidf, "r2").score), 1e-6);

  for (const Hit& h : searcher().search("quokka", with_scheme("bool")).hits) {
    EXPECT_EQ(h.score, 0) << h.id;
  }

  SearchOptions flat = with_scheme("bm25");
  flat.ranking.parameters = {{"b", 0}};
  SearchOptions normalized = with_scheme("bm25");
  normalized.ranking.parameters = {{"b", 1}};
  EXPECT_NE(hit(searcher().search("quokka", flat), "r1").score,
            hit(searcher().search("quokka", normalized), "r1").score);
}

TEST_F(RankingSearch, BadRankingOptionIsAConfigError) {
  EXPECT_THROW(searcher().search("quokka", with_scheme("nosuch")), ConfigError);
  SearchOptions options = with_scheme("tfidf");
  options.ranking.parameters = {{"k1", 1}};
  EXPECT_THROW(searcher().search("quokka", options), ConfigError);
}

TEST_F(RankingSearch, TitleWeightPromotesTitleMatches) {
  SearchOptions options = with_scheme("bm25");
  const SearchResult plain = searcher().search("quokka", options);
  ASSERT_EQ(plain.hits.size(), 2u);
  EXPECT_EQ(plain.hits[0].id, "r2");
  EXPECT_GE(plain.hits[0].score, plain.hits[1].score);

  options.parser.title_weight = 3;
  const SearchResult weighted = searcher().search("quokka", options);
  ASSERT_EQ(weighted.hits.size(), 2u);
  EXPECT_EQ(weighted.hits[0].id, "r1");
  EXPECT_GT(weighted.hits[0].score, weighted.hits[1].score);
  // The body-only article scores as before.
  EXPECT_NEAR(hit(weighted, "r2").score, hit(plain, "r2").score, 1e-9);
}

double sum(const std::vector<Contribution>& parts) {
  double total = 0;
  for (const Contribution& part : parts) total += part.weight;
  return total;
}

TEST_F(RankingSearch, ExplanationAddsUpToTheScore) {
  SearchOptions options = with_scheme("bm25");
  options.explain.enabled = true;
  const SearchResult result = searcher().search("quokka island", options);
  ASSERT_EQ(sorted_ids(result), (std::vector<std::string>{"r1", "r2"}));
  for (const Hit& h : result.hits) {
    ASSERT_FALSE(h.explanation.empty()) << h.id;
    EXPECT_NEAR(sum(h.explanation), h.score, 1e-6) << h.id;
    for (const Contribution& part : h.explanation) EXPECT_GT(part.weight, 0) << part.part;
  }
  // Each article holds both words, one in its title, one in its body.
  EXPECT_EQ(hit(result, "r1").explanation.size(), 2u);
  EXPECT_EQ(hit(result, "r2").explanation.size(), 2u);

  options.explain.enabled = false;
  for (const Hit& h : searcher().search("quokka island", options).hits) {
    EXPECT_TRUE(h.explanation.empty()) << h.id;
  }
}

TEST_F(RankingSearch, ExplanationAddsUpWithTitleWeight) {
  SearchOptions options = with_scheme("bm25");
  options.explain.enabled = true;
  options.parser.title_weight = 3;
  const SearchResult result = searcher().search("quokka island", options);
  ASSERT_FALSE(result.hits.empty());
  for (const Hit& h : result.hits) {
    EXPECT_NEAR(sum(h.explanation), h.score, 1e-6) << h.id;
  }
}

}  // namespace
}  // namespace quarry
