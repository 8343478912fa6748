// quarry's answers as a user reads them: ranking, snippets and highlights,
// words found as they are typed, no hits as a success, counts that are
// true, hits that say what they are, recency and corrected spelling.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_fixture.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST_F(CliCorpusTest, RanksArticlesWithMoreQueryWordsFirst) {
  json result = search_json("Ederson Portuguese");
  std::vector<std::string> ids = ranked_ids(result);
  ASSERT_EQ(ids.size(), 3u) << result.dump();
  EXPECT_EQ(Ids(ids.begin(), ids.begin() + 2), Ids({kKompany, kAmazon})) << result.dump();
  EXPECT_EQ(ids[2], kRaucous);
  EXPECT_EQ(result.at("total"), 3);
  for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(result["hits"][i].at("rank"), i + 1);
}

TEST_F(CliCorpusTest, SnippetsShowAndHighlightEveryQueryWord) {
  json result = search_json("penalty Herrera");
  ASSERT_EQ(id_set(result), kAllArticles) << result.dump();
  for (const json& hit : result.at("hits")) {
    const std::u32string snippet = ascii_lower(to_u32(hit.at("snippet").get<std::string>()));
    EXPECT_NE(snippet.find(U"penalty"), std::u32string::npos) << hit.dump();
    EXPECT_NE(snippet.find(U"herrera"), std::u32string::npos) << hit.dump();
    std::vector<std::u32string> words = highlighted_words(hit);
    for (const std::u32string& word : words) {
      EXPECT_TRUE(word == U"penalty" || word == U"herrera") << hit.dump();
    }
    EXPECT_NE(std::find(words.begin(), words.end(), U"penalty"), words.end()) << hit.dump();
    EXPECT_NE(std::find(words.begin(), words.end(), U"herrera"), words.end()) << hit.dump();
  }
}

TEST_F(CliCorpusTest, TextOutputShowsTitlesAndIdsAndColoursOnlyWhenAsked) {
  json result = search_json("penalty Herrera");
  ASSERT_EQ(result.at("hits").size(), 3u);

  RunResult plain = run_quarry(db(), {"--color", "never", "penalty", "Herrera"});
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out.find('\x1b'), std::string::npos) << plain.out;
  for (const json& hit : result.at("hits")) {
    EXPECT_NE(plain.out.find(hit.at("title").get<std::string>()), std::string::npos) << plain.out;
    EXPECT_NE(plain.out.find(hit.at("id").get<std::string>()), std::string::npos) << plain.out;
  }

  // Standard output is a pipe here, so "auto" means no colour too.
  RunResult automatic = run_quarry(db(), {"penalty", "Herrera"});
  EXPECT_EQ(automatic.out, plain.out);

  RunResult coloured = run_quarry(db(), {"--color", "always", "penalty", "Herrera"});
  EXPECT_EQ(coloured.exit_code, 0) << coloured.err;
  EXPECT_NE(coloured.out.find("\x1b["), std::string::npos) << coloured.out;
}

TEST_F(CliCorpusTest, FindsWordsAsTyped) {
  const struct {
    std::string query;
    Ids expected;
  } kCases[] = {
      {"\"dressing room\"", kAllArticles},
      {"dressing-room", kAllArticles},
      {"2-1", kAllArticles},
      {"£10million", {kAmazon}},
      {"Ederson", kAllArticles},
      {"ederson", kAllArticles},
      {"EDERSON", kAllArticles},
      {"penalties", kAllArticles},  // the stem of "penalty"
  };
  for (const auto& c : kCases) {
    json result = search_json(c.query);
    EXPECT_EQ(id_set(result), c.expected) << c.query;
    for (const json& hit : result.at("hits")) {
      EXPECT_FALSE(highlighted_words(hit).empty()) << c.query << ": " << hit.dump();
    }
  }
}

TEST_F(CliCorpusTest, CurlyAndStraightApostrophesFindTheSameArticles) {
  json curly = search_json("Guardiola’s");
  json straight = search_json("Guardiola's");
  // 001 writes "Guardiola’s", 002 "Guardiola's": each query must find both.
  EXPECT_TRUE(id_set(curly).contains(kKompany)) << curly.dump();
  EXPECT_TRUE(id_set(curly).contains(kAmazon)) << curly.dump();
  EXPECT_EQ(id_set(curly), id_set(straight));
  for (const json* result : {&curly, &straight}) {
    for (const json& hit : result->at("hits")) {
      EXPECT_FALSE(highlighted_words(hit).empty()) << hit.dump();
    }
  }
}

TEST_F(CliCorpusTest, NoHitsIsSuccess) {
  RunResult text = run_quarry(db(), {"zyzzyva"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out, "No articles match.\n");
  EXPECT_EQ(text.err, "");

  json result = search_json("zyzzyva");
  EXPECT_EQ(result.at("total"), 0);
  EXPECT_TRUE(result.at("hits").is_array());
  EXPECT_TRUE(result.at("hits").empty());
  EXPECT_EQ(result.at("query"), "zyzzyva");
}

// A query that can find nothing says why, and what to do, in text and JSON.
TEST_F(CliCorpusTest, QueriesThatSearchNothingSayWhatToDo) {
  const struct {
    std::string query, note;
  } cases[] = {
      {"", "the query is empty: give words to search for"},
      {"*", "'*' needs the start of a word before it, as in Manches*"},
      {"Herr?ra",
       "Herr?ra: a wildcard is a '*' that ends a word; search Herr* for the words "
       "that start with Herr"},
  };
  for (const auto& c : cases) {
    RunResult text = run_quarry(db(), {c.query});
    EXPECT_EQ(text.exit_code, 0) << text.err;
    EXPECT_EQ(text.out, "No articles match.\n") << c.query;
    EXPECT_EQ(text.err, "quarry: note: " + c.note + "\n") << c.query;
    EXPECT_EQ(search_json(c.query).at("notes"), json::array({c.note})) << c.query;
  }
}

// Sorted by date, every word must match unless the query joins them with OR.
TEST_F(CliCorpusTest, SortedByDateEveryWordMustMatch) {
  EXPECT_EQ(run_quarry(db(), {"--count", "Kompany Amazon"}).out, "2\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "--sort", "-date", "Kompany Amazon"}).out, "0\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "--sort", "-date", "Kompany Portuguese"}).out, "1\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "--sort", "-date", "Kompany OR Amazon"}).out, "2\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "--sort", "date", "--match", "any", "Kompany Amazon"}).out,
            "2\n");
}

// Without dates to sort by, a search sorted by date is the search by
// relevance, matched as one (any word), and says so.
TEST(CliSearchTest, SortedByDateWithoutDatesIsSearchedByRelevance) {
  TempDir dir;
  write_file(dir / "news.jsonl", to_json_lines({{"b1", "Blair", "Tony Blair spoke.", "", "", ""},
                                                {"b2", "Blair", "Mr Blair spoke.", "", "", ""},
                                                {"b3", "Tony", "Tony Benn spoke.", "", "", ""}}));
  ASSERT_EQ(run_index(dir / "index", {(dir / "news.jsonl").string()}).exit_code, 0);
  const RunResult relevance = run_quarry(dir / "index", {"Tony Blair"});
  EXPECT_EQ(lines_of(relevance.out).front(), "3 articles match") << relevance.out;
  const std::string note =
      "quarry: note: no article in the index has a date: sorted by relevance\n";
  for (const char* order : {"date", "-date"}) {
    const RunResult sorted = run_quarry(dir / "index", {"--sort", order, "Tony Blair"});
    EXPECT_EQ(sorted.exit_code, 0) << sorted.err;
    EXPECT_EQ(sorted.out, relevance.out) << order;
    EXPECT_EQ(sorted.err, note) << order;
    EXPECT_EQ(run_quarry(dir / "index", {"--count", "--sort", order, "Tony Blair"}).out, "3\n");
    EXPECT_EQ(
        run_quarry(dir / "index", {"--count", "--sort", order, "--match", "all", "Tony Blair"}).out,
        "1\n");
  }
}

TEST_F(CliCorpusTest, CountsWhateverThePage) {
  RunResult none_asked = run_quarry(db(), {"-n", "0", "penalty"});
  EXPECT_EQ(none_asked.exit_code, 0) << none_asked.err;
  EXPECT_EQ(none_asked.out, "3 articles match\n");

  RunResult count = run_quarry(db(), {"--count", "penalty"});
  EXPECT_EQ(count.exit_code, 0) << count.err;
  EXPECT_EQ(count.out, "3\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "Portuguese"}).out, "2\n");
  EXPECT_EQ(run_quarry(db(), {"--count", "zyzzyva"}).out, "0\n");
  // The count is exact whatever the limit of a page's count.
  EXPECT_EQ(run_quarry(db(), {"--count", "--count-limit", "1", "penalty"}).out, "3\n");

  for (const std::string n : {"0", "1", "10"}) {
    const json result = json::parse(run_quarry(db(), {"-n", n, "--format", "json", "penalty"}).out);
    EXPECT_EQ(result.at("total"), 3) << n;
    EXPECT_EQ(result.at("total_relation"), "eq") << n;
  }
  RunResult text = run_quarry(db(), {"penalty"});
  EXPECT_TRUE(text.out.starts_with("3 articles match\n1. ")) << text.out;
}

// Scripts reading JSON read a count as they read an answer's, whatever
// the count limit; text stays the number alone.
TEST_F(CliCorpusTest, ACountInJsonIsAnObjectNamedAsAnswersAre) {
  for (const std::vector<std::string>& limit :
       {std::vector<std::string>{}, std::vector<std::string>{"--count-limit", "1"}}) {
    std::vector<std::string> args = limit;
    args.insert(args.end(), {"--count", "--format", "json", "penalty"});
    const RunResult run = run_quarry(db(), args);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, R"({"query":"penalty","total":3,"total_relation":"eq"})"
                       "\n");
    const json answer = json::parse(run_quarry(db(), {"--format", "json", "penalty"}).out);
    EXPECT_EQ(json::parse(run.out).at("total"), answer.at("total"));
  }
}

TEST_F(CliCorpusTest, PastTheCountLimitTheTotalIsALowerBound) {
  RunResult text = run_quarry(db(), {"-n", "1", "--count-limit", "2", "penalty"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(text.out.starts_with("2+ articles match\n1. ")) << text.out;
  const json result = json::parse(
      run_quarry(db(), {"-n", "1", "--count-limit", "2", "--format", "json", "penalty"}).out);
  EXPECT_EQ(result.at("total"), 2);
  EXPECT_EQ(result.at("total_relation"), "gte");
  EXPECT_EQ(result.at("hits").size(), 1u);
}

// A page that reaches past the count limit is counted as far as it
// reaches: no output says fewer matches than the hits it shows.
TEST_F(CliCorpusTest, APageBeyondTheCountLimitIsCountedToItsEnd) {
  const struct {
    std::vector<std::string> args;
    std::size_t hits;
    std::size_t total;
    std::string relation;
    std::string first_line;
  } kCases[] = {
      {{"-n", "2", "--count-limit", "1"}, 2, 2, "gte", "2+ articles match"},
      {{"-n", "10", "--count-limit", "2"}, 3, 3, "eq", "3 articles match"},
      {{"--offset", "1", "-n", "1", "--count-limit", "1"}, 1, 2, "gte", "2+ articles match"},
      {{"-n", "1000000"}, 3, 3, "eq", "3 articles match"},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(::testing::PrintToString(c.args));
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--format", "json", "penalty"});
    const json result = json::parse(run_quarry(db(), args).out);
    EXPECT_EQ(result.at("hits").size(), c.hits);
    EXPECT_EQ(result.at("total"), c.total);
    EXPECT_EQ(result.at("total_relation"), c.relation);
    args = c.args;
    args.push_back("penalty");
    const RunResult text = run_quarry(db(), args);
    EXPECT_TRUE(text.out.starts_with(c.first_line + "\n")) << text.out;
  }
}

// An index of English and French articles: each hit says its language,
// a facet counts them, and --language searches one.
TEST(CliResultPage, LanguagesAreShownCountedAndSearchedOneAtATime) {
  TempDir dir;
  write_file(dir / "news.jsonl", to_json_lines(english_and_french_articles()));
  ASSERT_EQ(run_index(dir / "index", {(dir / "news.jsonl").string()}).exit_code, 0);

  RunResult both =
      run_quarry(dir / "index", {"--format", "json", "--facets", "language", "trains"});
  ASSERT_EQ(both.exit_code, 0) << both.err;
  const json all = json::parse(both.out);
  std::map<std::string, std::string> languages;
  for (const json& hit : all.at("hits")) languages[hit.at("id")] = hit.at("language");
  EXPECT_EQ(languages,
            (std::map<std::string, std::string>{{"strike-en", "en"}, {"strike-fr", "fr"}}));
  EXPECT_EQ(all.at("facets").at("language"), json::parse(R"([["en", 1], ["fr", 1]])"));

  for (const std::string french : {"fr", "French"}) {
    RunResult one = run_quarry(dir / "index", {"--format", "json", "--language", french, "trains"});
    ASSERT_EQ(one.exit_code, 0) << one.err;
    EXPECT_EQ(ranked_ids(json::parse(one.out)), std::vector<std::string>{"strike-fr"}) << french;
  }
  RunResult text = run_quarry(dir / "index", {"--language", "fr", "trains"});
  EXPECT_EQ(lines_of(text.out).at(2), "   strike-fr · 2026-03-02 · Wire · transport · fr");

  RunResult unknown = run_quarry(dir / "index", {"--language", "klingon", "trains"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.out, "");
  EXPECT_EQ(unknown.err,
            "quarry: --language: no language 'klingon': name one by its ISO 639-1 code (fr) or "
            "its name (french) (quarry --help lists the options)\n");
}

TEST(CliResultPage, HitsSayWhatTheyAreAndFacetsCountThem) {
  TempDir dir;
  const std::vector<Article> articles = {
      {"w1", "Wheat harvest late", "The wheat harvest was late.", "2017-12-01", "grain", "Reuters"},
      {"w2", "Wheat prices", "Wheat prices rose again.", "2017-11-03", "grain", "Reuters"},
      {"w3", "Exports", "Wheat exports fell.", "", "trade", ""}};
  write_file(dir / "news.jsonl", to_json_lines(articles));
  ASSERT_EQ(run_index(dir / "index", {(dir / "news.jsonl").string()}).exit_code, 0);

  RunResult text = run_quarry(dir / "index", {"--sort", "-date", "wheat"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  const std::vector<std::string> lines = lines_of(text.out);
  ASSERT_GE(lines.size(), 10u) << text.out;
  EXPECT_EQ(lines[0], "3 articles match");
  EXPECT_EQ(lines[2], "   w1 · 2017-12-01 · Reuters · grain · en");
  EXPECT_EQ(lines[5], "   w2 · 2017-11-03 · Reuters · grain · en");
  EXPECT_EQ(lines[8], "   w3 · trade · en");

  const json result = json::parse(
      run_quarry(dir / "index", {"--format", "json", "--facets", "source,category,date", "wheat"})
          .out);
  std::map<std::string, json> hits;
  for (const json& hit : result.at("hits")) hits[hit.at("id")] = hit;
  EXPECT_EQ(hits.at("w1").at("source"), "Reuters");
  EXPECT_EQ(hits.at("w1").at("category"), "grain");
  EXPECT_EQ(hits.at("w1").at("date"), "2017-12-01");
  EXPECT_EQ(hits.at("w1").at("language"), "en");
  EXPECT_FALSE(hits.at("w3").contains("source"));
  EXPECT_FALSE(hits.at("w3").contains("date"));
  // "Wheat" is the first word of w1's title; "Exports" is not a query word.
  EXPECT_EQ(hits.at("w1").at("title_highlights"), json::parse("[[0, 5]]"));
  EXPECT_EQ(hits.at("w3").at("title_highlights"), json::array());
  EXPECT_EQ(result.at("facets").at("source"), json::parse(R"([["Reuters", 2]])"));
  EXPECT_EQ(result.at("facets").at("category"), json::parse(R"([["grain", 2], ["trade", 1]])"));
  EXPECT_EQ(result.at("facets").at("date"), json::parse(R"([["2017-11", 1], ["2017-12", 1]])"));

  RunResult facets = run_quarry(dir / "index", {"-n", "0", "--facets", "category", "wheat"});
  EXPECT_EQ(facets.out, "3 articles match\n  category: grain 2 · trade 1\n");
}

TEST(CliSearchTest, RecencyRanksNewerArticlesHigher) {
  TempDir dir;
  index_articles(dir, recency_articles());
  const auto ids = [&](const std::vector<std::string>& args) {
    std::vector<std::string> all{"--format", "json"};
    all.insert(all.end(), args.begin(), args.end());
    all.push_back("lighthouse");
    const RunResult result = run_quarry(index_path(dir), all);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return ranked_ids(json::parse(result.out));
  };
  EXPECT_EQ(ids({}), (std::vector<std::string>{"lighthouse-old", "lighthouse-new"}));
  EXPECT_EQ(ids({"--recency", "7d", "--as-of", "2024-05-01"}),
            (std::vector<std::string>{"lighthouse-new", "lighthouse-old"}));
  EXPECT_EQ(ids({"--recency", "off", "--as-of", "2024-05-01"}),
            (std::vector<std::string>{"lighthouse-old", "lighthouse-new"}));
}

// --correct: when the suggestion is searched instead of the query.
TEST_F(CliCorpusTest, CorrectSearchesTheSuggestionWhenTheQueryFindsNothing) {
  RunResult automatic = run_quarry(db(), {"-n", "0", "Edersen"});
  EXPECT_EQ(automatic.exit_code, 0) << automatic.err;
  EXPECT_EQ(automatic.out,
            "Showing results for Ederson; search instead for Edersen\n3 articles match\n");
  const json corrected = search_json("Edersen");
  EXPECT_EQ(corrected.at("query"), "Edersen");
  EXPECT_EQ(corrected.at("suggestion"), "Ederson");
  EXPECT_EQ(corrected.at("corrected"), true);

  RunResult never = run_quarry(db(), {"-n", "0", "--correct", "never", "Edersen"});
  EXPECT_EQ(never.out, "Did you mean: Ederson\nNo articles match.\n");
  // Beside Kompany, which finds an article, the typo is corrected as it is
  // alone; never keeps it.
  const std::string corrected_out =
      "Showing results for Ederson Kompany; search instead for Edersen Kompany\n"
      "3 articles match\n";
  EXPECT_EQ(run_quarry(db(), {"-n", "0", "Edersen Kompany"}).out, corrected_out);
  EXPECT_EQ(run_quarry(db(), {"-n", "0", "--correct", "always", "Edersen Kompany"}).out,
            corrected_out);
  RunResult kept = run_quarry(db(), {"-n", "0", "--correct", "never", "Edersen Kompany"});
  EXPECT_EQ(kept.out, "Did you mean: Ederson Kompany\n1 article matches\n");
  RunResult bad = run_quarry(db(), {"--correct", "sometimes", "Edersen"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.out, "");
}

// The query-language table of docs/searching.md says its examples run against corpus/:
// each must find articles there, as written, with no note or warning.
TEST_F(CliCorpusTest, ReadmeQueryExamplesFindArticles) {
  const std::string readme =
      read_file(fs::path(QUARRY_CORPUS_DIR).parent_path() / "docs" / "searching.md");
  const std::size_t start = readme.find("\n## Query language\n");
  ASSERT_NE(start, std::string::npos);
  const std::string section = readme.substr(start, readme.find("\n## ", start + 1) - start);
  ASSERT_NE(section.find("Examples run against `corpus/`"), std::string::npos);
  std::vector<std::string> examples;
  std::istringstream lines(section);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("| `")) continue;
    // The first column holds the examples, each in backquotes.
    const std::string column = line.substr(1, line.find(" | ") - 1);
    for (std::size_t open = column.find('`'); open != std::string::npos;) {
      const std::size_t close = column.find('`', open + 1);
      examples.push_back(column.substr(open + 1, close - open - 1));
      open = column.find('`', close + 1);
    }
  }
  EXPECT_GE(examples.size(), 18u);
  // And those of the prose below the table, which may be wrapped.
  std::string prose_text = section;
  std::replace(prose_text.begin(), prose_text.end(), '\n', ' ');
  for (const char* prose : {"Guardiola’s NEAR Kompany", "title:\"Dressing-Room\"", "penalties",
                            "\"dressing rooms\"", "celebrati*"}) {
    ASSERT_NE(prose_text.find(std::string("`") + prose + "`"), std::string::npos) << prose;
    examples.push_back(prose);
  }
  for (const std::string& example : examples) {
    RunResult result = run_quarry(db(), {"--format", "json", "--", example});
    ASSERT_EQ(result.exit_code, 0) << example << ": " << result.err;
    const json answer = json::parse(result.out);
    EXPECT_GT(answer.at("total").get<int>(), 0) << example;
    EXPECT_FALSE(answer.contains("warnings")) << example << ": " << answer.at("warnings");
    EXPECT_FALSE(answer.contains("notes")) << example;
    EXPECT_FALSE(answer.contains("corrected")) << example;
    EXPECT_EQ(result.err, "") << example;
  }
}

}  // namespace
}  // namespace quarry::testing
