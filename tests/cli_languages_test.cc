// An index that tells each article's language from its text, as a user
// builds one with quarry-index's default --language auto: what it cannot
// tell takes the main language, and a few stray articles of other
// languages leave the main language's ranking as it was.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli_fixture.h"

namespace quarry::testing {
namespace {

std::string article_line(const std::string& id, const std::string& title, const std::string& body) {
  return nlohmann::json{{"id", id}, {"title", title}, {"body", body}}.dump() + "\n";
}

nlohmann::json search(const std::filesystem::path& db, const std::vector<std::string>& args) {
  const RunResult run = run_quarry(db, args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return nlohmann::json::parse(run.out);
}

// Reuters' headlines set in capitals name a city: CLD2 reads "RIO DE
// JANEIRO" as Portuguese, however English the rest.
TEST(CliLanguages, HeadlinesInCapitalsAreNotTakenForTheirNamesLanguage) {
  TempDir dir;
  write_file(
      dir / "wire.jsonl",
      article_line("rio-brief", "RIO DE JANEIRO - IBC closes export registrations - exporters.",
                   "") +
          article_line("rio-caps",
                       "RIO DE JANEIRO - IBC ESTIMATES 1987-88 COFFEE CROP AT 35.2 MLN BAGS", "") +
          article_line("berlin", "Steuern",
                       "Die Bundesregierung will die Steuern für Familien mit kleinen "
                       "Kindern im kommenden Jahr senken, sagte der Finanzminister."));
  const auto db = dir / "db";
  const RunResult indexed = run_index(db, {(dir / "wire.jsonl").string()});
  ASSERT_EQ(indexed.exit_code, 0) << indexed.err;
  const nlohmann::json english =
      search(db, {"--format", "json", "--correct", "never", "language:en"});
  EXPECT_EQ(id_set(english), (Ids{"rio-brief", "rio-caps"}));
  EXPECT_EQ(id_set(search(db, {"--format", "json", "--correct", "never", "language:de"})),
            Ids{"berlin"})
      << "a text in lower case is still identified";
}

// The English articles: each holds some of the query's words, the more the
// lower its number, so that every word is held by many and the ranking is
// full of near ties a change of weights would reorder.
std::string english_articles() {
  const std::vector<std::string> sentences = {
      "The council approved the budget for the new school on Tuesday.",
      "Work on the road beside the river will start in spring.",
      "Traders at the market complained about the harbour fees.",
      "The summer festival drew visitors from across the county.",
      "The library will open later on Sundays, the council said.",
      "Volunteers cleaned the river banks near the old mill.",
      "A new bus route links the school with the market square.",
      "The harbour master warned of high tides this weekend.",
      "Residents asked for a crossing on the busy road.",
      "The festival budget was cut by a tenth this year.",
      "Teachers at the school welcomed the extra funding.",
      "Fishing boats returned early to the harbour in the storm.",
  };
  std::string lines;
  for (std::size_t i = 0; i < 400; ++i) {
    std::string body;
    for (std::size_t k = 0; k <= i % 5; ++k) {
      body += sentences[(i * 7 + k * 5) % sentences.size()] + " ";
    }
    lines += article_line("en-" + std::to_string(i), "Local news " + std::to_string(i), body);
  }
  return lines;
}

// The first 20 English articles `query` ranks, with their scores.
std::vector<std::pair<std::string, double>> english_ranking(const std::filesystem::path& db,
                                                            const std::string& query) {
  std::vector<std::pair<std::string, double>> ranking;
  const nlohmann::json hits = search(
      db, {"--format", "json", "--no-snippets", "--correct", "never", "-n", "21", query})["hits"];
  for (const nlohmann::json& hit : hits) {
    const std::string id = hit["id"].get<std::string>();
    if (id.starts_with("en-") && ranking.size() < 20) {
      ranking.emplace_back(id, hit["score"].get<double>());
    }
  }
  return ranking;
}

void expect_same_ranking(const std::filesystem::path& alone, const std::filesystem::path& mixed,
                         const std::string& query) {
  const auto expected = english_ranking(alone, query);
  const auto actual = english_ranking(mixed, query);
  ASSERT_EQ(expected.size(), 20u) << query;
  ASSERT_EQ(actual.size(), expected.size()) << query;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(actual[i].first, expected[i].first) << query << ", rank " << i + 1;
    // The German article's length and count change BM25's statistics a
    // little, not the weights' shape.
    const double want = expected[i].second;
    EXPECT_NEAR(actual[i].second, want, 0.02 * want) << query << ", rank " << i + 1;
  }
}

// One German article among 400 English ones (under a hundredth of the
// index): an English query ranks the English articles as it does in the
// index without it, pseudo-relevance feedback and all, whether the German
// article writes none of its words or one ("Budget", which the German
// article is then found by, after them).
TEST(CliLanguages, AStrayLanguageLeavesTheMainLanguagesRankingAlone) {
  TempDir dir;
  const std::string english = english_articles();
  write_file(dir / "english.jsonl", english);
  write_file(dir / "mixed.jsonl",
             english + article_line("berlin", "Steuern",
                                    "Die Bundesregierung will die Steuern für Familien mit "
                                    "kleinen Kindern im kommenden Jahr senken, sagte der "
                                    "Finanzminister am Montag in Berlin. Das Budget wächst."));
  const auto alone = dir / "alone";
  const auto mixed = dir / "mixed";
  ASSERT_EQ(run_index(alone, {(dir / "english.jsonl").string()}).exit_code, 0);
  ASSERT_EQ(run_index(mixed, {(dir / "mixed.jsonl").string()}).exit_code, 0);
  ASSERT_EQ(id_set(search(mixed, {"--format", "json", "--correct", "never", "language:de"})),
            Ids{"berlin"});
  // Eight words or more: feedback's default takes them for a bag of words.
  expect_same_ranking(alone, mixed, "council school road river market harbour festival library");
  expect_same_ranking(alone, mixed, "council budget school road river market harbour festival");
}

// The main language holds what could not be told: however few of the
// index's articles it holds, a word finds its forms there.
TEST(CliLanguages, TheMainLanguageIsSearchedHoweverFewItsArticles) {
  TempDir dir;
  std::string lines;
  // French writes "reports" (postponements) too.
  lines += article_line("fr-reports", "Séance", "Les reports de la séance ont agacé les élus.");
  for (int i = 0; i < 150; ++i) {
    lines += article_line("fr-" + std::to_string(i), "Conseil municipal",
                          "Le conseil municipal a voté mardi le budget de la nouvelle école, "
                          "et les travaux de la route commenceront au printemps.");
  }
  lines += R"({"id": "en-1", "title": "Harbour", "body": "The harbour master filed a report.", )"
           R"("language": "en"})"
           "\n";
  write_file(dir / "wire.jsonl", lines);
  const auto db = dir / "db";
  ASSERT_EQ(run_index(db, {(dir / "wire.jsonl").string()}).exit_code, 0);
  EXPECT_EQ(id_set(search(db, {"--format", "json", "--correct", "never", "reports"})),
            (Ids{"en-1", "fr-reports"}));
}

}  // namespace
}  // namespace quarry::testing
