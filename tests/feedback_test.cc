// Pseudo-relevance feedback (SearchOptions::feedback): its options, and
// what it does to a ranking.
#include "quarry/search/feedback.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "lib/search/feedback_query.h"
#include "quarry/error.h"
#include "quarry/search/searcher.h"
#include "tests/article_index.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

TEST(IsBagOfWords, OnlyTermsOrAnOrOfTerms) {
  const Xapian::Query a("Za"), b("Zb");
  EXPECT_TRUE(detail::is_bag_of_words(a));
  EXPECT_TRUE(detail::is_bag_of_words(Xapian::Query(Xapian::Query::OP_OR, a, b)));
  EXPECT_FALSE(detail::is_bag_of_words(Xapian::Query(Xapian::Query::OP_PHRASE, a, b)));
  EXPECT_FALSE(detail::is_bag_of_words(Xapian::Query(Xapian::Query::OP_AND, a, b)));
  EXPECT_FALSE(detail::is_bag_of_words(Xapian::Query(Xapian::Query::OP_FILTER, a, b)));
}

// A stem of a stray language beside the main language's words (see
// TermExpander::weighed_stems) is weighed: the query is still a bag, of
// the main language's words only.
TEST(IsBagOfWords, StemsWeighedByLanguageAreWordsOfTheBag) {
  std::vector<Xapian::Query> words;
  for (const char* term : {"Zb", "Zc", "Zd", "Ze", "Zf", "Zg"}) words.emplace_back(term);
  const Xapian::Query stray(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query("ZXDEa"), 0.05);
  words.emplace_back(Xapian::Query::OP_OR, Xapian::Query("Za"), stray);
  const Xapian::Query bag(Xapian::Query::OP_OR, words.begin(), words.end());
  EXPECT_TRUE(detail::is_bag_of_words(bag));
  FeedbackConfig config;
  config.min_words = 7;
  EXPECT_TRUE(detail::feedback_helps(bag, config));
  config.min_words = 8;
  EXPECT_FALSE(detail::feedback_helps(bag, config)) << "the stray stem is no word more";
  EXPECT_FALSE(detail::is_bag_of_words(
      Xapian::Query(Xapian::Query::OP_SCALE_WEIGHT, Xapian::Query("ZSa"), 2)))
      << "a title's weight makes no word of a bag";
}

// Twelve football reports that say "striker" often, a business note that
// mentions a striker once (a strike at a factory), and a slightly longer
// football report that says "striker" once. Alone, the word ranks the
// shorter note first of the two; the words of the best hits (goal, keeper,
// derby) lift the football report above it.
std::vector<Article> football() {
  std::vector<Article> articles;
  const std::string sport = "goal keeper derby referee midfield league penalty corner ";
  for (int n = 0; n < 12; ++n) {
    Article article;
    article.id = "match-" + std::to_string(n);
    article.title = "Match " + std::to_string(n);
    article.body = "striker striker striker " + sport + sport + "report " + std::to_string(n);
    articles.push_back(article);
  }
  Article note;
  note.id = "note";
  note.title = "Factory";
  note.body = "a striker at the factory gate said wages were late and the union met managers";
  articles.push_back(note);
  // Other news, so that the football words are not in most articles.
  for (int n = 0; n < 40; ++n) {
    Article other;
    other.id = "other-" + std::to_string(n);
    other.title = "Weather " + std::to_string(n);
    other.body = "rain wind cloud sunshine forecast " + std::to_string(n);
    // Words of the football reports, not the query's: no match for it.
    if (n == 0) other.body += " the goal of the keeper of the derby";
    articles.push_back(other);
  }
  Article report;
  report.id = "report";
  report.title = "Cup";
  report.body = "the striker " + sport + sport;
  articles.push_back(report);
  return articles;
}

std::size_t rank_of(const SearchResult& result, const std::string& id) {
  for (const Hit& hit : result.hits) {
    if (hit.id == id) return hit.rank;
  }
  return 0;
}

std::vector<std::string> ids(const SearchResult& result) {
  std::vector<std::string> found;
  for (const Hit& hit : result.hits) found.push_back(hit.id);
  std::sort(found.begin(), found.end());
  return found;
}

// Options for a search of every match (at most 100), with feedback as
// `mode` says.
SearchOptions every_hit(FeedbackMode mode) {
  SearchOptions options;
  options.limit = 100;
  options.feedback.mode = mode;
  return options;
}

TEST(Feedback, LiftsArticlesLikeTheBestHitsAndKeepsTheMatches) {
  ArticleIndex index(football());
  Searcher& searcher = index.searcher;
  const SearchOptions off = every_hit(FeedbackMode::kOff);
  const SearchOptions on = every_hit(FeedbackMode::kOn);
  const SearchResult plain = searcher.search("striker", off);
  const SearchResult fed = searcher.search("striker", on);
  ASSERT_GT(rank_of(plain, "report"), 0u);
  ASSERT_GT(rank_of(fed, "report"), 0u);
  EXPECT_LT(rank_of(plain, "note"), rank_of(plain, "report"));
  EXPECT_GT(rank_of(fed, "note"), rank_of(fed, "report"));
  EXPECT_EQ(fed.total, plain.total);
  EXPECT_EQ(ids(fed), ids(plain));
  // The user's word is highlighted, not the words feedback added.
  EXPECT_EQ(fed.highlight.stems, std::vector<std::string>{"striker"});
}

// The best hit is a football report; the next four, which score less, are
// about a strike at a factory. Two more articles say "striker" once each,
// one beside football words, one beside factory words, and tie without
// feedback.
std::vector<Article> one_report_four_strikes() {
  const auto article = [](std::string id, std::string body) {
    Article made;
    made.id = std::move(id);
    made.title = "News";
    made.body = std::move(body);
    return made;
  };
  std::vector<Article> articles = {
      article("report", "striker striker striker goal keeper derby referee")};
  for (int n = 0; n < 4; ++n) {
    articles.push_back(article("strike-" + std::to_string(n),
                               "striker factory union wages managers picket " + std::to_string(n)));
  }
  const std::string filler = " then more was said about it later that day and night";
  articles.push_back(article("football", "a striker goal keeper derby referee" + filler));
  articles.push_back(article("factory", "a striker factory union wages managers" + filler));
  for (int n = 0; n < 20; ++n) {
    articles.push_back(
        article("other-" + std::to_string(n), "rain wind cloud " + std::to_string(n)));
  }
  return articles;
}

TEST(Feedback, PowerWeighsTheBestHitsMore) {
  ArticleIndex index(one_report_four_strikes());
  Searcher& searcher = index.searcher;
  SearchOptions options = every_hit(FeedbackMode::kOn);
  options.feedback.docs = 5;
  options.feedback.min_matches = 1;
  options.feedback.power = 0;
  const SearchResult even = searcher.search("striker", options);
  options.feedback.power = 8;
  const SearchResult steep = searcher.search("striker", options);
  ASSERT_EQ(even.hits.at(0).id, "report");
  ASSERT_EQ(steep.hits.at(0).id, "report");
  // Hits weighed alike, the four strikes make the model; weighed steeply,
  // the report does.
  EXPECT_LT(rank_of(even, "factory"), rank_of(even, "football"));
  EXPECT_LT(rank_of(steep, "football"), rank_of(steep, "factory"));
}

// Feedback orders only the first pass's best matches again; more match,
// and they are all counted, and a page past them is still the query's.
TEST(Feedback, RescoresTheBestMatchesAndCountsThemAll) {
  std::vector<Article> articles = football();
  for (Xapian::doccount n = 0; n < 2 * detail::kRescoreWindow; ++n) {
    Article bench;
    bench.id = "bench-" + std::to_string(n);
    bench.title = "Squad " + std::to_string(n);
    // Words of its own, so that no two of these are one story,
    const std::string own = std::to_string(n);
    // and a length of its own, so that no two tie.
    bench.body = "the striker met alpha" + own + " and beta" + own + " at gamma" + own;
    for (Xapian::doccount word = 0; word < n; ++word) bench.body += " then";
    articles.push_back(bench);
  }
  ArticleIndex index(articles);
  Searcher& searcher = index.searcher;
  const SearchOptions off = every_hit(FeedbackMode::kOff);
  SearchOptions on = every_hit(FeedbackMode::kOn);
  const SearchResult plain = searcher.search("striker", off);
  const SearchResult fed = searcher.search("striker", on);
  ASSERT_GT(plain.total, 2 * detail::kRescoreWindow);
  EXPECT_EQ(fed.total, plain.total);
  EXPECT_TRUE(fed.total_exact);
  // A page of the window's size holds the first pass's best, reordered.
  EXPECT_EQ(ids(fed), ids(plain));
  EXPECT_LT(rank_of(fed, "report"), rank_of(plain, "report"));

  on.offset = 2 * detail::kRescoreWindow;
  const SearchResult far = searcher.search("striker", on);
  EXPECT_EQ(far.hits.size(), plain.total - on.offset);
  EXPECT_EQ(far.total, plain.total);
}

TEST(Feedback, AutoLeavesOtherQueriesAndSmallResultsAlone) {
  ArticleIndex index(football());
  Searcher& searcher = index.searcher;
  const SearchOptions off = every_hit(FeedbackMode::kOff);
  const SearchOptions on = every_hit(FeedbackMode::kOn);
  SearchOptions automatic = every_hit(FeedbackMode::kAuto);
  automatic.feedback.min_words = 2;
  // Left alone by auto: a phrase, and a word fewer than min_words; by any
  // mode, a word matched by fewer articles than feedback needs.
  const std::vector<std::pair<std::string, SearchOptions>> cases = {
      {"\"the striker\"", automatic}, {"striker", automatic}, {"factory", on}};
  for (const auto& [query, options] : cases) {
    const SearchResult plain = searcher.search(query, off);
    const SearchResult fed = searcher.search(query, options);
    ASSERT_EQ(fed.hits.size(), plain.hits.size()) << query;
    for (std::size_t i = 0; i < plain.hits.size(); ++i) {
      EXPECT_EQ(fed.hits[i].id, plain.hits[i].id) << query;
      EXPECT_DOUBLE_EQ(fed.hits[i].score, plain.hits[i].score) << query;
    }
  }
  // Auto ranks enough words with feedback; on, any query.
  const SearchResult two = searcher.search("striker goal", automatic);
  EXPECT_NE(two.hits[0].score, searcher.search("striker goal", off).hits[0].score);
  const SearchResult forced = searcher.search("striker -factory", on);
  const SearchResult unfed = searcher.search("striker -factory", off);
  EXPECT_EQ(ids(forced), ids(unfed));
  EXPECT_NE(forced.hits[0].score, unfed.hits[0].score);
}

}  // namespace
}  // namespace quarry::testing
