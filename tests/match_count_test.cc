// How many articles match, and how many by source, category, language and
// month: exact counts up to the count limit (or as far as a page reaches
// past it), a lower bound past it, whatever else the page asked for; facets
// that add up and agree with filtered counts.
#include "lib/search/match_count.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "quarry/error.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

constexpr std::size_t kArticles = 60;

std::string two_digits(std::size_t n) { return (n < 10 ? "0" : "") + std::to_string(n); }

// Article n holds "alpha" when n is even, "beta" when a multiple of 3,
// "gamma" when a multiple of 5, always in that order, so that each count
// below follows from n alone.
std::string source_of(std::size_t n) {
  switch (n % 4) {
    case 0:
      return "Reuters";
    case 1:
      // The same source, spelt otherwise now and then: one facet value.
      return n % 8 == 1 ? "REUTERS" : "Reuters";
    case 2:
      return "AP";
    default:
      return "";
  }
}

std::string category_of(std::size_t n) {
  static const char* const kCategories[] = {"sport", "business", "politics"};
  return kCategories[n % 3];
}

// Even articles are dated, one month of 2017 after another; odd ones have
// no date.
std::string date_of(std::size_t n) {
  if (n % 2) return "";
  return "2017-" + two_digits(1 + (n / 2) % 12) + "-" + two_digits(1 + n % 28);
}

std::vector<Article> counted_articles() {
  std::vector<Article> articles;
  for (std::size_t n = 0; n < kArticles; ++n) {
    Article article;
    article.id = "a" + two_digits(n);
    article.title = "Report " + std::to_string(n);
    if (n % 2 == 0) article.body += "alpha ";
    if (n % 3 == 0) article.body += "beta ";
    if (n % 5 == 0) article.body += "gamma ";
    article.body += "filler text closes every article";
    article.source = source_of(n);
    article.category = category_of(n);
    article.date = date_of(n);
    articles.push_back(std::move(article));
  }
  return articles;
}

struct CountCase {
  std::string query;
  std::function<bool(std::size_t)> matches;
};

const std::vector<CountCase>& count_cases() {
  static const std::vector<CountCase> kCases = {
      {"alpha", [](std::size_t n) { return n % 2 == 0; }},
      {"alpha beta", [](std::size_t n) { return n % 2 == 0 || n % 3 == 0; }},
      {"alpha beta gamma", [](std::size_t n) { return n % 2 == 0 || n % 3 == 0 || n % 5 == 0; }},
      {"alpha AND beta", [](std::size_t n) { return n % 6 == 0; }},
      {"alpha -gamma", [](std::size_t n) { return n % 2 == 0 && n % 5 != 0; }},
      {"\"alpha beta\"", [](std::size_t n) { return n % 6 == 0; }},
      {"\"alpha gamma\"", [](std::size_t n) { return n % 10 == 0 && n % 3 != 0; }},
      {"bet*", [](std::size_t n) { return n % 3 == 0; }},
      {"source:reuters alpha", [](std::size_t n) { return n % 4 == 0; }},
      {"category:sport OR gamma", [](std::size_t n) { return n % 3 == 0 || n % 5 == 0; }},
      {"date:2017-03 filler", [](std::size_t n) { return date_of(n).starts_with("2017-03"); }},
      {"filler", [](std::size_t) { return true; }},
      {"zebra", [](std::size_t) { return false; }},
  };
  return kCases;
}

std::size_t expected_count(const CountCase& c) {
  std::size_t count = 0;
  for (std::size_t n = 0; n < kArticles; ++n) count += c.matches(n);
  return count;
}

class MatchCountTest : public SharedIndexTest {
 protected:
  static void SetUpTestSuite() { index_suite_articles(counted_articles()); }

  static SearchOptions page(std::size_t limit, std::size_t offset = 0) {
    SearchOptions options;
    options.limit = limit;
    options.offset = offset;
    return options;
  }
};

TEST_F(MatchCountTest, TotalIsExactWhateverThePage) {
  struct Page {
    std::size_t limit;
    std::size_t offset;
  };
  const std::vector<Page> pages = {{0, 0}, {1, 0}, {2, 0}, {10, 0}, {10, 7}, {3, 100}, {1000, 0}};
  // Each query is searched many times: the first search of a Searcher reads
  // lengths from the index, the later ones from a table in memory.
  for (const CountCase& c : count_cases()) {
    const std::size_t expected = expected_count(c);
    for (const Page& p : pages) {
      const SearchResult result = searcher().search(c.query, page(p.limit, p.offset));
      EXPECT_EQ(result.total, expected) << c.query << " -n " << p.limit << " --offset " << p.offset;
      EXPECT_TRUE(result.total_exact) << c.query;
    }
    EXPECT_EQ(searcher().search(c.query, page(1000)).hits.size(), expected) << c.query;
    EXPECT_EQ(searcher().count(c.query).total, expected) << c.query;
  }
}

// A word of an index of several languages stands for its stems, each
// weighed: still a bag of words, counted apart from the ranking, which may
// then stop early. Counted apart, it is counted as its matches are.
TEST_F(MatchCountTest, SynonymsOfTermsAreCountedApartFromAPrunedRanking) {
  const Xapian::Database db(db_path());
  const auto term = [](const char* stem) { return Xapian::Query(std::string("Z") + stem); };
  const std::vector<Xapian::Query> alpha_or_beta = {term("alpha"), term("beta")};
  const std::vector<Xapian::Query> gamma_twice = {term("gamma"), term("gamma")};
  const Xapian::Query synonyms(
      Xapian::Query::OP_OR,
      Xapian::Query(Xapian::Query::OP_SYNONYM, alpha_or_beta.begin(), alpha_or_beta.end()),
      Xapian::Query(
          Xapian::Query::OP_SCALE_WEIGHT,
          Xapian::Query(Xapian::Query::OP_SYNONYM, gamma_twice.begin(), gamma_twice.end()), 0.5));
  EXPECT_EQ(detail::ranking_check_at_least(synonyms, 10000, true), 0u);
  // A word only one of the languages holds: its stem, weighed.
  const Xapian::Query weighed(Xapian::Query::OP_SCALE_WEIGHT, term("alpha"), 0.5);
  EXPECT_EQ(detail::ranking_check_at_least(weighed, 10000, true), 0u);
  const Xapian::Query phrase(Xapian::Query::OP_PHRASE, alpha_or_beta.begin(), alpha_or_beta.end());
  EXPECT_GT(detail::ranking_check_at_least(phrase, 10000, true), 0u);

  Xapian::Enquire enquire(db);
  enquire.set_query(synonyms);
  const Xapian::MSet top = enquire.get_mset(0, 1);
  const detail::MatchCount count = detail::count_matches(db, synonyms, top, 10000, true);
  EXPECT_EQ(count.total, expected_count(count_cases()[2]));  // alpha beta gamma
  EXPECT_TRUE(count.exact);
}

TEST_F(MatchCountTest, PastTheLimitTheTotalIsALowerBound) {
  for (const CountCase& c : count_cases()) {
    const std::size_t expected = expected_count(c);
    if (expected < 3) continue;
    for (std::size_t limit : {std::size_t{1}, expected / 2, expected - 1, expected, expected + 1}) {
      for (std::size_t hits : {0, 10}) {
        SearchOptions options = page(hits);
        options.count_limit = limit;
        const SearchResult result = searcher().search(c.query, options);
        SCOPED_TRACE(c.query + " with a limit of " + std::to_string(limit));
        // A page that reaches past the limit is counted to its end.
        const std::size_t counted_to = std::max(limit, hits);
        if (expected > counted_to) {
          EXPECT_EQ(result.total, counted_to);
          EXPECT_FALSE(result.total_exact);
        } else {
          EXPECT_EQ(result.total, expected);
          EXPECT_TRUE(result.total_exact);
        }
      }
    }
    // A count asked for is never limited.
    SearchOptions options;
    options.count_limit = 1;
    EXPECT_EQ(searcher().count(c.query, options).total, expected) << c.query;
  }
}

std::size_t sum(const Facet& facet) {
  std::size_t total = 0;
  for (const FacetValue& value : facet.values) total += value.count;
  return total;
}

// The filter that selects a facet's value, as a reader would type it.
std::string filter_for(FacetField field, const std::string& value) {
  return std::string(facet_name(field)) + ":\"" + value + "\"";
}

TEST_F(MatchCountTest, FacetsCountEveryMatchByField) {
  SearchOptions options = page(2);
  options.facets.fields = {FacetField::kSource, FacetField::kCategory, FacetField::kDate};
  const SearchResult result = searcher().search("filler", options);
  ASSERT_EQ(result.facets.size(), 3u);
  EXPECT_EQ(result.total, kArticles);
  EXPECT_EQ(result.hits.size(), 2u);

  // Reuters is spelt two ways: one value, named by the more common spelling.
  const std::vector<FacetValue> sources = {{"Reuters", 30}, {"AP", 15}};
  EXPECT_EQ(result.facets[0].field, FacetField::kSource);
  EXPECT_EQ(result.facets[0].values, sources);
  const std::vector<FacetValue> categories = {{"business", 20}, {"politics", 20}, {"sport", 20}};
  EXPECT_EQ(result.facets[1].values, categories);
  // Within a year: by month, the odd articles (no date) not counted.
  EXPECT_EQ(result.facets[2].field, FacetField::kDate);
  EXPECT_EQ(result.facets[2].values.size(), 12u);
  EXPECT_EQ(sum(result.facets[2]), kArticles / 2);
  for (const FacetValue& month : result.facets[2].values) {
    EXPECT_EQ(month.value.size(), 7u) << month.value;
  }
  EXPECT_TRUE(
      std::is_sorted(result.facets[2].values.begin(), result.facets[2].values.end(),
                     [](const FacetValue& a, const FacetValue& b) { return a.value < b.value; }))
      << "months in date order";
}

TEST_F(MatchCountTest, FacetsAddUpAndAgreeWithFilteredCounts) {
  SearchOptions options = page(10);
  options.facets.fields = {FacetField::kSource, FacetField::kCategory, FacetField::kDate};
  // A low count limit does not cut facets short, nor the total beside them.
  options.count_limit = 2;
  for (const CountCase& c : count_cases()) {
    SCOPED_TRACE(c.query);
    const SearchResult result = searcher().search(c.query, options);
    EXPECT_EQ(result.total, expected_count(c));
    EXPECT_TRUE(result.total_exact);
    ASSERT_EQ(result.facets.size(), 3u);
    // Every article has a category.
    EXPECT_EQ(sum(result.facets[1]), result.total);
    for (const Facet& facet : result.facets) {
      EXPECT_LE(sum(facet), result.total);
      for (std::size_t i = 0; i < facet.values.size(); ++i) {
        const FacetValue& value = facet.values[i];
        if (i > 0 && facet.field == FacetField::kDate) {
          EXPECT_LT(facet.values[i - 1].value, value.value) << "dates in date order";
        } else if (i > 0) {
          EXPECT_GE(facet.values[i - 1].count, value.count) << "largest first";
        }
        const std::string filtered = "(" + c.query + ") " + filter_for(facet.field, value.value);
        EXPECT_EQ(searcher().count(filtered).total, value.count) << filtered;
      }
    }
  }
}

// Languages are counted by their codes, as hits name them, and each code
// is the filter that selects its articles.
TEST(MatchCountLanguages, LanguagesAreCountedByCode) {
  TempDir dir;
  index_articles(dir, english_and_french_articles());
  Searcher searcher(index_path(dir));
  SearchOptions options;
  options.facets.fields = {FacetField::kLanguage};
  const SearchResult result = searcher.search("trains", options);
  ASSERT_EQ(result.facets.size(), 1u);
  EXPECT_EQ(result.facets[0].field, FacetField::kLanguage);
  const std::vector<FacetValue> languages = {{"en", 1}, {"fr", 1}};
  EXPECT_EQ(result.facets[0].values, languages);
  for (const Hit& hit : result.hits) {
    EXPECT_EQ(hit.language, hit.id == "strike-fr" ? "fr" : "en") << hit.id;
  }
  EXPECT_EQ(searcher.count("trains language:fr").total, 1u);
}

TEST(MatchCountDates, LongSpansAreCountedByYear) {
  TempDir dir;
  std::vector<Article> articles;
  const std::vector<std::string> dates = {"2001-05-01", "2001-06-01", "2005-01-02", "2010-12-31",
                                          "2010-01-01", "2010-07-14", "2010-12-30"};
  for (std::size_t i = 0; i < dates.size(); ++i) {
    articles.push_back({"d" + std::to_string(i), "Dated", "harvest news", dates[i], "", ""});
  }
  index_articles(dir, articles);
  Searcher searcher(index_path(dir));
  SearchOptions options;
  options.facets.fields = {FacetField::kDate};
  const SearchResult result = searcher.search("harvest", options);
  ASSERT_EQ(result.facets.size(), 1u);
  // A timeline: in date order, whatever the counts.
  const std::vector<FacetValue> years = {{"2001", 2}, {"2005", 1}, {"2010", 4}};
  EXPECT_EQ(result.facets[0].values, years);
  // A year is a filter too.
  EXPECT_EQ(searcher.count("harvest date:2010").total, 4u);

  // Within two years: by month.
  const SearchResult recent = searcher.search("harvest date:2010", options);
  const std::vector<FacetValue> months = {{"2010-01", 1}, {"2010-07", 1}, {"2010-12", 2}};
  EXPECT_EQ(recent.facets[0].values, months);
}

}  // namespace
}  // namespace quarry::testing
