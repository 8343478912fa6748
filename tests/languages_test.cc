// One index of articles in several languages: each article is analyzed in
// the language it says, or is identified to be written in, and a query
// finds the forms of its words in each language, and only there.
#include <gtest/gtest.h>
#include <xapian.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lib/index/schema.h"
#include "quarry/error.h"
#include "quarry/index/index_writer.h"
#include "quarry/search/searcher.h"
#include "quarry/search/snippet.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::sorted_ids;
using testing::write_file;

class Languages : public testing::SharedIndexTest {
 protected:
  static void SetUpTestSuite() {
    const auto articles = suite_dir() / "articles";
    // Neither says its language: each is identified from its text.
    write_file(articles / "wire.jsonl",
               R"({"id": "en-march", "title": "The long march", "body": "Thousands joined )"
               R"(the march through the city centre on Saturday, and the organisers said )"
               R"(the march would be repeated next year."})"
               "\n"
               R"({"id": "fr-marche", "title": "Le marché reprend", "body": "Le marché )"
               R"(boursier a repris des couleurs mardi après une semaine difficile, selon )"
               R"(les analystes de la place de Paris."})"
               "\n"
               R"({"id": "fr-debat", "title": "Un débat animé", "body": "Les députés ont )"
               R"(ouvert un débat sur la réforme des retraites à l'Assemblée nationale )"
               R"(jeudi soir."})"
               "\n"
               // Told, and too short to identify.
               R"({"id": "pt-debate", "title": "Debate", "body": "O debate, o debate, o )"
               R"(debate.", "language": "pt"})"
               "\n"
               R"({"id": "en-short", "title": "Debate", "body": "Talks."})"
               "\n"
               // One text twice, said to be in two languages: names and
               // numbers, which English and French stem alike.
               R"({"id": "copy-en", "title": "Mourinho Guardiola 2017", "body": "Mourinho )"
               R"(Guardiola Ederson Rashford Salah Kane Saka Foden 2017 2018 2019 Manchester )"
               R"(Liverpool Arsenal Chelsea Tottenham Everton Leeds", "language": "en"})"
               "\n"
               R"({"id": "copy-fr", "title": "Mourinho Guardiola 2017", "body": "Mourinho )"
               R"(Guardiola Ederson Rashford Salah Kane Saka Foden 2017 2018 2019 Manchester )"
               R"(Liverpool Arsenal Chelsea Tottenham Everton Leeds", "language": "fr"})"
               "\n");
    // A .txt article says its language in its header.
    write_file(articles / "berlin.txt",
               "Language: de\n\nHäuser in Berlin\n\nDie Häuser der Stadt werden teurer.");
    report_ = index_suite_paths({articles.string()});
  }

  static SearchResult search(const std::string& query) {
    SearchOptions options;
    options.spelling.correct = Correction::kNever;
    return searcher().search(query, options);
  }

  static IndexReport report_;
};

IndexReport Languages::report_;

TEST_F(Languages, EachArticleIsAnalyzedInItsLanguageToldOrIdentified) {
  const LanguageCounts expected{
      {"english", {3, 1}}, {"french", {3, 2}}, {"german", {1, 0}}, {"portuguese", {1, 0}}};
  EXPECT_EQ(report_.languages, expected)
      << "en-short is too short to identify: it is analyzed in the main language, English";
  const SearchResult result = search("debate OR marché OR häuser OR march");
  std::map<std::string, std::string> languages;
  for (const Hit& hit : result.hits) languages[hit.id] = hit.language;
  EXPECT_EQ(languages, (std::map<std::string, std::string>{{"berlin.txt", "de"},
                                                           {"en-march", "en"},
                                                           {"en-short", "en"},
                                                           {"fr-debat", "fr"},
                                                           {"fr-marche", "fr"},
                                                           {"pt-debate", "pt"}}));
}

TEST_F(Languages, AWordFindsItsFormsInItsOwnLanguageOnly) {
  // French "marchés" finds the article that writes "marché": the French
  // stemmer joins them. English "march" shares the French stem's letters,
  // but not its term: it stays with the English article.
  EXPECT_EQ(sorted_ids(search("lang:fr marchés")), std::vector<std::string>{"fr-marche"});
  EXPECT_EQ(sorted_ids(search("language:english march")), std::vector<std::string>{"en-march"});
  // German "Haus" finds "Häuser" through the German stemmer, which the
  // English one would not.
  EXPECT_EQ(sorted_ids(search("haus")), std::vector<std::string>{"berlin.txt"});
  const Xapian::Database db(db_path());
  EXPECT_GT(db.get_termfreq(std::string(detail::kStemPrefix) + "XFRmarch"), 0u);
  EXPECT_EQ(db.get_termfreq(std::string(detail::kStemPrefix) + "march"), 1u)
      << "the French article's stem is not the English one";
}

TEST_F(Languages, TheQuerysLanguageNarrowsItsArticles) {
  EXPECT_EQ(sorted_ids(search("debate")),
            (std::vector<std::string>{"en-short", "fr-debat", "pt-debate"}));
  SearchOptions options;
  options.parser.language = "pt";
  EXPECT_EQ(sorted_ids(searcher().search("debate", options)),
            std::vector<std::string>{"pt-debate"});
  EXPECT_EQ(sorted_ids(search("debate -lang:pt")),
            (std::vector<std::string>{"en-short", "fr-debat"}));
  options.parser.language.clear();
  options.parse = ParseMode::kStrict;
  EXPECT_THROW(searcher().search("lang:klingon debate", options), QueryError);
}

TEST_F(Languages, AWordRanksTheLanguagesThatWriteItFirst) {
  // "débat" is written by the French article only; its stem, "debat", is
  // also the Portuguese "debate"'s, which the Portuguese article repeats.
  const SearchResult result = search("débat");
  ASSERT_GE(result.hits.size(), 2u);
  EXPECT_EQ(result.hits[0].id, "fr-debat");
}

TEST_F(Languages, SnippetsHighlightTheFormsOfTheArticlesLanguage) {
  const SearchResult result = search("maison OR haus");
  ASSERT_EQ(result.hits.size(), 1u);
  const Hit& hit = result.hits[0];
  ASSERT_FALSE(hit.snippet.highlights.empty());
  const Highlight& first = hit.snippet.highlights[0];
  // "Häuser", in code points: "Die Häuser der Stadt werden teurer."
  EXPECT_EQ(hit.snippet.text, "Die Häuser der Stadt werden teurer.");
  EXPECT_EQ(first, (Highlight{4, 10}));
  // Highlighting a whole article stems its words in its language, as the
  // page and the prompt show one.
  const std::optional<Article> article = searcher().fetch("berlin.txt");
  ASSERT_TRUE(article);
  EXPECT_EQ(article->language, "german");
  const Snippet whole =
      highlight_all(searcher().analyzer(*article), article->body, result.highlight);
  EXPECT_EQ(whole.highlights, (std::vector<Highlight>{{4, 10}}));
}

TEST_F(Languages, StoriesAreFormedWithinALanguage) {
  // The same words in two languages are two stories: each language's
  // stems are its own.
  SearchOptions options;
  options.collapse.by = Collapse::kStory;
  const SearchResult result = searcher().search("mourinho", options);
  EXPECT_EQ(sorted_ids(result), (std::vector<std::string>{"copy-en", "copy-fr"}));
  for (const Hit& hit : result.hits) EXPECT_TRUE(hit.more.empty()) << hit.id;
}

TEST_F(Languages, StatsNameTheLanguagesHeld) {
  const IndexStats stats = searcher().stats();
  EXPECT_EQ(stats.language, "auto");
  EXPECT_EQ(stats.languages, (std::vector<std::string>{"en", "fr", "de", "pt"}));
}

}  // namespace
}  // namespace quarry
