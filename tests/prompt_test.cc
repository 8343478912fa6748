#include "app/terminal/prompt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/common/search_option_table.h"
#include "quarry/index/index_writer.h"
#include "tests/prompt_session.h"
#include "tests/test_util.h"

namespace quarry::testing {
namespace {

namespace fs = std::filesystem;

TEST_F(PromptTest, QueryWritesItsHits) {
  const Reply reply = say(kQuery);
  EXPECT_EQ(reply.next, Next::kContinue);
  EXPECT_EQ(reply.diagnostics, "");
  EXPECT_EQ(ranks_in(reply.out), (std::vector<std::size_t>{1, 2, 3})) << reply.out;
  EXPECT_EQ(ids_in(reply.out), expected_ids(kQuery)) << reply.out;
  EXPECT_EQ(reply.out.find("Hits "), std::string::npos) << "no decorations asked for";
  EXPECT_EQ(session_->problems(), 0u);
}

TEST_F(PromptTest, BlankLinesDoNothing) {
  for (const char* line : {"", " ", "\t \r\n"}) {
    const Reply reply = say(line);
    EXPECT_EQ(reply.next, Next::kContinue);
    EXPECT_EQ(reply.out, "");
    EXPECT_EQ(reply.diagnostics, "");
  }
  EXPECT_EQ(session_->problems(), 0u);
}

TEST_F(PromptTest, TextAnswersAreSetApartByABlankLine) {
  const Reply first = say("milk");
  const Reply second = say("milk");
  EXPECT_FALSE(first.out.starts_with("\n")) << first.out;
  EXPECT_EQ(second.out, "\n" + first.out);
}

TEST_F(PromptTest, DecorationsCountTheHits) {
  PromptConfig config;
  config.decorations = true;
  open(config);
  const Reply hits = say(kQuery);
  EXPECT_NE(hits.out.find("\nHits 1-3 of 3 ("), std::string::npos) << hits.out;
  const Reply none = say("zidane");
  EXPECT_EQ(none.out.find("Hits "), std::string::npos) << none.out;
  EXPECT_NE(none.out.find("No articles match."), std::string::npos) << none.out;
}

TEST_F(PromptTest, NextAndPrevTurnPages) {
  // The rank shown after each line, or the problem it is.
  struct Step {
    std::string line;
    std::size_t rank;  // 0: a problem
    std::string problem = "";
  };
  const std::vector<Step> steps = {
      {":next", 0, "no query yet"},
      {":prev", 0, "no query yet"},
      {":limit 1", 0, ""},
      {kQuery, 1},
      {":prev", 0, "already at the first page"},
      {":next", 2},
      {":next", 3},
      {":next", 0, "no more hits"},
      {":prev", 2},
      {":prev", 1},
      {":prev", 0, "already at the first page"},
  };
  const std::vector<std::string> ids = expected_ids(kQuery);
  ASSERT_EQ(ids.size(), 3u);
  std::size_t problems = 0;
  for (const Step& step : steps) {
    const Reply reply = say(step.line);
    if (step.rank != 0) {
      EXPECT_EQ(reply.diagnostics, "") << step.line;
      EXPECT_EQ(ranks_in(reply.out), std::vector<std::size_t>{step.rank}) << step.line;
      EXPECT_EQ(ids_in(reply.out), std::vector<std::string>{ids[step.rank - 1]}) << step.line;
    } else if (!step.problem.empty()) {
      expect_problem(reply, step.line, step.problem);
      ++problems;
    } else {
      EXPECT_EQ(reply.out + reply.diagnostics, "") << step.line;
    }
  }
  EXPECT_EQ(session_->problems(), problems);
}

TEST_F(PromptTest, NextKeepsTheFormatAndThePageSize) {
  ASSERT_EQ(say(":limit 2").out, "");
  ASSERT_EQ(ranks_in(say(kQuery).out), (std::vector<std::size_t>{1, 2}));
  ASSERT_EQ(say(":format json").out, "");
  const Reply reply = say(":next");
  const nlohmann::json json = nlohmann::json::parse(reply.out);
  ASSERT_EQ(json.at("hits").size(), 1u) << reply.out;
  EXPECT_EQ(json.at("hits")[0].at("rank"), 3);
}

TEST_F(PromptTest, ShowWritesTheWholeArticle) {
  ASSERT_EQ(say(kQuery).diagnostics, "");
  const std::vector<std::string> ids = expected_ids(kQuery);
  for (std::size_t rank = 1; rank <= ids.size(); ++rank) {
    const std::optional<Article> article = searcher_->fetch(ids[rank - 1]);
    ASSERT_TRUE(article) << ids[rank - 1];
    const Reply reply = say(":show " + std::to_string(rank));
    EXPECT_EQ(reply.diagnostics, "") << rank;
    const std::vector<std::string> lines = lines_of(reply.out);
    ASSERT_GE(lines.size(), 3u) << reply.out;
    EXPECT_EQ(lines[0], article->title);
    EXPECT_TRUE(lines[1].starts_with(article->id)) << lines[1];
    EXPECT_EQ(lines[2], "");
    // The body follows the heading, every word of it.
    const std::vector<std::string> shown = words_of(reply.out);
    const std::vector<std::string> body = words_of(article->body);
    ASSERT_GE(shown.size(), body.size());
    EXPECT_TRUE(std::equal(body.begin(), body.end(), shown.end() - body.size()))
        << "rank " << rank << ":\n"
        << reply.out;
    EXPECT_EQ(reply.out.find('\x1b'), std::string::npos);
  }
}

// :show N shows hit N as it was listed, and only a hit on screen.
TEST_F(PromptTest, ShowTakesOnlyAHitOnScreen) {
  ASSERT_EQ(say(":limit 2").out, "");
  ASSERT_EQ(say(kQuery).diagnostics, "");
  const std::vector<std::string> ids = expected_ids(kQuery);
  expect_problem(say(":show 3"), ":show 3", "no hit 3 on screen; the hits shown are 1-2");
  EXPECT_NE(say(":show 2").out.find(ids[1]), std::string::npos);
  ASSERT_EQ(ranks_in(say(":next").out), std::vector<std::size_t>{3});
  expect_problem(say(":show 1"), ":show 1", "the hit shown is 3");
  EXPECT_NE(say(":show 3").out.find(ids[2]), std::string::npos);
  ASSERT_EQ(say("zyzzyva").diagnostics, "");
  expect_problem(say(":show 1"), ":show 1", "none is shown");
}

TEST_F(PromptTest, ShowProblems) {
  expect_problem(say(":show 1"), ":show 1", "no query yet");
  ASSERT_EQ(say(kQuery).diagnostics, "");
  struct Case {
    std::string line;
    std::string mention;
  };
  const std::vector<Case> cases = {
      {":show 0", ":show 1"},
      {":show x", ":show 1"},
      {":show", ":show 1"},
      {":show -1", ":show 1"},
      {":show 1x", ":show 1"},
      {":show 1.5", ":show 1"},
      {":show 99", "no hit 99 on screen; the hits shown are 1-3"},
      {":show 4", "no hit 4"},
  };
  for (const Case& c : cases) expect_problem(say(c.line), c.line, c.mention);
  EXPECT_EQ(session_->problems(), cases.size() + 1);
}

// :story lists the other reports of a hit's story by id, and :show opens
// any of them by its id, as it opens a hit by its number.
TEST_F(PromptTest, ShowOpensTheReportsStoryLists) {
  PromptConfig config;
  config.session.search.collapse.by = Collapse::kStory;
  open(config);
  const std::string hits = say(kQuery).out;
  ASSERT_EQ(ids_in(hits).size(), 1u) << "the sample articles are one story\n" << hits;
  const Reply story = say(":story 1");
  ASSERT_EQ(story.diagnostics, "");
  std::vector<std::string> listed;
  for (const std::string& id : expected_ids(kQuery)) {
    if (id != ids_in(hits)[0] && story.out.find(id) != std::string::npos) listed.push_back(id);
  }
  ASSERT_EQ(listed.size(), 2u) << story.out;
  for (const std::string& id : listed) {
    const Reply shown = say(":show " + id);
    EXPECT_EQ(shown.diagnostics, "") << id;
    ASSERT_GE(lines_of(shown.out).size(), 2u) << shown.out;
    EXPECT_EQ(lines_of(shown.out)[0], searcher_->fetch(id)->title);
    EXPECT_TRUE(lines_of(shown.out)[1].starts_with(id)) << shown.out;
  }
  expect_problem(say(":show nosuch.txt"), ":show nosuch.txt", ":show 1, or an article's id");
  expect_problem(say(":show " + std::string(300, 'x')), ":show xxx…", "no article");
  // An id needs no query first.
  open(config);
  EXPECT_EQ(say(":show " + listed[0]).diagnostics, "");
}

TEST_F(PromptTest, LimitSetsTheHitsPerPage) {
  const std::vector<std::string> bad = {":limit abc", ":limit", ":limit -3", ":limit 2x",
                                        ":limit 99999999999999999999999"};
  for (const std::string& line : bad) expect_problem(say(line), line, ":limit 20");
  EXPECT_EQ(ranks_in(say(kQuery).out), (std::vector<std::size_t>{1, 2, 3}))
      << "bad limits leave the limit alone";
  const Reply two = say(":limit 2");
  EXPECT_EQ(two.out + two.diagnostics, "");
  EXPECT_EQ(session_->problems(), bad.size());
  EXPECT_EQ(ranks_in(say(kQuery).out), (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(say(":limit   1  ").diagnostics, "") << "spaces around the number";
  EXPECT_EQ(ranks_in(say(kQuery).out), (std::vector<std::size_t>{1}));
}

// At a terminal, a command that changes a setting says so; to a script
// it says nothing, so that its output holds answers alone.
TEST_F(PromptTest, SettingsChangedAreConfirmedAtATerminal) {
  PromptConfig config;
  config.decorations = true;
  open(config);
  EXPECT_EQ(say(":limit 3").out, "3 hits a page, from the next query\n\n");
  EXPECT_EQ(say(":limit 1").out, "1 hit a page, from the next query\n\n");
  EXPECT_EQ(say(":format json").out, "answers as json, from the next query\n\n");
  expect_problem(say(":limit x"), ":limit x", ":limit 20");
  open();
  EXPECT_EQ(say(":limit 3").out, "");
  EXPECT_EQ(say(":format json").out, "");
}

// :language searches one language from the next query, and alone every
// language again; a language there is no stemmer for is refused.
TEST_F(PromptTest, LanguageSearchesOneLanguage) {
  open_decorated(testing::english_and_french_articles());
  EXPECT_EQ(ids_in(say("trains").out).size(), 2u);
  EXPECT_EQ(say(":language fr").out, "searches in french only, from the next query\n\n");
  const Reply french = say("trains");
  EXPECT_EQ(ids_in(french.out), std::vector<std::string>{"strike-fr"}) << french.out;
  EXPECT_NE(french.out.find("   strike-fr · 2026-03-02 · Wire · transport · fr\n"),
            std::string::npos)
      << french.out;
  expect_problem(say(":language klingon"), ":language klingon", ":language fr");
  EXPECT_EQ(ids_in(say("trains").out), std::vector<std::string>{"strike-fr"})
      << "a refused language changes nothing";
  EXPECT_EQ(say(":language").out, "searches in every language, from the next query\n\n");
  EXPECT_EQ(ids_in(say("trains").out).size(), 2u);
}

// :recency weighs relevance by age from the next query, counted from
// :as-of's date; :recency off and :as-of alone take them back.
TEST_F(PromptTest, RecencyRanksNewerArticlesHigher) {
  open_decorated(testing::recency_articles());
  const std::vector<std::string> old_first{"lighthouse-old", "lighthouse-new"};
  const std::vector<std::string> new_first{"lighthouse-new", "lighthouse-old"};
  EXPECT_EQ(ids_in(say("lighthouse").out), old_first);
  EXPECT_EQ(say(":as-of 2024-05-01").out,
            "ages counted from the date given, from the next query\n\n");
  EXPECT_EQ(say(":recency 12h").out,
            "relevance halves every 12 hours of an article's age, from the next query\n\n");
  EXPECT_EQ(ids_in(say("lighthouse").out), new_first);
  expect_problem(say(":recency soon"), ":recency soon", ":recency 7d");
  expect_problem(say(":as-of someday"), ":as-of someday", ":as-of 2024-05-01");
  EXPECT_EQ(ids_in(say("lighthouse").out), new_first) << "a refused value changes nothing";
  EXPECT_EQ(say(":as-of").out, "ages counted from now, from the next query\n\n");
  EXPECT_EQ(say(":recency off").out, "ranked by relevance alone, from the next query\n\n");
  EXPECT_EQ(ids_in(say("lighthouse").out), old_first);
}

// :recency confirms the half-life in words, in the largest unit that
// counts it whole, rather than in the shorthand it was typed in.
TEST_F(PromptTest, RecencySaysTheHalfLifeInWords) {
  PromptConfig config;
  config.decorations = true;
  open(config);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"7d", "week"},        {"1w", "week"},         {"14d", "2 weeks"}, {"1.5d", "36 hours"},
      {"12h", "12 hours"},   {"90m", "90 minutes"},  {"1h", "hour"},     {"60m", "hour"},
      {"30s", "30 seconds"}, {"0.5s", "0.5 seconds"}};
  for (const auto& [typed, words] : cases) {
    EXPECT_EQ(say(":recency " + typed).out,
              "relevance halves every " + words + " of an article's age, from the next query\n\n")
        << typed;
  }
}

TEST_F(PromptTest, FormatJsonMakesAnswersJsonLines) {
  EXPECT_EQ(say(":format json").out, "");
  const Reply reply = say(kQuery);
  EXPECT_EQ(reply.diagnostics, "");
  ASSERT_EQ(lines_of(reply.out).size(), 1u) << reply.out;
  ASSERT_TRUE(reply.out.ends_with("\n"));
  const nlohmann::json json = nlohmann::json::parse(reply.out);
  EXPECT_EQ(json.at("query"), kQuery);
  EXPECT_EQ(json.at("total"), 3);
  std::vector<std::string> ids;
  for (const auto& hit : json.at("hits")) ids.push_back(hit.at("id").get<std::string>());
  EXPECT_EQ(ids, expected_ids(kQuery));

  const Reply second = say("milk");
  EXPECT_FALSE(second.out.starts_with("\n")) << "JSON Lines have no blank lines between them";
  EXPECT_TRUE(nlohmann::json::accept(second.out)) << second.out;

  for (const std::string line : {":format", ":format xml", ":format JSON"}) {
    expect_problem(say(line), line, "text or json");
  }
  EXPECT_EQ(say(":format text").out, "");
  EXPECT_EQ(ids_in(say(kQuery).out), expected_ids(kQuery));
}

TEST_F(PromptTest, StatsDescribeTheIndex) {
  const Reply reply = say(":stats");
  EXPECT_EQ(reply.diagnostics, "");
  std::map<std::string, std::string> stats;
  for (const std::string& line : lines_of(reply.out)) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::size_t value = line.find_first_not_of(' ', colon + 1);
    stats[line.substr(0, colon)] = value == std::string::npos ? "" : line.substr(value);
  }
  EXPECT_EQ(stats["articles"], "3") << reply.out;
  EXPECT_EQ(stats["language"], "auto (en)") << reply.out;
  EXPECT_TRUE(stats["words"].ends_with(" in all")) << reply.out;
  EXPECT_TRUE(stats.contains("size on disk")) << reply.out;
  EXPECT_TRUE(stats.contains("last update")) << reply.out;
}

TEST_F(PromptTest, StatsWriteCountsWithThousandsSeparators) {
  std::vector<Article> articles;
  for (int i = 0; i < 1000; ++i)
    articles.push_back({"a" + std::to_string(i), "", "word", "", "", ""});
  open_decorated(articles);
  const std::string out = say(":stats").out;
  EXPECT_NE(out.find("articles:      1,000\n"), std::string::npos) << out;
  // Every word is counted a thousand times or more in all.
  const std::size_t words = out.find("\nwords: ");
  ASSERT_NE(words, std::string::npos) << out;
  const std::string line = out.substr(words + 1, out.find('\n', words + 1) - words - 1);
  EXPECT_NE(line.find(" distinct, "), std::string::npos) << line;
  EXPECT_TRUE(line.ends_with(",000 in all")) << line;
}

// :help lists each command at the start of a line of its own: the
// prompt's, and every one the option table gives an option.
TEST_F(PromptTest, HelpListsEveryCommand) {
  const Reply reply = say(":help");
  EXPECT_EQ(reply.diagnostics, "");
  std::vector<std::string> listed;
  for (const std::string& line : lines_of(reply.out)) {
    EXPECT_LE(line.size(), 78u) << line;
    // "  :next, :prev  …": the commands before the spaces of the column.
    const std::size_t end = line.find("  ", 2);
    if (!line.starts_with("  :") || end == std::string::npos) continue;
    for (const std::string& word : words_of(line.substr(0, end))) {
      if (word.starts_with(':')) listed.push_back(word.substr(0, word.find(',')));
    }
  }
  std::vector<std::string> expected = PromptSession::commands();
  for (const SearchOption& option : search_option_table()) {
    if (!option.prompt.empty()) {
      EXPECT_NE(std::find(expected.begin(), expected.end(), option.prompt), expected.end())
          << option.prompt;
    }
  }
  for (const char* command : {":recency", ":as-of", ":time-limit", ":help", ":quit"}) {
    EXPECT_NE(std::find(expected.begin(), expected.end(), command), expected.end()) << command;
  }
  std::sort(expected.begin(), expected.end());
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, expected) << reply.out;
  EXPECT_EQ(session_->complete(":rec"), std::vector<std::string>{":recency"});
}

TEST_F(PromptTest, UnknownCommandPointsToHelp) {
  for (const std::string line : {":frobnicate", ":", ":NEXT", ":nextpage", "::help"}) {
    const Reply reply = say(line);
    expect_problem(reply, line, ":help");
    EXPECT_NE(reply.diagnostics.find("'" + words_of(line)[0] + "'"), std::string::npos)
        << reply.diagnostics;
  }
  EXPECT_EQ(session_->problems(), 5u);
}

TEST_F(PromptTest, QuitEndsTheSession) {
  for (const std::string line : {":quit", ":q", ":exit", "  :quit  "}) {
    const Reply reply = say(line);
    EXPECT_EQ(reply.next, Next::kQuit) << line;
    EXPECT_EQ(reply.out + reply.diagnostics, "") << line;
  }
}

PromptConfig strict_config() {
  PromptConfig config;
  config.session.search.parse = ParseMode::kStrict;
  return config;
}

TEST_F(PromptTest, StrictBadQueryIsAProblemAndTheSessionGoesOn) {
  open(strict_config());
  ASSERT_EQ(say(kQuery).diagnostics, "");
  for (const std::string line : {"penalty AND", "(penalty", "OR milk"}) {
    expect_problem(say(line), line, "column");
  }
  const Reply good = say("milk");
  EXPECT_EQ(good.diagnostics, "");
  EXPECT_EQ(ids_in(good.out), expected_ids("milk"));
  EXPECT_EQ(session_->problems(), 3u);
}

TEST_F(PromptTest, CommandsAfterABadQueryAreProblemsNotFailures) {
  open(strict_config());
  ASSERT_EQ(say(":limit 1").diagnostics, "");
  ASSERT_EQ(say(kQuery).diagnostics, "");
  expect_problem(say("penalty AND"), "penalty AND", "column");
  for (const std::string line : {":next", ":prev", ":show 1"}) {
    Reply reply;
    EXPECT_NO_THROW(reply = say(line)) << line;
    EXPECT_EQ(reply.next, Next::kContinue) << line;
    EXPECT_LE(lines_of(reply.diagnostics).size(), 1u) << line << ": " << reply.diagnostics;
  }
  EXPECT_EQ(ids_in(say("milk").out), std::vector<std::string>{expected_ids("milk")[0]});
}

TEST_F(PromptTest, ProblemsAreCounted) {
  open(strict_config());
  struct Step {
    std::string line;
    std::size_t problems_after;
  };
  const std::vector<Step> steps = {
      {"milk", 0},     {":bogus", 1},   {":show 9", 2}, {"", 2},      {":limit x", 3},
      {":limit 5", 3}, {"milk AND", 4}, {":stats", 4},  {":help", 4}, {":format yaml", 5},
  };
  for (const Step& step : steps) {
    say(step.line);
    EXPECT_EQ(session_->problems(), step.problems_after) << step.line;
  }
}

TEST_F(PromptTest, LikeSaysWhichArticleItsResultsAreLike) {
  PromptConfig config;
  config.decorations = true;
  open(config);
  ASSERT_EQ(say(kQuery).diagnostics, "");
  const std::optional<Article> liked = searcher_->fetch(expected_ids(kQuery)[1]);
  ASSERT_TRUE(liked);
  const Reply reply = say(":like 2");
  EXPECT_EQ(reply.diagnostics, "");
  EXPECT_TRUE(reply.out.starts_with("Articles like \"" + liked->title + "\":\n")) << reply.out;
  const Reply narrowed = say(":like 1 penalty");
  EXPECT_NE(narrowed.out.find("\" that match penalty:\n"), std::string::npos) << narrowed.out;

  open();  // answering a pipe: nothing but answers
  ASSERT_EQ(say(kQuery).diagnostics, "");
  EXPECT_EQ(say(":like 2").out.find("Articles like"), std::string::npos);
}

// Sets an environment variable for the life of a test, or unsets it.
TEST_F(PromptTest, SeesTheIndexChangeUnderIt) {
  IndexConfig config;
  config.db_path = (dir_ / "index").string();
  ASSERT_EQ(index_paths(config, {QUARRY_CORPUS_DIR}).added, 3u);
  use_index(config.db_path);
  open();
  EXPECT_EQ(say("zebrafish").out, "No articles match.\n");
  EXPECT_TRUE(session_->complete("zebraf").empty());

  write_file(dir_ / "more" / "zebra.txt",
             "Zebra crossing\n\nA zebrafish was seen near the Old Trafford tunnel.");
  ASSERT_EQ(index_paths(config, {(dir_ / "more").string()}).added, 1u);

  const Reply reply = say("zebrafish");
  EXPECT_EQ(reply.diagnostics, "");
  EXPECT_EQ(ids_in(reply.out), std::vector<std::string>{"zebra.txt"}) << reply.out;
  EXPECT_EQ(session_->complete("zebraf"), std::vector<std::string>{"zebrafish"});
  EXPECT_NE(say(":stats").out.find("articles:      4\n"), std::string::npos);
  const Reply shown = say(":show 1");
  EXPECT_TRUE(shown.out.starts_with("Zebra crossing\nzebra.txt")) << shown.out;
}

TEST_F(PromptTest, FacetsCountTheLastQuerysMatches) {
  expect_problem(say(":facets"), ":facets", "no query yet");
  const std::vector<Article> articles = {
      {"w1", "Wheat harvest", "The wheat harvest was late.", "2017-12-01", "grain", "Reuters"},
      {"w2", "Wheat prices", "Wheat prices rose.", "2017-11-03", "grain", "REUTERS"},
      {"w3", "Wheat exports", "Wheat exports fell.", "2017-11-20", "trade", "Reuters"},
      {"c1", "Coffee", "Coffee prices fell.", "2016-01-01", "softs", "AP"}};
  testing::index_articles(dir_, articles);
  use_index(testing::index_path(dir_));
  open();
  say(":limit 1");
  say("wheat");
  const Reply all = say(":facets");
  EXPECT_EQ(all.diagnostics, "");
  EXPECT_EQ(all.out,
            "3 articles match\n"
            "  source: Reuters 3\n"
            "  category: grain 2 · trade 1\n"
            "  language: en 3\n"
            "  date: 2017-11 2 · 2017-12 1\n");
  EXPECT_EQ(say(":facets category").out, "3 articles match\n  category: grain 2 · trade 1\n");
  expect_problem(say(":facets author"), ":facets author", "'author'");
  // The page the query showed is still the one :next turns.
  EXPECT_EQ(ranks_in(say(":next").out), std::vector<std::size_t>{2});

  say(":format json");
  const nlohmann::json facets = nlohmann::json::parse(say(":facets source").out);
  EXPECT_EQ(facets.at("facets").at("source"), nlohmann::json::parse(R"([["Reuters", 3]])"));
  EXPECT_TRUE(facets.at("hits").empty());
}

class PromptAnswerLinesTest : public PromptTest {
 protected:
  std::size_t answer(const std::string& input, const SessionConfig& config = {}) {
    std::istringstream in(input);
    return answer_lines(*searcher_, in, config, out_, diagnostics_, kProgram);
  }
};

TEST_F(PromptAnswerLinesTest, AnswersQueriesAndCommandsUntilQuit) {
  SessionConfig config;
  config.format = OutputFormat::kJson;
  config.search.parse = ParseMode::kStrict;
  const std::size_t problems =
      answer(":limit 1\npenalty Herrera\n:next\n:bogus\npenalty AND\n\n:quit\nmilk\n", config);
  EXPECT_EQ(problems, 2u);
  EXPECT_EQ(lines_of(diagnostics_.str()).size(), 2u) << diagnostics_.str();
  const std::vector<std::string> answers = lines_of(out_.str());
  ASSERT_EQ(answers.size(), 2u) << "nothing after :quit\n" << out_.str();
  const std::vector<std::string> ids = expected_ids(kQuery);
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const nlohmann::json json = nlohmann::json::parse(answers[i]);
    EXPECT_EQ(json.at("query"), kQuery);
    ASSERT_EQ(json.at("hits").size(), 1u);
    EXPECT_EQ(json.at("hits")[0].at("rank"), i + 1);
    EXPECT_EQ(json.at("hits")[0].at("id"), ids[i]);
  }
}

TEST_F(PromptAnswerLinesTest, WritesTextWithoutDecorations) {
  EXPECT_EQ(answer("milk\r\n:stats\nEderson"), 0u) << diagnostics_.str();
  const std::string out = out_.str();
  EXPECT_EQ(out.find("Hits "), std::string::npos) << out;
  EXPECT_NE(out.find("articles:      3\n"), std::string::npos) << out;
  const std::size_t ederson = out.rfind("\n\n3 articles match\n1. ");
  ASSERT_NE(ederson, std::string::npos) << "the last line, without a newline, is answered too";
  EXPECT_EQ(ids_in(out.substr(ederson)), expected_ids("Ederson"));
}

TEST_F(PromptAnswerLinesTest, EmptyInputIsNoProblem) {
  EXPECT_EQ(answer(""), 0u);
  EXPECT_EQ(out_.str() + diagnostics_.str(), "");
}

}  // namespace
}  // namespace quarry::testing
