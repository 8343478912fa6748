#include "app/terminal/prompt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/common/terminal_text.h"
#include "quarry/index/index_writer.h"
#include "tests/test_util.h"

namespace quarry {
namespace {

namespace fs = std::filesystem;
using testing::lines_of;
using testing::read_file;
using testing::TempDir;
using testing::write_file;
using Next = PromptSession::Next;

constexpr char kProgram[] = "quarry";
// Every sample article has both words; ranks differ.
constexpr char kQuery[] = "penalty Herrera";

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  return {std::istream_iterator<std::string>(in), std::istream_iterator<std::string>()};
}

// The ids of the hits in text output, in the order written: each hit is
//   N. Title  [score]
//      id
std::vector<std::string> ids_in(const std::string& text) {
  const std::vector<std::string> lines = lines_of(text);
  std::vector<std::string> ids;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    const std::size_t dot = lines[i].find(". ");
    const bool numbered =
        dot != std::string::npos && dot > 0 && lines[i].find_first_not_of("0123456789") == dot;
    // The id, then " · " and the date, source and category it has.
    if (numbered && lines[i + 1].starts_with("   ")) {
      ids.push_back(lines[i + 1].substr(3, lines[i + 1].find(" · ") - 3));
    }
  }
  return ids;
}

std::vector<std::size_t> ranks_in(const std::string& text) {
  std::vector<std::size_t> ranks;
  for (const std::string& line : lines_of(text)) {
    const std::size_t dot = line.find(". ");
    if (dot != std::string::npos && dot > 0 && line.find_first_not_of("0123456789") == dot) {
      ranks.push_back(std::stoul(line.substr(0, dot)));
    }
  }
  return ranks;
}

// What one line made the session do.
struct Reply {
  Next next = Next::kContinue;
  std::string out;
  std::string diagnostics;
};

// A session over an index of the sample articles, shared by the tests but
// one that changes an index of its own.
class PromptTest : public testing::SharedIndexTest {
 protected:
  void SetUp() override { open(); }

  // Starts over with a session of this configuration.
  void open(const PromptConfig& config = {}) {
    out_.str("");
    diagnostics_.str("");
    session_ = std::make_unique<PromptSession>(*searcher_, config, out_, diagnostics_, kProgram);
  }

  Reply say(std::string_view line) {
    const std::size_t out_before = out_.str().size();
    const std::size_t diagnostics_before = diagnostics_.str().size();
    Reply reply;
    reply.next = session_->handle(line);
    reply.out = out_.str().substr(out_before);
    reply.diagnostics = diagnostics_.str().substr(diagnostics_before);
    return reply;
  }

  // The ids the searcher itself ranks for `query`.
  std::vector<std::string> expected_ids(std::string_view query) {
    std::vector<std::string> ids;
    for (const Hit& hit : searcher_->search(query).hits) ids.push_back(hit.id);
    return ids;
  }

  TempDir dir_;
  // The searcher sessions open() makes use: the suite's unless a test
  // points it at an index of its own (kept in own_searcher_).
  Searcher* searcher_ = &searcher();
  std::unique_ptr<Searcher> own_searcher_;
  std::ostringstream out_;
  std::ostringstream diagnostics_;
  std::unique_ptr<PromptSession> session_;
};

// A problem is one line on the diagnostics, and nothing on the output.
void expect_problem(const Reply& reply, std::string_view line, std::string_view mention) {
  EXPECT_EQ(reply.next, Next::kContinue) << line;
  EXPECT_EQ(reply.out, "") << line;
  const std::vector<std::string> lines = lines_of(reply.diagnostics);
  ASSERT_EQ(lines.size(), 1u) << line << ": " << reply.diagnostics;
  EXPECT_TRUE(reply.diagnostics.ends_with("\n")) << line;
  EXPECT_TRUE(lines[0].starts_with("quarry: ")) << line << ": " << lines[0];
  EXPECT_NE(lines[0].find(mention), std::string::npos) << line << ": " << lines[0];
}

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
  testing::index_articles(dir_, testing::english_and_french_articles());
  own_searcher_ = std::make_unique<Searcher>(testing::index_path(dir_));
  searcher_ = own_searcher_.get();
  PromptConfig config;
  config.decorations = true;
  open(config);
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
  testing::index_articles(dir_, testing::recency_articles());
  own_searcher_ = std::make_unique<Searcher>(testing::index_path(dir_));
  searcher_ = own_searcher_.get();
  PromptConfig config;
  config.decorations = true;
  open(config);
  const std::vector<std::string> old_first{"lighthouse-old", "lighthouse-new"};
  const std::vector<std::string> new_first{"lighthouse-new", "lighthouse-old"};
  EXPECT_EQ(ids_in(say("lighthouse").out), old_first);
  EXPECT_EQ(say(":as-of 2024-05-01").out,
            "ages counted from the date given, from the next query\n\n");
  EXPECT_EQ(say(":recency 12h").out,
            "relevance halves every 12h of an article's age, from the next query\n\n");
  EXPECT_EQ(ids_in(say("lighthouse").out), new_first);
  expect_problem(say(":recency soon"), ":recency soon", ":recency 7d");
  expect_problem(say(":as-of someday"), ":as-of someday", ":as-of 2024-05-01");
  EXPECT_EQ(ids_in(say("lighthouse").out), new_first) << "a refused value changes nothing";
  EXPECT_EQ(say(":as-of").out, "ages counted from now, from the next query\n\n");
  EXPECT_EQ(say(":recency off").out, "ranked by relevance alone, from the next query\n\n");
  EXPECT_EQ(ids_in(say("lighthouse").out), old_first);
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

TEST_F(PromptTest, HelpListsEveryCommand) {
  const Reply reply = say(":help");
  EXPECT_EQ(reply.diagnostics, "");
  for (const std::string& command : PromptSession::commands()) {
    EXPECT_NE(reply.out.find(command), std::string::npos) << command << " in\n" << reply.out;
  }
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

TEST_F(PromptTest, CompletesCommandsAndIndexedWords) {
  struct Case {
    std::string word;
    std::vector<std::string> expected;
  };
  const std::vector<Case> commands = {
      {":n", {":next"}},
      {":s", {":show", ":story", ":stats"}},
      {":", PromptSession::commands()},
      {":quit", {":quit"}},
      {":z", {}},
      {"", {}},
      {"zzzz", {}},
  };
  for (const Case& c : commands) EXPECT_EQ(session_->complete(c.word), c.expected) << c.word;

  struct Word {
    std::string typed;
    std::string wanted;
  };
  // Completions keep the case typed.
  const std::vector<Word> words = {
      {"pen", "penalty"}, {"Eders", "Ederson"},   {"PEN", "PENALTY"},  {"Manch", "Manchester"},
      {"mil", "milk"},    {"herrera", "herrera"}, {"HErr", "HErrera"}, {"P", "Portuguese"},
  };
  for (const Word& w : words) {
    const std::vector<std::string> found = session_->complete(w.typed);
    EXPECT_NE(std::find(found.begin(), found.end(), w.wanted), found.end())
        << w.typed << ": " << ::testing::PrintToString(found);
    EXPECT_LE(found.size(), PromptSession::kMaxCompletions);
    for (const std::string& word : found) {
      EXPECT_TRUE(word.starts_with(w.typed)) << w.typed << ": " << word;
    }
  }
}

TEST_F(PromptTest, LongArticlesGoThroughThePager) {
  const fs::path paged = dir_ / "paged.txt";
  const std::string pager = "cat > '" + paged.string() + "'";
  struct Case {
    std::string pager;
    std::size_t screen_rows;
    bool paged;
  };
  const std::vector<Case> cases = {
      {pager, 2, true},
      {pager, 0, false},       // not a terminal
      {"", 2, false},          // no pager
      {pager, 100000, false},  // the article fits on the screen
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.pager + " on " + std::to_string(c.screen_rows) + " rows");
    fs::remove(paged);
    PromptConfig config;
    config.pager = c.pager;
    config.screen_rows = c.screen_rows;
    config.screen_columns = 80;
    open(config);
    ASSERT_EQ(say(kQuery).diagnostics, "");
    const Reply reply = say(":show 1");
    EXPECT_EQ(reply.diagnostics, "");
    const std::string article = c.paged ? read_file(paged) : reply.out;
    EXPECT_EQ(fs::exists(paged), c.paged);
    EXPECT_EQ(reply.out.empty(), c.paged) << reply.out;
    const std::optional<Article> expected = searcher_->fetch(expected_ids(kQuery)[0]);
    ASSERT_TRUE(expected);
    EXPECT_TRUE(article.starts_with(expected->title + "\n" + expected->id)) << article;
    const std::vector<std::string> body = words_of(expected->body);
    const std::vector<std::string> shown = words_of(article);
    ASSERT_GE(shown.size(), body.size());
    EXPECT_TRUE(std::equal(body.begin(), body.end(), shown.end() - body.size())) << article;
  }
}

// The screen fills with rows, not lines: long paragraphs wrap.
TEST_F(PromptTest, ThePagerIsUsedWhenWrappedLinesFillTheScreen) {
  const fs::path paged = dir_ / "paged.txt";
  ASSERT_EQ(say(kQuery).diagnostics, "");
  const std::string article = say(":show 1").out;
  const std::size_t lines = lines_of(article).size();
  for (const std::size_t columns : {20, 40, 100000}) {
    SCOPED_TRACE(std::to_string(columns) + " columns");
    fs::remove(paged);
    PromptConfig config;
    config.pager = "cat > '" + paged.string() + "'";
    // One more row than the article has lines: only wrapping fills it.
    config.screen_rows = lines + 1;
    config.screen_columns = columns;
    open(config);
    ASSERT_EQ(say(kQuery).diagnostics, "");
    say(":show 1");
    EXPECT_EQ(fs::exists(paged), columns != 100000);
  }
}

// :show wraps the article at spaces to the screen's width, as the hits are
// wrapped: a terminal or a pager left to wrap it breaks words in two.
TEST_F(PromptTest, ShowWrapsTheArticleWithoutBreakingWords) {
  const fs::path paged = dir_ / "paged.txt";
  for (const bool through_pager : {false, true}) {
    for (const std::size_t columns : {30, 60, 110}) {
      SCOPED_TRACE(std::to_string(columns) + (through_pager ? " columns, paged" : " columns"));
      fs::remove(paged);
      PromptConfig config;
      config.pager = through_pager ? "cat > '" + paged.string() + "'" : "";
      config.screen_rows = 2;
      config.screen_columns = columns;
      open(config);
      ASSERT_EQ(say(kQuery).diagnostics, "");
      const Reply reply = say(":show 1");
      ASSERT_EQ(reply.diagnostics, "");
      const std::string shown = through_pager ? read_file(paged) : reply.out;
      const std::optional<Article> article = searcher_->fetch(expected_ids(kQuery)[0]);
      ASSERT_TRUE(article);
      const std::vector<std::string> body = words_of(article->body);
      const std::vector<std::string> words = words_of(shown);
      ASSERT_GE(words.size(), body.size());
      EXPECT_TRUE(std::equal(body.begin(), body.end(), words.end() - body.size())) << shown;
      bool wrapped = false;
      for (const std::string& line : lines_of(shown)) {
        EXPECT_LE(display_width(line), columns) << line;
        wrapped = wrapped || display_width(line) > columns / 2;
      }
      EXPECT_TRUE(wrapped) << "lines are filled, not cut short:\n" << shown;
    }
  }
}

// The article's paragraphs are set apart by a blank line, however many
// line breaks apart they were.
TEST_F(PromptTest, ShowSetsParagraphsApart) {
  IndexConfig config;
  config.db_path = (dir_ / "index").string();
  write_file(dir_ / "articles" / "lines.txt",
             "Zebra crossing\n\nOne zebrafish.\nTwo zebrafish.\n\n\nThree zebrafish.\n");
  ASSERT_EQ(index_paths(config, {(dir_ / "articles").string()}).added, 1u);
  own_searcher_ = std::make_unique<Searcher>(config.db_path);
  searcher_ = own_searcher_.get();
  open();
  ASSERT_EQ(say("zebrafish").diagnostics, "");
  const std::string shown = say(":show 1").out;
  EXPECT_NE(shown.find("\n\nOne zebrafish.\n\nTwo zebrafish.\n\nThree zebrafish.\n"),
            std::string::npos)
      << shown;
}

// At a terminal the prompt opens by saying what it searches and where its
// help is.
TEST_F(PromptTest, GreetingNamesTheIndexAndHelp) {
  PromptConfig config;
  config.decorations = true;
  config.index_name = "/srv/news";
  open(config);
  session_->greet();
  const std::string greeting = out_.str();
  const std::string articles = std::to_string(searcher_->stats().articles) + " articles";
  EXPECT_NE(greeting.find(articles + " in /srv/news"), std::string::npos) << greeting;
  EXPECT_NE(greeting.find(":help"), std::string::npos) << greeting;
  EXPECT_EQ(lines_of(greeting).size(), 1u) << greeting;

  open();  // answering a pipe: nothing but answers
  session_->greet();
  EXPECT_EQ(out_.str(), "");
}

// :like N says which article the results are like: hit N is no longer on
// the screen.
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
class ScopedEnvironment {
 public:
  ScopedEnvironment(std::string name, const char* value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) old_ = old;
    if (value) {
      setenv(name_.c_str(), value, 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ~ScopedEnvironment() {
    if (old_) {
      setenv(name_.c_str(), old_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

// less shows escape codes as text unless told with -R (or LESS=R): the
// pager gets LESS=FRX when LESS is unset, as git gives it, and LESS as the
// user set it otherwise.
TEST_F(PromptTest, ThePagerIsToldToShowColours) {
  const fs::path seen = dir_ / "less.txt";
  struct Case {
    const char* less;
    std::string expected;
  };
  for (const Case& c : {Case{nullptr, "FRX"}, Case{"-i", "-i"}, Case{"", ""}}) {
    SCOPED_TRACE(c.less ? c.less : "unset");
    const ScopedEnvironment less("LESS", c.less);
    PromptConfig config;
    config.pager = "printf '%s' \"$LESS\" > '" + seen.string() + "'; cat > /dev/null";
    config.screen_rows = 2;
    config.session.style.color = true;
    open(config);
    ASSERT_EQ(say(kQuery).diagnostics, "");
    ASSERT_EQ(say(":show 1").diagnostics, "");
    EXPECT_EQ(read_file(seen), c.expected);
  }
}

TEST_F(PromptTest, SeesTheIndexChangeUnderIt) {
  IndexConfig config;
  config.db_path = (dir_ / "index").string();
  ASSERT_EQ(index_paths(config, {QUARRY_CORPUS_DIR}).added, 3u);
  own_searcher_ = std::make_unique<Searcher>(config.db_path);
  searcher_ = own_searcher_.get();
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

TEST_F(PromptTest, ShowWritesControlCharactersVisibly) {
  write_file(dir_ / "in" / "a.jsonl",
             R"({"id": "a\u001b[2J\r", "title": "\u001b]0;pwned\u0007 Zebra", )"
             R"("body": "A zebrafish\u001b[2J here.\n\nIt\tswam."})"
             "\n");
  IndexConfig config;
  config.db_path = (dir_ / "index").string();
  ASSERT_EQ(index_paths(config, {(dir_ / "in").string()}).added, 1u);
  own_searcher_ = std::make_unique<Searcher>(config.db_path);
  searcher_ = own_searcher_.get();
  open();
  const Reply found = say("zebrafish");
  EXPECT_NE(found.out.find("^[]0;pwned^G Zebra"), std::string::npos) << found.out;
  const Reply shown = say(":show 1");
  EXPECT_EQ(shown.diagnostics, "");
  EXPECT_TRUE(
      shown.out.starts_with("^[]0;pwned^G Zebra\na^[[2J^M · en\n\nA zebrafish^[[2J here.\n"))
      << shown.out;
  EXPECT_NE(shown.out.find("It\tswam."), std::string::npos) << shown.out;
  for (const std::string& text : {found.out, shown.out}) {
    for (const char c : text) {
      EXPECT_TRUE(c == '\n' || c == '\t' || static_cast<unsigned char>(c) >= 0x20) << text;
    }
  }
}

TEST_F(PromptTest, FacetsCountTheLastQuerysMatches) {
  expect_problem(say(":facets"), ":facets", "no query yet");
  const std::vector<Article> articles = {
      {"w1", "Wheat harvest", "The wheat harvest was late.", "2017-12-01", "grain", "Reuters"},
      {"w2", "Wheat prices", "Wheat prices rose.", "2017-11-03", "grain", "REUTERS"},
      {"w3", "Wheat exports", "Wheat exports fell.", "2017-11-20", "trade", "Reuters"},
      {"c1", "Coffee", "Coffee prices fell.", "2016-01-01", "softs", "AP"}};
  testing::index_articles(dir_, articles);
  own_searcher_ = std::make_unique<Searcher>(testing::index_path(dir_));
  searcher_ = own_searcher_.get();
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
}  // namespace quarry
