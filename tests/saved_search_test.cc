// Saved searches matched against new articles: each match found, none
// made up, and only the searches an article can match are run.
#include "quarry/search/saved_search.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::index_articles;
using testing::index_path;
using testing::TempDir;

using Pairs = std::set<std::pair<std::string, std::string>>;  // (search, article id)

SavedSearch saved(const std::string& name, const std::string& query) {
  return {name, query, SearchOptions{}};
}

Pairs pairs_of(const std::vector<SavedSearchMatch>& matches) {
  Pairs pairs;
  for (const SavedSearchMatch& match : matches) pairs.emplace(match.search, match.id);
  return pairs;
}

std::vector<Article> wire() {
  return {
      {"opec-1", "OPEC agrees quota cut", "Oil ministers agreed a new production quota in Vienna.",
       "2024-03-01", "", "", "english"},
      {"opec-2", "Oil prices", "OPEC kept its output unchanged; no quota was discussed.",
       "2023-11-20", "", "", "english"},
      {"budget", "Spring budget", "The chancellor presented the budget to parliament.",
       "2024-03-06", "", "", "english"},
      {"football", "Mourinho signs Ederson", "Mourinho confirmed the goalkeeper Ederson joined.",
       "2024-02-01", "", "", "english"},
  };
}

// The wire articles indexed in a folder of their own, with a searcher and
// a matcher of that index.
struct WireIndex {
  static std::string indexed(const TempDir& dir) {
    index_articles(dir, wire());
    return index_path(dir);
  }

  const TempDir dir;
  Searcher searcher{indexed(dir)};
  SavedSearchMatcher matcher{searcher};
};

TEST(SavedSearchMatcher, EachSearchFindsTheNewArticlesItMatchesAndNoOther) {
  WireIndex wire_index;
  auto& [dir, searcher, matcher] = wire_index;
  matcher.set_searches({saved("opec", "OPEC quota"), saved("budget", "title:budget"),
                        saved("recent-oil", "oil after:2024-01-01"),
                        saved("transfer", "Mourinho AND Ederson"),
                        saved("phrase", "\"production quota\"")});
  // opec-2 holds "OPEC" and "quota" too, but is not among the new articles.
  const Pairs found = pairs_of(matcher.match({"opec-1", "budget", "football", "no-such-id"}));
  const Pairs expected{{"opec", "opec-1"},
                       {"budget", "budget"},
                       {"recent-oil", "opec-1"},
                       {"transfer", "football"},
                       {"phrase", "opec-1"}};
  EXPECT_EQ(found, expected);
}

TEST(SavedSearchMatcher, EveryFreeWordOfASavedSearchMustMatchUnlessItSaysOtherwise) {
  WireIndex wire_index;
  auto& [dir, searcher, matcher] = wire_index;
  SavedSearch any = saved("any", "quota chancellor");
  any.options.parser.match = MatchMode::kAny;
  matcher.set_searches({saved("all", "quota chancellor"), any});
  EXPECT_EQ(pairs_of(matcher.match({"opec-1", "budget"})),
            (Pairs{{"any", "opec-1"}, {"any", "budget"}}));
}

TEST(SavedSearchMatcher, AnAlertSaysWhatTheArticleIsAndWhereItMatched) {
  WireIndex wire_index;
  auto& [dir, searcher, matcher] = wire_index;
  matcher.set_searches({saved("transfer", "goalkeeper")});
  const std::vector<SavedSearchMatch> matches = matcher.match({"football"});
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].title, "Mourinho signs Ederson");
  EXPECT_EQ(matches[0].date, "2024-02-01");
  EXPECT_EQ(matches[0].language, "en");
  EXPECT_NE(matches[0].snippet.find("goalkeeper"), std::string::npos) << matches[0].snippet;
}

TEST(SavedSearchMatcher, OnlyTheSearchesANewArticleHoldsATermOfAreRun) {
  WireIndex wire_index;
  auto& [dir, searcher, matcher] = wire_index;
  std::vector<SavedSearch> searches;
  for (int i = 0; i < 500; ++i) {
    searches.push_back(saved("s" + std::to_string(i), "quota word" + std::to_string(i)));
  }
  searches.push_back(saved("chancellor", "chancellor parliament"));
  // A date range alone holds no term: it is run for every batch.
  searches.push_back(saved("dated", "after:2024-03-05"));
  matcher.set_searches(std::move(searches));
  EXPECT_EQ(pairs_of(matcher.match({"budget"})),
            (Pairs{{"chancellor", "budget"}, {"dated", "budget"}}));
  // "wordN" is in no article and rarer than "quota": the 500 are filed
  // under it, and the budget story wakes none of them.
  EXPECT_EQ(matcher.last_work().searches, 502u);
  EXPECT_EQ(matcher.last_work().candidates, 2u);
}

TEST(SavedSearchMatcher, AWildcardFindsWordsThatArrivedAfterItWasSaved) {
  WireIndex wire_index;
  auto& [dir, searcher, matcher] = wire_index;
  matcher.set_searches({saved("zebras", "zebr*")});
  {
    IndexConfig config;
    config.db_path = index_path(dir);
    IndexWriter writer(config);
    writer.upsert({"zoo", "At the zoo", "Two zebras were born.", "2024-03-07", "", "", "english"},
                  "test");
    writer.commit();
  }
  EXPECT_EQ(pairs_of(matcher.match({"zoo"})), (Pairs{{"zebras", "zoo"}}));
}

TEST(SavedSearchMatcher, ASearchWithNothingToSearchForIsRefusedByName) {
  WireIndex wire_index;
  auto& [dir, searcher, matcher] = wire_index;
  try {
    matcher.set_searches({saved("dots", "...")});
    FAIL() << "a search of no word was taken";
  } catch (const QueryError& error) {
    EXPECT_NE(std::string(error.what()).find("'dots'"), std::string::npos) << error.what();
  }
}

// The matcher's answers are those of running every search over the whole
// index and keeping the new articles: filing searches by term loses none.
TEST(SavedSearchMatcher, FindsWhatRunningEverySearchFinds) {
  const std::vector<std::string> words{"oil",    "quota",  "vienna", "budget", "tax",
                                       "strike", "rail",   "union",  "goal",   "match",
                                       "court",  "appeal", "storm",  "flood",  "vote"};
  std::mt19937 random(7);
  auto word = [&] { return words[random() % words.size()]; };
  std::vector<Article> articles;
  for (int i = 0; i < 150; ++i) {
    std::string body;
    for (int w = 0; w < 6; ++w) body += word() + " ";
    articles.push_back({"a" + std::to_string(i), word() + " " + word(), body,
                        "2024-0" + std::to_string(1 + i % 9) + "-15", "", "", "english"});
  }
  const TempDir dir;
  index_articles(dir, articles);
  std::vector<SavedSearch> searches;
  for (int i = 0; i < 120; ++i) {
    std::string query;
    switch (i % 6) {
      case 0:
        query = word();
        break;
      case 1:
        query = word() + " " + word();
        break;
      case 2:
        query = word() + " OR " + word();
        break;
      case 3:
        query = "\"" + word() + " " + word() + "\"";
        break;
      case 4:
        query = "title:" + word() + " -" + word();
        break;
      default:
        query = word() + " after:2024-05-01";
        break;
    }
    searches.push_back(saved("s" + std::to_string(i), query));
  }
  std::vector<std::string> fresh;
  for (int i = 0; i < 150; i += 3) fresh.push_back("a" + std::to_string(i));
  const std::set<std::string> fresh_set(fresh.begin(), fresh.end());

  Searcher searcher(index_path(dir));
  Pairs expected;
  for (const SavedSearch& search : searches) {
    SearchOptions options;
    options.parser.match = MatchMode::kAll;
    options.spelling.correct = Correction::kNever;
    options.feedback.mode = FeedbackMode::kOff;
    options.limit = articles.size();
    for (const Hit& hit : searcher.search(search.query, options).hits) {
      if (fresh_set.contains(hit.id)) expected.emplace(search.name, hit.id);
    }
  }
  ASSERT_GT(expected.size(), 50u) << "too few matches to tell";
  SavedSearchMatcher matcher(searcher);
  matcher.set_searches(searches);
  // One article at a time, as a search woken by one article of a batch is
  // run on them all and would hide another's missing anchor.
  Pairs found;
  for (const std::string& id : fresh) found.merge(pairs_of(matcher.match({id})));
  EXPECT_EQ(found, expected);
  EXPECT_EQ(pairs_of(matcher.match(fresh)), expected);
}

}  // namespace
}  // namespace quarry
