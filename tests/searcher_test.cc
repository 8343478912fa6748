#include "quarry/search/searcher.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <filesystem>
#include <string>

#include "lib/index/schema.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/text/utf8.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::sorted_ids;
using testing::TempDir;
using testing::write_file;

// Words as people type them must find the articles that hold them, however
// the article wrote them, and be highlighted there.
class SearcherAgreement : public testing::SharedIndexTest {
 protected:
  static void SetUpTestSuite() {
    const auto articles = suite_dir() / "articles";
    write_file(articles / "derby.txt",
               "Derby row\n\nPep Guardiola’s men won 2-1 in a dressing-room row. Ederson "
               "saved two penalties in the 79th minute.");
    write_file(articles / "money.txt",
               "Transfer\n\nThe club paid £10million for a CAFÉ owner's son, Guardiola's friend, "
               "in the dressing room.");
    write_file(articles / "cjk.txt", "曼联\n\n曼联输了比赛，球迷很失望。");
    write_file(articles / "nfd.txt", "Cafe\n\nA cafe\u0301 by the stadium sold a penalty kick.");
    index_suite_paths({articles.string()});
  }
};

// Queries that must each find exactly `ids`: the ways of typing a word
// find what the word does.
struct AgreementCase {
  std::vector<std::string> ids;
  std::vector<std::string> queries;
};

TEST_F(SearcherAgreement, WordsAreFoundAsTypedAndHighlighted) {
  const std::vector<AgreementCase> cases = {
      {{"derby.txt", "money.txt"},
       {"Guardiola's", "Guardiola’s", "guardiola", "dressing-room", "\"dressing room\""}},
      {{"derby.txt"}, {"2-1", "79th", "Ederson"}},
      {{"money.txt"}, {"£10million", "10million"}},
      {{"derby.txt", "nfd.txt"}, {"penalty", "penalties"}},
      {{"money.txt", "nfd.txt"}, {"café", "CAFE"}},
      {{"cjk.txt"}, {"曼联", "比赛"}},
  };
  for (const AgreementCase& c : cases) {
    for (const std::string& query : c.queries) {
      SearchResult result = searcher().search(query);
      EXPECT_EQ(sorted_ids(result), c.ids) << query;
      for (const Hit& hit : result.hits) {
        EXPECT_FALSE(hit.snippet.highlights.empty()) << query << " in " << hit.id;
      }
    }
  }
}

// Languages written without spaces between words: an article is found by
// each of its words and by the runs of words a reader types, whatever the
// dictionary made of the sentence, and the snippet marks what was typed.
class SearcherScripts : public testing::SharedIndexTest {
 protected:
  static void SetUpTestSuite() {
    std::vector<Article> articles;
    for (const testing::ScriptSample& sample : testing::script_samples()) {
      articles.push_back(Article{sample.language, sample.language, sample.sentence, "", "", ""});
    }
    index_suite_articles(articles);
  }

  // Expects `query` to find the article in `language` alone, with every
  // mark of its snippet on `marked`.
  static void expect_found_and_marked(const std::string& language, const std::string& query,
                                      const std::string& marked) {
    const SearchResult result = searcher().search(query);
    ASSERT_EQ(sorted_ids(result), std::vector<std::string>{language}) << query;
    const Snippet& snippet = result.hits[0].snippet;
    ASSERT_FALSE(snippet.highlights.empty()) << query;
    const std::u32string text = testing::to_u32(snippet.text);
    for (const Highlight& highlight : snippet.highlights) {
      EXPECT_EQ(text.substr(highlight.begin, highlight.end - highlight.begin),
                testing::to_u32(marked))
          << query << " in " << snippet.text;
    }
  }
};

TEST_F(SearcherScripts, EveryWordAndRunOfWordsIsFoundAndMarked) {
  for (const testing::ScriptSample& sample : testing::script_samples()) {
    for (const std::string& word : sample.words) {
      expect_found_and_marked(sample.language, word, word);
    }
    expect_found_and_marked(sample.language, sample.phrase, sample.phrase);
    expect_found_and_marked(sample.language, "\"" + sample.phrase + "\"", sample.phrase);
  }
}

// NFKC spells Thai ำ as ํา and Lao ໜ as ຫນ; people type either.
TEST_F(SearcherScripts, EitherSpellingOfACharacterFindsTheOther) {
  expect_found_and_marked("thai", "ทําให้", "ทำให้");
  expect_found_and_marked("lao", "ຫນັກ", "ໜັກ");
}

TEST_F(SearcherScripts, CharactersInAnotherOrderAreNotFound) {
  for (const std::string query : {"หนักตก", "京北", "中心市"}) {
    EXPECT_EQ(searcher().search(query).total, 0u) << query;
  }
}

TEST_F(SearcherAgreement, TitleWordsAreSearchable) {
  EXPECT_EQ(sorted_ids(searcher().search("Transfer")), std::vector<std::string>{"money.txt"});
}

TEST_F(SearcherAgreement, MoreAndRarerWordsRankFirst) {
  SearchResult result = searcher().search("Ederson penalty");
  ASSERT_EQ(result.hits.size(), 2u);
  EXPECT_EQ(result.hits[0].id, "derby.txt");
  EXPECT_GT(result.hits[0].score, result.hits[1].score);
}

TEST_F(SearcherAgreement, LimitAndOffsetPage) {
  SearchResult all = searcher().search("penalty OR cafe OR Guardiola");
  ASSERT_EQ(all.hits.size(), 3u);
  SearchOptions second;
  second.limit = 1;
  second.offset = 1;
  SearchResult page = searcher().search("penalty OR cafe OR Guardiola", second);
  ASSERT_EQ(page.hits.size(), 1u);
  EXPECT_EQ(page.hits[0].id, all.hits[1].id);
  EXPECT_EQ(page.hits[0].rank, 2u);
  second.offset = static_cast<std::size_t>(-1);
  second.limit = static_cast<std::size_t>(-1);
  EXPECT_TRUE(searcher().search("penalty", second).hits.empty());
}

TEST_F(SearcherAgreement, NoHitsIsAnEmptyResult) {
  SearchResult result = searcher().search("zebra");
  EXPECT_EQ(result.total, 0u);
  EXPECT_TRUE(result.hits.empty());
}

TEST_F(SearcherAgreement, StrictBadQueryThrowsQueryError) {
  SearchOptions strict;
  strict.parse = ParseMode::kStrict;
  EXPECT_THROW(searcher().search("penalty AND", strict), QueryError);
  EXPECT_EQ(searcher().search("penalty AND").warnings.size(), 1u);
  EXPECT_THROW(searcher().count("penalty AND", strict), QueryError);
}

// Counting reads the query as searching does, and says so.
TEST_F(SearcherAgreement, CountSaysHowItReadTheQuery) {
  for (const std::string query : {"penalty AND", "\"dressing room", "penalty", "site:x penalty"}) {
    const SearchResult found = searcher().search(query);
    const CountResult counted = searcher().count(query);
    EXPECT_EQ(counted.total, found.total) << query;
    EXPECT_EQ(counted.notes, found.notes) << query;
    EXPECT_EQ(counted.warnings, found.warnings) << query;
  }
  EXPECT_EQ(searcher().count("\"dressing room").notes.size(), 1u);
  EXPECT_EQ(searcher().count("penalty AND").warnings.size(), 1u);
}

// Hits' snippets mark the words the index holds under the query's stems;
// stemming the stored text again must mark the same words, whatever the
// title holds (its words come first in the positions) and whatever words
// the analyzer drops.
TEST(Searcher, SnippetsFromTheIndexMatchStemmingTheText) {
  TempDir dir;
  const std::string long_word(80, 'x');
  std::vector<Article> articles = {
      {"derby", "Guardiola’s men: a DERBY to remember",
       "Pep Guardiola's men won 2-1. Ederson "
       "saved two penalties; the penalty taker cried. Guardiola praised the derby crowd.",
       "2017-12-10", "sport", "PA"},
      {"cafe", "曼联 " + long_word + " café",
       "A " + long_word +
           " café by the stadium, "
           "cafe\u0301 owners and cafés; 曼联输了比赛 and the penalty spot.",
       "2017-12-11", "", ""},
      {"empty-title", "", "Penalties decided the derby; Guardiola said nothing.", "", "", ""},
  };
  // A long body, where the snippet is a window of it: words past the
  // window are not read.
  std::string filler;
  for (int i = 0; i < 60; ++i) filler += "word" + std::to_string(i) + " ";
  articles.push_back({"long", "Long read",
                      filler + "Guardiola. " + filler + filler + "the penalty and the derby, " +
                          filler + "Guardiola",
                      "", "", ""});
  articles.push_back({"late", "Late", filler + filler + filler + "a penalty at last.", "", "", ""});
  index_articles(dir, articles);
  Searcher searcher(index_path(dir));
  for (const std::string query :
       {"guardiola", "penalty derby", "\"penalty taker\"", "café", "曼联", "guard* penalties",
        "title:derby guardiola", "Ederson OR cafes", "-derby penalty", "title:long",
        "\"derby to remember\"", "men NEAR/2 derby"}) {
    const SearchResult result = searcher.search(query);
    EXPECT_FALSE(result.hits.empty()) << query;
    for (const Hit& hit : result.hits) {
      const std::optional<Article> article = searcher.fetch(hit.id);
      ASSERT_TRUE(article.has_value());
      const Snippet stemmed = make_snippet(searcher.analyzer(), article->body, result.highlight);
      EXPECT_EQ(hit.snippet.text, stemmed.text) << query << " in " << hit.id;
      EXPECT_EQ(hit.snippet.highlights, stemmed.highlights) << query << " in " << hit.id;
      // Only the title holds "long": the snippet is the body's start.
      EXPECT_EQ(hit.snippet.highlights.empty(), query == "title:long") << query << " in " << hit.id;
      // Titles too: marked from the positions, as stemming them marks them.
      EXPECT_EQ(hit.title_highlights,
                highlight_all(searcher.analyzer(), article->title, result.highlight).highlights)
          << query << " in " << hit.id;
    }
  }
}

// The words a snippet marks. Highlights count code points: the text is
// turned into one string per code point to read them.
std::vector<std::string> marked_words(const Snippet& snippet) {
  std::vector<std::string> code_points;
  for (char byte : snippet.text) {
    if (starts_code_point(byte) || code_points.empty()) code_points.emplace_back();
    code_points.back() += byte;
  }
  std::vector<std::string> words;
  for (const Highlight& h : snippet.highlights) {
    std::string word;
    for (std::size_t i = h.begin; i < h.end && i < code_points.size(); ++i) word += code_points[i];
    words.push_back(word);
  }
  return words;
}

// The snippet of a phrase shows the phrase, not its words scattered before
// it, whether the words' places come from the index or from stemming.
TEST(Searcher, PhraseSnippetsShowThePhrase) {
  TempDir dir;
  std::string filler;
  for (int i = 0; i < 60; ++i) filler += "word" + std::to_string(i) + " ";
  index_articles(dir, {{"phones", "Phones",
                        "A mobile shop sold phones and older mobiles. " + filler +
                            "Then she lost her mobile phone on the train.",
                        "", "", ""}});
  Searcher searcher(index_path(dir));
  for (const std::string query : {"\"mobile phones\"", "mobile-phone", "phone NEAR/2 mobile"}) {
    const SearchResult result = searcher.search(query);
    ASSERT_EQ(result.hits.size(), 1u) << query;
    const Snippet& snippet = result.hits[0].snippet;
    EXPECT_NE(snippet.text.find("mobile phone"), std::string::npos)
        << query << ": " << snippet.text;
    EXPECT_EQ(marked_words(snippet), (std::vector<std::string>{"mobile", "phone"})) << query;
    const Snippet stemmed =
        make_snippet(searcher.analyzer(), searcher.fetch("phones")->body, result.highlight);
    EXPECT_EQ(snippet.highlights, stemmed.highlights) << query;
  }
}

TEST(Searcher, MissingIndexSaysWhereItLooked) {
  TempDir dir;
  const std::string path = (dir / "nothing-here").string();
  try {
    Searcher searcher(path);
    FAIL();
  } catch (const IndexNotFoundError& error) {
    EXPECT_NE(std::string(error.what()).find(path), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("quarry-index"), std::string::npos);
  }
}

TEST(Searcher, SeesArticlesIndexedAfterItOpened) {
  TempDir dir;
  write_file(dir / "a" / "one.txt", "An article about milk.");
  IndexConfig config;
  config.db_path = (dir / "index").string();
  index_paths(config, {(dir / "a").string()});
  Searcher searcher(config.db_path);
  EXPECT_TRUE(searcher.search("water").hits.empty());
  write_file(dir / "a" / "two.txt", "An article about water.");
  index_paths(config, {(dir / "a").string()});
  EXPECT_EQ(searcher.search("water").hits.size(), 1u);
}

// Another index put in the folder's place, moved or copied, is read whole:
// none of the old one's articles, all of the new one's, its language too.
TEST(Searcher, SeesAnIndexThatReplacedItsFolder) {
  TempDir dir, old_index, new_index;
  index_articles(old_index, {{"milk.txt", "Milk", "An article about milk.", "", "", ""}});
  IndexConfig config;
  config.db_path = index_path(new_index);
  config.language = "french";
  write_file(new_index / "a" / "eau.txt", "Un article sur l'eau des rivières.");
  index_paths(config, {(new_index / "a").string()});
  const std::filesystem::path live = dir / "live";
  for (const bool by_moving : {true, false}) {
    std::filesystem::remove_all(live);
    std::filesystem::copy(index_path(old_index), live, std::filesystem::copy_options::recursive);
    Searcher searcher(live.string());
    ASSERT_EQ(searcher.search("milk").hits.size(), 1u);
    if (by_moving) {
      std::filesystem::copy(config.db_path, dir / "new", std::filesystem::copy_options::recursive);
      std::filesystem::rename(live, dir / "old");
      std::filesystem::rename(dir / "new", live);
      std::filesystem::remove_all(dir / "old");
    } else {
      std::filesystem::remove_all(live);
      std::filesystem::copy(config.db_path, live, std::filesystem::copy_options::recursive);
    }
    EXPECT_TRUE(searcher.search("milk").hits.empty()) << by_moving;
    EXPECT_FALSE(searcher.fetch("milk.txt")) << by_moving;
    EXPECT_TRUE(searcher.fetch("eau.txt")) << by_moving;
    EXPECT_EQ(searcher.search("rivière").hits.size(), 1u) << by_moving;
    EXPECT_EQ(searcher.stats().language, "french") << by_moving;
    EXPECT_EQ(searcher.article_count(), 1u) << by_moving;
  }
}

TEST(Searcher, SortingByDateWhereNoArticleHasOneSaysSo) {
  TempDir dir;
  testing::index_articles(dir, {{"a", "Milk", "Milk prices rose.", "", "", ""},
                                {"b", "Milk", "Milk and more milk.", "", "", ""}});
  Searcher searcher(testing::index_path(dir));
  SearchOptions options;
  options.sort = SortOrder::kNewestFirst;
  const SearchResult result = searcher.search("milk", options);
  EXPECT_EQ(result.hits.size(), 2u);
  EXPECT_EQ(result.notes,
            std::vector<std::string>{"no article in the index has a date: sorted by relevance"});
  EXPECT_TRUE(searcher.search("milk").notes.empty());
}

// Articles of one day at several times, given out of order and with
// relevance disagreeing with time, beside a day without a time, the days
// around it and an article without a date.
std::vector<Article> one_busy_day() {
  return {
      {"evening", "Oil", "Oil prices.", "1987-03-02T17:44:00", "", ""},
      {"dawn", "Oil", "Oil oil oil prices.", "1987-03-02T05:43:10", "", ""},
      {"noon", "Oil", "Oil oil prices.", "1987-03-02T12:13:00", "", ""},
      {"undated", "Oil", "Oil oil oil oil prices.", "", "", ""},
      {"morning", "Oil", "Oil prices rose in the morning.", "1987-03-02 07:39", "", ""},
      {"morning-later", "Oil", "Oil prices.", "1987-03-02T07:43:00.5Z", "", ""},
      {"day", "Oil", "Oil oil prices.", "1987-03-02", "", ""},
      {"day-before", "Oil", "Oil prices.", "1987-03-01T23:59:59", "", ""},
      {"day-after", "Oil", "Oil prices.", "1987-03-03T00:00:01", "", ""},
  };
}

std::vector<std::string> ids_of(const SearchResult& result) {
  std::vector<std::string> ids;
  for (const Hit& hit : result.hits) ids.push_back(hit.id);
  return ids;
}

// Sorting by date keeps to the time of day; an article with a day and no
// time stands at its start; undated articles come last both ways.
TEST(Searcher, SortingByDateFollowsTheTimeOfDay) {
  TempDir dir;
  testing::index_articles(dir, one_busy_day());
  Searcher searcher(testing::index_path(dir));
  SearchOptions options;
  options.sort = SortOrder::kOldestFirst;
  EXPECT_EQ(ids_of(searcher.search("oil", options)),
            (std::vector<std::string>{"day-before", "day", "dawn", "morning", "morning-later",
                                      "noon", "evening", "day-after", "undated"}));
  options.sort = SortOrder::kNewestFirst;
  EXPECT_EQ(ids_of(searcher.search("oil", options)),
            (std::vector<std::string>{"day-after", "evening", "noon", "morning-later", "morning",
                                      "dawn", "day", "day-before", "undated"}));
  // A page further on continues the same order.
  options.offset = 6;
  options.limit = 2;
  EXPECT_EQ(ids_of(searcher.search("oil", options)),
            (std::vector<std::string>{"day", "day-before"}));
}

// Wire copy from three desks, each giving its own zone, is ordered by the
// instant each names, not by the clock times as written.
TEST(Searcher, SortingByDateTakesTimeZonesIntoAccount) {
  TempDir dir;
  testing::index_articles(dir, {
                                   {"new-york", "Oil", "Oil.", "1987-03-02T06:00:00-05:00", "", ""},
                                   {"london", "Oil", "Oil.", "1987-03-02T08:00:00Z", "", ""},
                                   {"tokyo", "Oil", "Oil.", "1987-03-02T09:00:00+09:00", "", ""},
                                   {"sydney", "Oil", "Oil.", "1987-03-02T07:00+11:00", "", ""},
                               });
  Searcher searcher(testing::index_path(dir));
  SearchOptions options;
  options.sort = SortOrder::kOldestFirst;
  // Sydney's 07:00 is 20:00 UTC the evening before.
  EXPECT_EQ(ids_of(searcher.search("oil", options)),
            (std::vector<std::string>{"sydney", "tokyo", "london", "new-york"}));
  options.sort = SortOrder::kNewestFirst;
  EXPECT_EQ(ids_of(searcher.search("oil", options)),
            (std::vector<std::string>{"new-york", "london", "tokyo", "sydney"}));
}

// An index written before times were kept has no time slot: it sorts by
// the day, undated articles still last.
TEST(Searcher, AnIndexWithoutTimesSortsByDay) {
  TempDir dir;
  testing::index_articles(dir, one_busy_day());
  {
    Xapian::WritableDatabase db(testing::index_path(dir));
    for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
      Xapian::Document doc = db.get_document(*it);
      if (doc.get_value(detail::kTimeSlot).empty()) continue;
      doc.remove_value(detail::kTimeSlot);
      db.replace_document(*it, doc);
    }
    db.commit();
  }
  Searcher searcher(testing::index_path(dir));
  SearchOptions options;
  for (SortOrder sort : {SortOrder::kOldestFirst, SortOrder::kNewestFirst}) {
    options.sort = sort;
    const std::vector<std::string> ids = ids_of(searcher.search("oil", options));
    ASSERT_EQ(ids.size(), 9u);
    const bool oldest = sort == SortOrder::kOldestFirst;
    EXPECT_EQ(ids.front(), oldest ? "day-before" : "day-after");
    EXPECT_EQ(ids[7], oldest ? "day-after" : "day-before");
    EXPECT_EQ(ids.back(), "undated");
  }
}

// after: and before: include the day they name, whatever the time.
TEST(Searcher, AfterAndBeforeIncludeTheDayNamed) {
  TempDir dir;
  testing::index_articles(dir, one_busy_day());
  Searcher searcher(testing::index_path(dir));
  const std::vector<std::string> day = {"dawn",    "day",           "evening",
                                        "morning", "morning-later", "noon"};
  EXPECT_EQ(sorted_ids(searcher.search("oil after:1987-03-02 before:1987-03-02")), day);
  EXPECT_EQ(sorted_ids(searcher.search("oil date:1987-03-02")), day);
  EXPECT_EQ(searcher.count("oil after:1987-03-02").total, 7u);
  EXPECT_EQ(searcher.count("oil before:1987-03-02").total, 7u);
  EXPECT_EQ(searcher.count("oil after:1987-03").total, 8u);
  EXPECT_EQ(searcher.count("oil before:1987").total, 8u);
}

}  // namespace
}  // namespace quarry
