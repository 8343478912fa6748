// How many stories (and groups of near-duplicates) the matches make:
// exactly up to the count limit, whatever the page, the order and the
// facets asked for; past it an estimate that none of those move.
#include "lib/search/story_module.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "lib/index/schema.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

constexpr std::size_t kStories = 120;

// A made-up word, the same for the same (story, n), found in no
// dictionary and left whole by the stemmer.
std::string word(std::size_t story, std::size_t n) {
  static const char* const kSyllables[] = {"ba", "ko", "mi", "tu", "re", "no", "vi", "la", "zo"};
  std::string text;
  for (std::size_t value = story * 100 + n + 1000; value > 0; value /= 9) {
    text += kSyllables[value % 9];
  }
  return text + "x";
}

std::string two_digits(std::size_t n) { return (n < 10 ? "0" : "") + std::to_string(n); }

// A story's words, from `first` on: enough for a report of its own.
std::string words_of(std::size_t story, std::size_t first, std::size_t count) {
  std::string text;
  for (std::size_t n = first; n < first + count; ++n) text += word(story, n) + " ";
  return text;
}

// Stories of one to three reports, a week apart so that none link across.
// A story's second report is a lightly edited copy of its first (a
// near-duplicate); its third shares half its words, told otherwise (of the
// story, not a copy). Every report holds "harbour"; even stories start
// "harbour lighthouse".
std::vector<Article> story_articles() {
  std::vector<Article> articles;
  for (std::size_t story = 0; story < kStories; ++story) {
    const std::size_t reports = 1 + story % 3;
    const std::string date =
        "2016-" + two_digits(1 + story / 10) + "-" + two_digits(1 + story % 10 * 3);
    const std::string opening = story % 2 == 0 ? "harbour lighthouse " : "harbour ";
    const std::string body = opening + words_of(story, 0, 60);
    for (std::size_t r = 0; r < reports; ++r) {
      Article article;
      article.id = "s" + std::to_string(1000 + story) + "-" + std::to_string(r);
      article.title = "Report " + article.id;
      article.date = date;
      article.category = story % 4 == 0 ? "business" : "sport";
      if (r == 0) article.body = body;
      if (r == 1) article.body = body + word(story, 90);
      if (r == 2) article.body = opening + words_of(story, 0, 30) + words_of(story, 100, 30);
      articles.push_back(std::move(article));
    }
  }
  return articles;
}

class StoryCountTest : public SharedIndexTest {
 protected:
  static void SetUpTestSuite() { index_suite_articles(story_articles()); }

  // The groups `query`'s matches make, read from the index rather than
  // counted by the search: each article's key in `slot`, or its own id.
  static std::size_t groups_in_index(const std::string& query, Xapian::valueno slot) {
    SearchOptions every;
    every.limit = 10000;
    every.snippets.enabled = false;
    const SearchResult all = searcher().search(query, every);
    std::map<std::string, std::string> key_of;
    Xapian::Database db(db_path());
    for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
      const Xapian::Document doc = db.get_document(*it);
      const std::string id = detail::id_of_hit_order_key(doc.get_value(detail::kHitOrderSlot));
      const std::string key = doc.get_value(slot);
      key_of[id] = key.empty() ? "alone " + id : key;
    }
    std::set<std::string> groups;
    for (const Hit& hit : all.hits) groups.insert(key_of.at(hit.id));
    return groups.size();
  }
};

struct Asked {
  std::size_t limit;
  SortOrder sort;
  bool facets;
};

std::vector<Asked> every_way_of_asking() {
  std::vector<Asked> asked;
  for (std::size_t limit : {0, 1, 10, 50}) {
    for (SortOrder sort :
         {SortOrder::kRelevance, SortOrder::kOldestFirst, SortOrder::kNewestFirst}) {
      for (bool facets : {false, true}) asked.push_back({limit, sort, facets});
    }
  }
  return asked;
}

SearchOptions options_for(const Asked& asked, Collapse collapse) {
  SearchOptions options;
  options.limit = asked.limit;
  options.sort = asked.sort;
  options.collapse.by = collapse;
  options.snippets.enabled = false;
  // Sorted by date, every word would be required: the same articles match
  // in every order only when the match is fixed.
  options.parser.match = MatchMode::kAny;
  if (asked.facets) options.facets.fields = {FacetField::kCategory};
  return options;
}

std::string describe(const std::string& query, const Asked& asked) {
  return query + " -n " + std::to_string(asked.limit) + " sort " +
         std::to_string(static_cast<int>(asked.sort)) + (asked.facets ? " with facets" : "");
}

const std::vector<std::string> kQueries = {
    "harbour", "lighthouse", "\"harbour lighthouse\"",
    // Long enough for feedback to rank it.
    "harbour lighthouse " + words_of(3, 0, 3) + words_of(8, 5, 3), "harbour -lighthouse",
    "category:business harbour"};

TEST_F(StoryCountTest, StoriesAreCountedExactlyWhateverThePageOrderAndFacets) {
  struct Grouping {
    Collapse collapse;
    Xapian::valueno slot;
  };
  const std::vector<Grouping> groupings = {{Collapse::kStory, detail::kStorySlot},
                                           {Collapse::kDuplicates, detail::kDuplicateSlot}};
  for (const Grouping& grouping : groupings) {
    for (const std::string& query : kQueries) {
      const std::size_t expected = groups_in_index(query, grouping.slot);
      const std::size_t articles = searcher().count(query).total;
      // Else the case would not tell stories from articles.
      ASSERT_LT(expected, articles) << query;
      for (const Asked& asked : every_way_of_asking()) {
        const SearchResult result = searcher().search(query, options_for(asked, grouping.collapse));
        SCOPED_TRACE(describe(query, asked));
        EXPECT_EQ(result.total, articles);
        EXPECT_EQ(result.stories, expected);
        EXPECT_TRUE(result.stories_exact);
        EXPECT_EQ(result.collapse, grouping.collapse);
      }
    }
  }
}

TEST_F(StoryCountTest, StoriesAreTheHitsShownOneAStory) {
  for (const std::string& query : kQueries) {
    SearchOptions options;
    options.limit = 10000;
    options.collapse.by = Collapse::kStory;
    options.snippets.enabled = false;
    const SearchResult result = searcher().search(query, options);
    EXPECT_EQ(result.hits.size(), result.stories) << query;
  }
}

// Facets count every match, so that the total is exact, and the stories
// may then be estimated past the count limit, up to it.
TEST_F(StoryCountTest, PastTheCountLimitTheEstimateDoesNotMove) {
  for (const std::string& query : kQueries) {
    const std::size_t articles = searcher().count(query).total;
    std::map<bool, std::size_t> first;  // by facets
    for (const Asked& asked : every_way_of_asking()) {
      SearchOptions options = options_for(asked, Collapse::kStory);
      options.count_limit = articles / 2;
      // A page that reaches past the limit is counted to its end.
      if (asked.limit > options.count_limit) continue;
      const SearchResult result = searcher().search(query, options);
      SCOPED_TRACE(describe(query, asked));
      EXPECT_FALSE(result.stories_exact);
      first.try_emplace(asked.facets, result.stories);
      EXPECT_EQ(result.stories, first.at(asked.facets));
    }
    EXPECT_LE(first.at(false), first.at(true)) << query;
  }
}

// Past the count limit the total is the limit, a lower bound; the stories
// estimated over all the matches would pass it ("10+ articles match, about
// 160 stories"): a story holds an article at least, so none says more
// stories than articles.
TEST_F(StoryCountTest, PastTheCountLimitThereAreNoMoreStoriesThanArticles) {
  for (const std::string& query : kQueries) {
    const std::size_t articles = searcher().count(query).total;
    for (const std::size_t limit : {std::size_t{1}, std::size_t{10}, articles / 2, articles - 1}) {
      for (const Collapse collapse : {Collapse::kStory, Collapse::kDuplicates}) {
        SearchOptions options = options_for({0, SortOrder::kRelevance, false}, collapse);
        options.count_limit = limit;
        const SearchResult result = searcher().search(query, options);
        SCOPED_TRACE(query + " --count-limit " + std::to_string(limit));
        EXPECT_EQ(result.total, limit);
        EXPECT_FALSE(result.total_exact);
        EXPECT_LE(result.stories, result.total);
        EXPECT_FALSE(result.stories_exact);
      }
    }
  }
}

TEST_F(StoryCountTest, WithoutCollapsingTheStoriesAreTheArticles) {
  for (const Asked& asked : every_way_of_asking()) {
    const SearchResult result = searcher().search("harbour", options_for(asked, Collapse::kNone));
    SCOPED_TRACE(describe("harbour", asked));
    EXPECT_EQ(result.stories, result.total);
    EXPECT_EQ(result.collapse, Collapse::kNone);
  }
}

// One story of many copies, each weighing more than any other report,
// then reports of a story each: the copies fill the top of the ranking,
// far past a page, yet a page shows the story once and then the others,
// as the ranking orders their best reports, and the next page goes on
// where it stopped.
std::vector<Article> one_story_on_top() {
  constexpr std::size_t kCopies = 120;
  constexpr std::size_t kOthers = 30;
  std::vector<Article> articles;
  const std::string copied = "harbour harbour harbour harbour " + words_of(500, 0, 60);
  for (std::size_t n = 0; n < kCopies; ++n) {
    Article article;
    article.id = "copy" + std::to_string(1000 + n);
    article.title = "Report " + article.id;
    article.date = "2017-03-01";
    article.body = copied + word(500, 100 + n);
    articles.push_back(std::move(article));
  }
  for (std::size_t n = 0; n < kOthers; ++n) {
    Article article;
    article.id = "other" + std::to_string(1000 + n);
    article.title = "Report " + article.id;
    article.date = "2015-" + two_digits(1 + n % 12) + "-" + two_digits(1 + n / 12 * 10);
    // Fewer words further down the list: each weighs otherwise.
    article.body = "harbour " + words_of(600 + n, 0, 20 + n);
    articles.push_back(std::move(article));
  }
  return articles;
}

class CollapsedPageTest : public SharedIndexTest {
 protected:
  static void SetUpTestSuite() { index_suite_articles(one_story_on_top()); }
};

TEST_F(CollapsedPageTest, AStoryFillingTheTopOfTheRankingIsShownOnceAndThePagesGoOn) {
  SearchOptions every;
  every.limit = 1000;
  every.collapse.by = Collapse::kNone;
  every.snippets.enabled = false;
  const SearchResult uncollapsed = searcher().search("harbour", every);
  // Each story's best report, in the ranking's order.
  std::vector<std::string> expected;
  bool copy_shown = false;
  for (const Hit& hit : uncollapsed.hits) {
    const bool copy = hit.id.starts_with("copy");
    if (copy && copy_shown) continue;
    copy_shown = copy_shown || copy;
    expected.push_back(hit.id);
  }
  ASSERT_TRUE(uncollapsed.hits.size() > 100 && uncollapsed.hits[99].id.starts_with("copy"));
  ASSERT_EQ(expected.size(), 31u);

  std::vector<std::string> shown;
  for (std::size_t offset = 0; offset < 40; offset += 10) {
    SearchOptions page;
    page.limit = 10;
    page.offset = offset;
    page.collapse.by = Collapse::kStory;
    page.snippets.enabled = false;
    const SearchResult result = searcher().search("harbour", page);
    for (const Hit& hit : result.hits) {
      EXPECT_EQ(hit.rank, shown.size() + 1) << hit.id;
      shown.push_back(hit.id);
    }
    EXPECT_EQ(result.stories, expected.size());
  }
  EXPECT_EQ(shown, expected);
}

}  // namespace
}  // namespace quarry::testing
