// Recency (SearchOptions::recency): relevance multiplied by a decay of each
// article's age, exactly, with pages, stories and counts as without it.
#include "quarry/search/recency.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "lib/index/schema.h"
#include "lib/search/recency_module.h"
#include "lib/search/rescored_page.h"
#include "quarry/search/searcher.h"
#include "tests/article_index.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

constexpr double kDay = 86400;

Article article(std::string id, std::string date, std::string body) {
  Article made;
  made.id = std::move(id);
  made.title = "Report " + made.id;
  made.date = std::move(date);
  made.body = std::move(body);
  return made;
}

// Words found in no dictionary, left whole by the stemmer, to pad an
// article (which lowers BM25's weight of its other words).
std::string filler(std::size_t n, std::size_t seed) {
  static const char* const kSyllables[] = {"ba", "ko", "mi", "tu", "re", "no", "vi", "la", "zo"};
  std::string text;
  for (std::size_t i = 0; i < n; ++i) {
    std::string word;
    for (std::size_t value = seed * 1000 + i + 1000; value > 0; value /= 9) {
      word += kSyllables[value % 9];
    }
    text += word + "q ";
  }
  return text;
}

SearchOptions ranked(double half_life_days, const std::string& as_of) {
  SearchOptions options;
  options.snippets.enabled = false;
  options.feedback.mode = FeedbackMode::kOff;
  if (half_life_days > 0) {
    options.recency.half_life = half_life_days * kDay;
    options.recency.as_of = instant_of(as_of);
  }
  return options;
}

std::vector<std::string> ids(const SearchResult& result) {
  std::vector<std::string> found;
  for (const Hit& hit : result.hits) found.push_back(hit.id);
  return found;
}

TEST(Recency, FactorHalvesWithEveryHalfLife) {
  EXPECT_DOUBLE_EQ(recency_factor(0, kDay), 1);
  EXPECT_DOUBLE_EQ(recency_factor(-kDay, kDay), 1);
  EXPECT_DOUBLE_EQ(recency_factor(kDay, kDay), 0.5);
  EXPECT_DOUBLE_EQ(recency_factor(3 * kDay, kDay), 0.125);
  EXPECT_DOUBLE_EQ(recency_factor(kDay / 2, kDay), std::sqrt(0.5));
}

TEST(Recency, InstantsAreReadAsArticlesDatesAre) {
  EXPECT_EQ(instant_of("1970-01-01"), 0);
  EXPECT_EQ(instant_of("1970-01-02"), 86400);
  EXPECT_EQ(instant_of("2024-05-01"), 1714521600);
  EXPECT_EQ(instant_of("2024-05-01T12:30"), 1714521600 + 12 * 3600 + 30 * 60);
  EXPECT_EQ(instant_of("2024-05-01 12:30:15"), 1714521600 + 12 * 3600 + 30 * 60 + 15);
  EXPECT_EQ(instant_of("2024-05-01T12:30:15.5Z"), 1714521600 + 12 * 3600 + 30 * 60 + 15);
  EXPECT_EQ(instant_of("2024-05-01T01:00+02:00"), 1714521600 - 3600);
  EXPECT_EQ(instant_of("2024-05-01T23:00-0500"), 1714521600 + 28 * 3600);
  for (const char* bad : {"", "yesterday", "2024", "2024-05", "2024-02-30", "2024-05-01T25:00",
                          "2024-05-01x", "2024-05-01T12", "01/05/2024", "2024-05-01T12:30 "}) {
    EXPECT_FALSE(instant_of(bad).has_value()) << bad;
  }
}

TEST(Recency, NewerArticleOfNearlyEqualRelevanceComesFirst) {
  const TempDir dir;
  // The newer is a little less relevant: its body is longer.
  index_articles(dir,
                 {article("older", "2024-04-01", "lighthouse harbour keeper " + filler(5, 1)),
                  article("newer", "2024-04-29", "lighthouse harbour keeper " + filler(8, 2))});
  Searcher searcher(index_path(dir));
  EXPECT_EQ(ids(searcher.search("lighthouse", ranked(0, ""))),
            (std::vector<std::string>{"older", "newer"}));
  EXPECT_EQ(ids(searcher.search("lighthouse", ranked(7, "2024-05-01"))),
            (std::vector<std::string>{"newer", "older"}));
}

TEST(Recency, RelevanceIsMultipliedNotSorted) {
  ArticleIndex index({article("old-and-apt", "2024-01-01",
                              "lighthouse lighthouse lighthouse keeper " + filler(3, 1)),
                      article("new-and-slight", "2024-05-01", "lighthouse " + filler(60, 2))});
  Searcher& searcher = index.searcher;
  const SearchResult plain = searcher.search("lighthouse", ranked(0, ""));
  ASSERT_EQ(ids(plain), (std::vector<std::string>{"old-and-apt", "new-and-slight"}));
  // A year's half-life: four months cost the old one a fifth; it stays first.
  const SearchResult slow = searcher.search("lighthouse", ranked(365, "2024-05-01"));
  EXPECT_EQ(ids(slow), (std::vector<std::string>{"old-and-apt", "new-and-slight"}));
  // A day's: the old one keeps nothing.
  const SearchResult fast = searcher.search("lighthouse", ranked(1, "2024-05-01"));
  EXPECT_EQ(ids(fast), (std::vector<std::string>{"new-and-slight", "old-and-apt"}));
  // The scores are the relevance times the decay.
  const double age = 121 * kDay;
  EXPECT_NEAR(slow.hits[0].score, plain.hits[0].score * recency_factor(age, 365 * kDay),
              1e-9 * plain.hits[0].score);
  EXPECT_NEAR(fast.hits[0].score, plain.hits[1].score, 1e-9 * plain.hits[1].score);
}

TEST(Recency, UndatedArticlesRankAsTenHalfLivesOld) {
  // Nine half-lives old, the dated one still counts twice the undated.
  ArticleIndex index({article("undated", "", "lighthouse keeper " + filler(3, 1)),
                      article("dated", "2024-04-22", "lighthouse keeper " + filler(3, 2))});
  Searcher& searcher = index.searcher;
  SearchOptions options = ranked(1, "2024-05-01");
  options.explain.enabled = true;
  const SearchResult result = searcher.search("lighthouse", options);
  ASSERT_EQ(ids(result), (std::vector<std::string>{"dated", "undated"}));
  ASSERT_FALSE(result.hits[1].explanation.empty());
  EXPECT_EQ(result.hits[1].explanation.back().part, "×recency");
  EXPECT_DOUBLE_EQ(result.hits[1].explanation.back().weight, 1.0 / 1024);
  EXPECT_DOUBLE_EQ(result.hits[0].explanation.back().weight, 1.0 / 512);
}

// An archive: with no --as-of, ages count from the end of the newest
// matching article's day, not from now, so a week's half-life over 1987's news
// weighs as it would over today's.
TEST(Recency, AnArchiveCountsAgesFromItsNewestDay) {
  // A newer article the query does not match moves nothing.
  ArticleIndex index({article("apt", "1987-03-01", "lighthouse lighthouse keeper " + filler(3, 1)),
                      article("newest", "1987-03-08", "lighthouse " + filler(40, 2)),
                      article("later", "1987-10-20", "harbour " + filler(3, 3))});
  Searcher& searcher = index.searcher;
  const SearchResult plain = searcher.search("lighthouse", ranked(0, ""));
  ASSERT_EQ(ids(plain), (std::vector<std::string>{"apt", "newest"}));
  SearchOptions options = ranked(7, "");
  options.explain.enabled = true;
  const SearchResult recent = searcher.search("lighthouse", options);
  ASSERT_EQ(recent.hits.size(), 2u);
  const double clock = *instant_of("1987-03-09");
  for (const Hit& hit : recent.hits) {
    const double relevance = plain.hits[hit.id == "apt" ? 0 : 1].score;
    const double dated = *instant_of(hit.id == "apt" ? "1987-03-01" : "1987-03-08");
    EXPECT_NEAR(hit.score, relevance * recency_factor(clock - dated, 7 * kDay), 1e-9 * relevance)
        << hit.id;
  }
  // --explain says what the clock was.
  EXPECT_EQ(recent.notes, (std::vector<std::string>{
                              "recency counts ages from 1987-03-09T00:00:00Z, the end of the "
                              "newest matching article's day"}));
  // --as-of still sets it.
  SearchOptions as_of = ranked(7, "1987-03-08");
  as_of.explain.enabled = true;
  const SearchResult set = searcher.search("lighthouse", as_of);
  EXPECT_EQ(set.notes,
            (std::vector<std::string>{"recency counts ages from 1987-03-08T00:00:00Z (as of)"}));
}

// Decay never wipes out relevance: articles older than ten half-lives
// count as an undated one does, and rank among themselves by relevance.
TEST(Recency, NoAgeWipesOutRelevance) {
  ArticleIndex index({article("apt", "1987-01-01", "lighthouse lighthouse keeper " + filler(3, 1)),
                      article("slight", "1987-02-01", "lighthouse " + filler(40, 2)),
                      article("new", "2024-05-01", "harbour " + filler(3, 3))});
  Searcher& searcher = index.searcher;
  const SearchResult plain = searcher.search("lighthouse", ranked(0, ""));
  const SearchResult recent = searcher.search("lighthouse", ranked(7, "2024-05-01"));
  ASSERT_EQ(ids(recent), (std::vector<std::string>{"apt", "slight"}));
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_DOUBLE_EQ(recent.hits[i].score, plain.hits[i].score / 1024) << recent.hits[i].id;
  }
}

// kLighthouses articles about a lighthouse: more of them far more relevant
// than the new one ("new", 2024-05-01) than are rescored at first, all
// years old; then three times as many of other words, as a word most
// articles hold weighs nothing.
constexpr std::size_t kLighthouses = detail::kFirstRescoredWindow + 31;

std::vector<Article> new_beyond_the_first_window() {
  std::vector<Article> articles;
  for (std::size_t n = 0; n + 1 < kLighthouses; ++n) {
    articles.push_back(article("old" + std::to_string(n), "2020-01-01",
                               "lighthouse lighthouse lighthouse " + filler(3, n + 10)));
  }
  articles.push_back(article("new", "2024-05-01", "lighthouse " + filler(80, 1)));
  for (std::size_t n = 0; n < 3 * kLighthouses; ++n) {
    articles.push_back(article("other" + std::to_string(n), "2024-05-01", filler(10, n + 500)));
  }
  return articles;
}

TEST(Recency, BestRescoredBeyondTheFirstWindowComesFirst) {
  std::vector<Article> articles = new_beyond_the_first_window();
  const std::size_t matching = kLighthouses;
  ArticleIndex index(articles);
  Searcher& searcher = index.searcher;
  const SearchResult plain = searcher.search("lighthouse", ranked(0, ""));
  ASSERT_EQ(plain.total, matching);
  SearchOptions last = ranked(0, "");
  last.offset = matching - 1;
  ASSERT_EQ(ids(searcher.search("lighthouse", last)), std::vector<std::string>{"new"});
  const SearchResult recent = searcher.search("lighthouse", ranked(30, "2024-05-02"));
  ASSERT_FALSE(recent.hits.empty());
  EXPECT_EQ(recent.hits[0].id, "new");
  EXPECT_EQ(recent.total, plain.total);
  EXPECT_TRUE(recent.notes.empty());
}

// Weighs the article dated `day` ("YYYYMMDD") in full, every other one
// hardly at all.
class OneDay final : public detail::Rescorer {
 public:
  explicit OneDay(std::string day) : day_(std::move(day)) {}
  double factor(const Xapian::Document& document) const override {
    return document.get_value(detail::kDateSlot) == day_ ? 1 : 1e-6;
  }

 private:
  std::string day_;
};

TEST(Recency, ADeadlineThatCutsTheWideningSaysSo) {
  const TempDir dir;
  std::vector<Article> articles = new_beyond_the_first_window();
  // In one language, so that one term finds them all.
  for (Article& each : articles) each.language = "english";
  index_articles(dir, articles);
  const Xapian::Database db(index_path(dir));
  Xapian::Enquire enquire(db);
  enquire.set_query(Xapian::Query("Zlighthous"));
  const OneDay rescorer("20240501");
  const detail::RescoredPage exact =
      detail::rescored_page(enquire, db, 0, 10, 0, std::nullopt, rescorer, detail::Deadline());
  EXPECT_FALSE(exact.cut_short);
  ASSERT_EQ(exact.page.hits.size(), 10u);
  EXPECT_EQ(detail::id_of_hit_order_key(
                db.get_document(exact.page.hits[0].did).get_value(detail::kHitOrderSlot)),
            "new");
  // A deadline already passed stops the widening after the first window.
  const detail::Deadline passed(1e-9);
  const detail::RescoredPage cut =
      detail::rescored_page(enquire, db, 0, 10, 0, std::nullopt, rescorer, passed);
  EXPECT_TRUE(cut.cut_short);
  EXPECT_TRUE(passed.cut_short());
  EXPECT_EQ(cut.window, detail::kFirstRescoredWindow);
  EXPECT_EQ(cut.page.hits.size(), 10u);
}

// Stories a few days apart, each a report and a lightly edited copy, with
// words of their own and "lighthouse" more or less often; and articles
// without it.
std::vector<Article> story_articles() {
  std::vector<Article> articles;
  for (std::size_t story = 0; story < 40; ++story) {
    const std::string day = std::to_string(10 + story % 18);
    const std::string month = story < 20 ? "03" : "04";
    std::string body;
    for (std::size_t n = 0; n <= story % 5; ++n) body += "lighthouse ";
    body += filler(40, story + 100);
    articles.push_back(article("s" + std::to_string(story), "2024-" + month + "-" + day, body));
    articles.push_back(article("s" + std::to_string(story) + "-copy",
                               "2024-" + month + "-" + day + "T18:00", body + filler(1, 7)));
  }
  for (std::size_t n = 0; n < 200; ++n) {
    articles.push_back(article("other" + std::to_string(n), "2024-04-01", filler(10, n + 500)));
  }
  return articles;
}

TEST(Recency, PagesContinueEachOtherCollapsedOrNot) {
  ArticleIndex index(story_articles());
  Searcher& searcher = index.searcher;
  for (Collapse collapse : {Collapse::kNone, Collapse::kStory, Collapse::kDuplicates}) {
    SearchOptions whole = ranked(10, "2024-05-01");
    whole.collapse.by = collapse;
    whole.limit = 30;
    const SearchResult all = searcher.search("lighthouse", whole);
    ASSERT_EQ(all.hits.size(), 30u);
    std::vector<std::string> paged;
    for (std::size_t offset = 0; offset < 30; offset += 10) {
      SearchOptions page = whole;
      page.limit = 10;
      page.offset = offset;
      const SearchResult part = searcher.search("lighthouse", page);
      EXPECT_EQ(part.total, all.total);
      EXPECT_EQ(part.stories, all.stories);
      for (std::size_t i = 0; i < part.hits.size(); ++i) {
        EXPECT_EQ(part.hits[i].rank, offset + i + 1);
      }
      for (const Hit& hit : part.hits) paged.push_back(hit.id);
    }
    EXPECT_EQ(paged, ids(all)) << static_cast<int>(collapse);
    EXPECT_EQ(std::set<std::string>(paged.begin(), paged.end()).size(), paged.size());
    // Each group shown once.
    std::set<std::string> groups;
    for (const Hit& hit : all.hits) {
      if (!hit.story.empty()) {
        EXPECT_TRUE(groups.insert(hit.story).second) << hit.story;
      }
    }
    // Counts do not move with recency.
    SearchOptions plain = ranked(0, "");
    plain.collapse.by = collapse;
    const SearchResult unweighed = searcher.search("lighthouse", plain);
    EXPECT_EQ(unweighed.total, all.total);
    EXPECT_EQ(unweighed.stories, all.stories);
  }
}

TEST(Recency, AStoryShowsItsBestRescoredReport) {
  // The copy, a day newer, is a little less relevant (one word longer).
  const std::string body = "lighthouse keeper " + filler(40, 3);
  ArticleIndex index({article("first", "2024-04-20", body),
                      article("copy", "2024-04-21", body + filler(1, 9)),
                      article("other", "2024-04-21", filler(30, 4)),
                      article("another", "2024-04-21", filler(30, 5))});
  Searcher& searcher = index.searcher;
  SearchOptions plain = ranked(0, "");
  plain.collapse.by = Collapse::kDuplicates;
  const SearchResult unweighed = searcher.search("lighthouse", plain);
  ASSERT_EQ(ids(unweighed), std::vector<std::string>{"first"});
  SearchOptions recent = ranked(1, "2024-04-22");
  recent.collapse.by = Collapse::kDuplicates;
  EXPECT_EQ(ids(searcher.search("lighthouse", recent)), std::vector<std::string>{"copy"});
}

TEST(Recency, SortedByDateItTakesNoPartAndSaysSo) {
  ArticleIndex index({article("older", "2024-04-01", "lighthouse " + filler(3, 1)),
                      article("newer", "2024-04-29", "lighthouse " + filler(3, 2))});
  Searcher& searcher = index.searcher;
  SearchOptions options = ranked(7, "2024-05-01");
  options.sort = SortOrder::kOldestFirst;
  const SearchResult result = searcher.search("lighthouse", options);
  EXPECT_EQ(ids(result), (std::vector<std::string>{"older", "newer"}));
  ASSERT_EQ(result.notes.size(), 1u);
  EXPECT_NE(result.notes[0].find("recency"), std::string::npos);
}

}  // namespace
}  // namespace quarry::testing
