// Spelling suggestions and synonyms, as a searcher sees them: the spelling
// data and the synonym list that lib/index_writer.cc stores, read back
// through SearchResult, and when a search runs the suggestion instead.
#include "lib/search/spelling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::sorted_ids;
using testing::TempDir;
using Ids = std::vector<std::string>;

Article article(std::string id, std::string title, std::string body) {
  return {std::move(id), std::move(title), std::move(body),
          "2017-12-10",  "sport",          "Press Association"};
}

// "run" and "ran" both occur; Herrera occurs once; football, soccer, "Man Utd"
// and "Manchester United" each have an article of their own.
const std::vector<Article>& corpus() {
  static const std::vector<Article> kArticles = {
      article("s01", "Ederson keeps clean sheet",
              "Ederson saved everything at the Etihad. Guardiola praised his goalkeeper."),
      article("s02", "Mourinho speaks",
              "Jose Mourinho, the Portuguese coach, spoke after the game. He said his team ran "
              "hard."),
      article("s03", "Herrera injury", "Ander Herrera will run again next week."),
      article("s04", "Fans queue", "Football supporters queued outside the stadium."),
      article("s05", "Growing in America", "Soccer is growing across America."),
      article("s06", "Man Utd win", "Man Utd won again at home."),
      article("s07", "Manchester United draw", "Manchester United drew with Burnley."),
  };
  return kArticles;
}

// Letters compared without case: a suggestion keeps the words that were
// right as they were typed.
std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

class Spelling : public testing::SharedIndexTest {
 protected:
  static void SetUpTestSuite() {
    const IndexReport report =
        index_suite_articles(corpus(), "football, soccer\nman utd, manchester united\n");
    ASSERT_EQ(report.added, corpus().size());
    ASSERT_EQ(report.synonym_groups, 2u);
  }

  // A search of every match of `query` (100 at most), correcting its
  // spelling as `correct` says.
  static SearchResult every_match(std::string_view query, Correction correct = Correction::kAuto) {
    SearchOptions options;
    options.limit = 100;
    options.spelling.correct = correct;
    return searcher().search(query, options);
  }
};

struct SuggestionCase {
  std::string query;
  std::string suggestion;  // "" for none
};

TEST_F(Spelling, SuggestsTheWordsTheIndexHolds) {
  const std::vector<SuggestionCase> cases = {
      {"Edersen", "ederson"},
      {"Guardiolla", "guardiola"},
      {"Mourinho Portugese", "mourinho portuguese"},
      {"Edersen Guardiolla", "ederson guardiola"},
      // The rest of the query is kept as typed.
      {"Edersen AND Guardiola", "ederson and guardiola"},
      {"+Edersen -Mourinho", "+ederson -mourinho"},
      // Words that are right are left alone, however rare, when no much
      // more frequent word is close.
      {"Herrera", ""},
      {"Burnley", ""},
      {"Mourinho Portuguese", ""},
      {"speaks", ""},
      // Nor is a word as frequent as a close one.
      {"run", ""},
      {"ran", ""},
      // Nothing close.
      {"xylophone", ""},
      {"", ""},
  };
  SearchOptions options;
  options.spelling.correct = Correction::kNever;
  for (const SuggestionCase& c : cases) {
    const SearchResult result = searcher().search(c.query, options);
    EXPECT_EQ(lower(result.suggestion), c.suggestion) << c.query;
    EXPECT_FALSE(result.corrected) << c.query;
  }
}

TEST_F(Spelling, QueryThatFindsNothingSearchesTheSuggestion) {
  const SearchResult corrected = every_match("Edersen Guardiolla");
  EXPECT_TRUE(corrected.corrected);
  EXPECT_EQ(lower(corrected.suggestion), "ederson guardiola");
  EXPECT_EQ(corrected.query, "Edersen Guardiolla");
  EXPECT_EQ(sorted_ids(corrected), Ids{"s01"});

  const SearchResult portuguese = every_match("Portugese");
  EXPECT_TRUE(portuguese.corrected);
  EXPECT_EQ(sorted_ids(portuguese), Ids{"s02"});

  const SearchResult typed = every_match("Edersen Guardiolla", Correction::kNever);
  EXPECT_TRUE(typed.hits.empty());
  EXPECT_FALSE(typed.corrected);
  EXPECT_EQ(lower(typed.suggestion), "ederson guardiola");
}

TEST_F(Spelling, ATypoBesideAWordThatFindsSomethingIsCorrectedAsAlone) {
  // Mourinho alone finds s02; Edersen finds nothing and Ederson s01: the
  // typo is corrected as "Edersen" alone would be.
  const SearchResult corrected = every_match("Edersen Mourinho");
  EXPECT_TRUE(corrected.corrected);
  EXPECT_EQ(lower(corrected.suggestion), "ederson mourinho");
  EXPECT_EQ(sorted_ids(corrected), (Ids{"s01", "s02"}));

  const SearchResult kept = every_match("Edersen Mourinho", Correction::kNever);
  EXPECT_FALSE(kept.corrected);
  EXPECT_EQ(sorted_ids(kept), Ids{"s02"});
}

TEST_F(Spelling, SuggestionThatFindsNothingEitherIsOnlyOffered) {
  const SearchResult result = searcher().search("Edersen category:weather");
  EXPECT_FALSE(result.corrected);
  EXPECT_EQ(lower(result.suggestion), "ederson category:weather");
  EXPECT_TRUE(result.hits.empty());
}

TEST_F(Spelling, CorrectWithNothingToCorrectSearchesTheQuery) {
  SearchOptions options;
  options.spelling.correct = Correction::kAlways;
  const SearchResult result = searcher().search("Herrera", options);
  EXPECT_FALSE(result.corrected);
  EXPECT_TRUE(result.suggestion.empty());
  EXPECT_EQ(sorted_ids(result), Ids{"s03"});
}

TEST_F(Spelling, QueriesSearchedAsPlainWordsGetSuggestionsToo) {
  SearchOptions options;
  options.spelling.correct = Correction::kNever;
  EXPECT_EQ(lower(searcher().search("(Edersen", options).suggestion), "(ederson");
  options.parse = ParseMode::kPlain;
  EXPECT_EQ(lower(searcher().search("Edersen AND", options).suggestion), "ederson and");
}

// How many articles hold each word.
using WordCounts = std::vector<std::pair<std::string, int>>;

struct ContractCase {
  const char* name;
  WordCounts words;
  std::string query;
  std::string suggestion;  // "" for none
};

void PrintTo(const ContractCase& c, std::ostream* out) { *out << c.query; }

class SpellingContract : public ::testing::TestWithParam<ContractCase> {};

// Each case builds an index whose words are held by the numbers of
// articles given.
TEST_P(SpellingContract, SuggestsOnlyMuchMoreFrequentWordsClose) {
  TempDir dir;
  std::vector<Article> articles;
  for (const auto& [word, count] : GetParam().words) {
    for (int i = 0; i < count; ++i) {
      articles.push_back({word + std::to_string(i), "", word, "", "", ""});
    }
  }
  testing::index_articles(dir, articles);
  Searcher searcher(testing::index_path(dir));
  EXPECT_EQ(searcher.search(GetParam().query).suggestion, GetParam().suggestion);
  // A searcher that has looked up other misspellings answers from the
  // vocabulary's frequent words in memory, and from what it answered before.
  Searcher busy(testing::index_path(dir));
  for (const char* other : {"qwertz", "zxcvbn", "asdfgh"}) busy.search(other);
  EXPECT_EQ(busy.search(GetParam().query).suggestion, GetParam().suggestion) << "busy";
  EXPECT_EQ(busy.search(GetParam().query).suggestion, GetParam().suggestion) << "asked again";
}

const ContractCase kContracts[] = {
    // "goverment" and "governess" share a stem, so the query has a hit.
    {"WordInNoArticle", {{"government", 12}, {"governess", 1}}, "goverment", "government"},
    {"RareWordThatExists", {{"government", 12}, {"goverment", 1}}, "goverment", "government"},
    {"NotMuchMoreFrequent", {{"government", 5}, {"goverment", 1}}, "goverment", ""},
    {"CommonWordsAreLeftAlone", {{"phone", 12}, {"phones", 10}}, "phones", ""},
    // Held by two articles in fewer than 2,000: not rare.
    {"OnlyRareWordsAreLookedAt", {{"phone", 30}, {"phones", 2}}, "phones", ""},
    {"NeverALessFrequentWord", {{"run", 1}, {"ran", 1}}, "run", ""},
    // "hike" would find what "hikes" finds.
    {"NeverAWordOfTheSameStem", {{"hike", 20}, {"hikes", 1}}, "hikes", ""},
    {"FirstLetterKept", {{"errera", 12}}, "Herrera", ""},
    {"FirstLetterKeptAtTwoEdits", {{"person", 30}}, "Ederson", ""},
    {"FewestEditsFirst", {{"football", 2}, {"fastball", 30}}, "fotball", "football"},
    {"ThenMostFrequent", {{"bit", 3}, {"but", 20}, {"bat", 5}}, "bxt", "but"},
    // In 2,000 articles or more, one article is not enough.
    {"WordOfOneArticleInMany", {{"filler", 2000}, {"guardiola", 1}}, "guardiolla", ""},
    {"WordOfTwoArticlesInMany", {{"filler", 2000}, {"guardiola", 2}}, "guardiolla", "guardiola"},
    {"TwoEditsAway", {{"tomorrow", 12}}, "tommorow", "tomorrow"},
    {"TwoEditsNeedTenArticles", {{"tomorrow", 3}}, "tommorow", ""},
    // "tommorows" finds "tommorowing" through their stem: a word in use.
    {"TwoEditsOnlyForWordsThatFindNothing",
     {{"tomorrows", 12}, {"tommorowing", 1}},
     "tommorows",
     ""},
    {"TwoEditsForWordsThatFindNothing", {{"tomorrows", 12}}, "tommorows", "tomorrows"},
    {"NumbersAreNotCorrected", {{"2017", 12}}, "2018", ""},
};

INSTANTIATE_TEST_SUITE_P(Table, SpellingContract, ::testing::ValuesIn(kContracts),
                         [](const auto& info) { return info.param.name; });

// Articles of `count` copies of `body`, their ids starting with `id`.
void add_copies(std::vector<Article>* articles, const std::string& id, const std::string& body,
                int count) {
  for (int i = 0; i < count; ++i)
    articles->push_back({id + std::to_string(i), "", body, "", "", ""});
}

// An index where "governess" is in one article and "government" in twelve:
// "goverment", whose stem is governess's, finds the one, while "government"
// was meant.
class SpellingCorrection : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<Article> articles = {{"obituary", "", "She was a governess in Paris.", "", "", ""},
                                     {"bank", "", "Societe Generale shares rose.", "", "", ""}};
    add_copies(&articles, "gov", "The government spoke.", 12);
    add_copies(&articles, "rain", "Rain fell on the hills.", 2);
    add_copies(&articles, "society", "The society will generate interest and jobs.", 30);
    testing::index_articles(dir_, articles);
  }

  SearchResult search(std::string_view query, ParseMode parse = ParseMode::kQueryOrPlain) {
    Searcher searcher(testing::index_path(dir_));
    SearchOptions options;
    options.limit = 100;
    options.parse = parse;
    return searcher.search(query, options);
  }

  TempDir dir_;
};

TEST_F(SpellingCorrection, SuggestionThatFindsTenTimesAsManyIsSearched) {
  const SearchResult result = search("goverment");
  EXPECT_TRUE(result.corrected);
  EXPECT_EQ(result.suggestion, "government");
  EXPECT_EQ(result.total, 12u);
  EXPECT_EQ(result.hits.size(), 12u);
  EXPECT_EQ(result.query, "goverment");
}

TEST_F(SpellingCorrection, ATypoBesideAGoodWordIsCorrectedAsItWouldBeAlone) {
  // The query finds the obituary and the two articles on rain, the
  // suggestion 14, fewer than ten times as many: the good word finds as
  // much either way. The typo alone finds one article and its correction
  // twelve, as when it is searched alone.
  const SearchResult result = search("goverment rain");
  EXPECT_TRUE(result.corrected);
  EXPECT_EQ(result.suggestion, "government rain");
  EXPECT_EQ(result.total, 14u);
  EXPECT_EQ(std::count_if(result.hits.begin(), result.hits.end(),
                          [](const Hit& hit) { return hit.id == "obituary"; }),
            0);
}

TEST_F(SpellingCorrection, NeverCorrectedATypoBesideAGoodWordIsOnlyOffered) {
  Searcher searcher(testing::index_path(dir_));
  SearchOptions options;
  options.spelling.correct = Correction::kNever;
  const SearchResult result = searcher.search("goverment rain", options);
  EXPECT_FALSE(result.corrected);
  EXPECT_EQ(result.suggestion, "government rain");
  EXPECT_EQ(result.total, 3u);
}

TEST_F(SpellingCorrection, RealWordsAreSearchedAsWritten) {
  const SearchResult result = search("governess");
  EXPECT_FALSE(result.corrected);
  EXPECT_EQ(result.suggestion, "");
  EXPECT_EQ(sorted_ids(result), Ids{"obituary"});
}

TEST_F(SpellingCorrection, SuggestionKeepsTheCaseTyped) {
  EXPECT_EQ(search("Goverment").suggestion, "Government");
  EXPECT_EQ(search("GOVERMENT").suggestion, "GOVERNMENT");
  EXPECT_EQ(search("Goverment rain").suggestion, "Government rain");
}

TEST_F(SpellingCorrection, WordsInCapitalsNeverBecomeOperators) {
  // "ANF" is "and" misspelt, not the operator AND.
  const SearchResult result = search("ANF", ParseMode::kStrict);
  EXPECT_EQ(result.suggestion, "and");
  EXPECT_TRUE(result.corrected);
  EXPECT_EQ(result.total, 30u);
  EXPECT_EQ(search("GOVERMENT ANF").suggestion, "GOVERNMENT and");
}

TEST_F(SpellingCorrection, WordsWrittenTogetherInTheArticlesAreNotCorrected) {
  // Each word alone is rare, and close to a much more frequent one.
  EXPECT_EQ(search("Societe").suggestion, "Society");
  EXPECT_EQ(search("Generale").suggestion, "Generate");
  // Together they are a name the articles write.
  for (const char* query :
       {"Societe Generale", "Société Générale", "Generale Societe", "Societe Generale shares"}) {
    const SearchResult result = search(query);
    EXPECT_EQ(result.suggestion, "") << query;
    EXPECT_FALSE(result.corrected) << query;
    EXPECT_EQ(sorted_ids(result), Ids{"bank"}) << query;
  }
}

TEST(SpellingEditDistance, CountsCodePoints) {
  const struct {
    std::string a, b;
    std::size_t edits;
  } cases[] = {
      {"", "", 0},
      {"abc", "abc", 0},
      {"abc", "", 3},
      {"abc", "acb", 1},
      {"ederson", "person", 2},
      {"herrera", "errera", 1},
      {"café", "cafe", 1},
      {"東京", "京東", 1},
      {"tommorow", "tomorrow", 2},
      {"kitten", "sitting", 3},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(detail::edit_distance(c.a, c.b), c.edits) << c.a << " " << c.b;
    EXPECT_EQ(detail::edit_distance(c.b, c.a), c.edits) << c.b << " " << c.a;
  }
}

// Queries that must each find exactly `ids`.
struct SynonymCase {
  Ids ids;
  std::vector<std::string> queries;
};

TEST_F(Spelling, SynonymsMatchAsTheWordDoes) {
  const std::vector<SynonymCase> cases = {
      {{"s04", "s05"}, {"soccer", "Football", "SOCCER", "+soccer"}},
      {{"s04"}, {"stadium AND soccer"}},
      // Multi-word members are looked up as quoted phrases.
      {{"s06", "s07"}, {"\"man utd\"", "\"Man Utd\"", "\"manchester united\""}},
      // As free words, "man" and "utd" are looked up one by one and have no
      // synonyms of their own.
      {{"s06"}, {"man utd"}},
      // Words in no group are not expanded.
      {{"s05"}, {"America"}},
  };
  for (const SynonymCase& c : cases) {
    for (const std::string& query : c.queries) {
      EXPECT_EQ(sorted_ids(every_match(query)), c.ids) << query;
    }
  }
}

// Tests that change an index build their own.
class SpellingUpdates : public ::testing::Test {
 protected:
  void index(const std::vector<Article>& articles, const std::string& synonyms = "") {
    testing::index_articles(dir_, articles, synonyms);
  }

  std::string db_path() const { return testing::index_path(dir_); }

  TempDir dir_;
};

TEST_F(SpellingUpdates, RemovedArticlesTakeTheirWordsWithThem) {
  const Article zabaleta =
      article("u1", "Zabaleta retires", "Pablo Zabaleta announced his retirement from football.");
  const Article keeper = article("u2", "Keeper", "The goalkeeper and the striker trained.");
  const Article other = article("u3", "Another keeper", "A goalkeeper signed for Burnley.");
  index({zabaleta, keeper, other});
  Searcher searcher(db_path());
  EXPECT_EQ(searcher.search("Zabaletta").suggestion, "Zabaleta");
  EXPECT_EQ(searcher.search("goalkeepr").suggestion, "goalkeeper");
  EXPECT_GT(searcher.stats().distinct_words, 6u);

  index({keeper});
  ASSERT_EQ(searcher.stats().articles, 1u);
  // keeper, the, goalkeeper, and, striker, trained: counted afresh.
  EXPECT_EQ(searcher.stats().distinct_words, 6u);
  EXPECT_EQ(searcher.search("Zabaletta").suggestion, "");
  EXPECT_EQ(searcher.search("Burnlee").suggestion, "");
  // Still held by the article that stays.
  EXPECT_EQ(searcher.search("goalkeepr").suggestion, "goalkeeper");
}

TEST_F(SpellingUpdates, ChangedArticlesChangeTheirWords) {
  index({article("u1", "Derby", "Ederson saved a penalty at the Etihad.")});
  Searcher searcher(db_path());
  EXPECT_EQ(searcher.search("Etihadd").suggestion, "Etihad");
  index({article("u1", "Derby", "Ederson saved a penalty at Anfield.")});
  EXPECT_EQ(searcher.search("Etihadd").suggestion, "");
  EXPECT_EQ(searcher.search("Anfeld").suggestion, "Anfield");
  EXPECT_EQ(searcher.search("Edersen").suggestion, "Ederson");
}

TEST_F(SpellingUpdates, ReloadingSynonymsReplacesTheOldGroups) {
  const std::vector<Article> articles = {
      article("f1", "Fans", "Football supporters queued outside the stadium."),
      article("f2", "America", "Soccer is growing across America."),
      article("f3", "Italy", "Calcio is the Italian word for it."),
  };
  index(articles, "# equivalent words\n\nfootball, soccer  # the game\n");
  Searcher searcher(db_path());
  EXPECT_EQ(sorted_ids(searcher.search("soccer")), (Ids{"f1", "f2"}));
  EXPECT_EQ(sorted_ids(searcher.search("calcio")), Ids{"f3"});

  index(articles, "football, calcio\n");
  EXPECT_EQ(sorted_ids(searcher.search("soccer")), Ids{"f2"});
  EXPECT_EQ(sorted_ids(searcher.search("calcio")), (Ids{"f1", "f3"}));
  EXPECT_EQ(sorted_ids(searcher.search("football")), (Ids{"f1", "f3"}));

  // Indexing without a synonym list keeps the stored one.
  index(articles);
  EXPECT_EQ(sorted_ids(searcher.search("calcio")), (Ids{"f1", "f3"}));
}

}  // namespace
}  // namespace quarry
