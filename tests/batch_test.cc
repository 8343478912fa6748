#include "app/common/batch.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/common/text_printer.h"
#include "quarry/error.h"
#include "tests/batch_fixture.h"

namespace quarry::testing {
namespace {

using nlohmann::json;

TEST_F(BatchTest, JsonLinesAnswerEachQueryInInputOrderAsSearcherDoes) {
  struct Case {
    std::string name;
    std::size_t limit;
    std::size_t offset;
    std::size_t threads;
  };
  const std::vector<Case> cases = {
      {"defaults", 10, 0, 1},
      {"defaults, 3 threads", 10, 0, 3},
      {"limit 3 offset 2", 3, 2, 2},
      {"past the end", 10, 1000, 2},
  };
  const std::vector<std::string> queries = make_queries(60);
  Searcher searcher(db_path());
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    BatchConfig batch = config(c.threads);
    batch.search.limit = c.limit;
    batch.search.offset = c.offset;
    const BatchRun result = run(batch, join_lines(queries));
    const std::vector<json> answers = parse_lines(result.out);
    ASSERT_EQ(answers.size(), queries.size());
    for (std::size_t i = 0; i < answers.size(); ++i) {
      EXPECT_EQ(answers[i].at("qid"), std::to_string(i + 1));
      expect_same_as_search(answers[i], searcher, queries[i], batch.search);
    }
    EXPECT_EQ(result.report.queries, queries.size());
    EXPECT_EQ(result.report.failed, 0u);
    EXPECT_EQ(result.diagnostics, "");
  }
}

TEST_F(BatchTest, QidsComeFromTheLineOrItsNumber) {
  struct Case {
    std::string input;
    std::vector<std::pair<std::string, std::string>> expected;  // qid, query
  };
  const std::vector<Case> cases = {
      {"", {}},
      {"\n\n  \n\t\n", {}},
      {"penalty", {{"1", "penalty"}}},
      {"penalty\nkeeper\n", {{"1", "penalty"}, {"2", "keeper"}}},
      {"\npenalty\n\n\nkeeper\n", {{"2", "penalty"}, {"5", "keeper"}}},
      {"a7\tpenalty\nkeeper\n", {{"a7", "penalty"}, {"2", "keeper"}}},
      {"q 1\tpenalty keeper\n", {{"q 1", "penalty keeper"}}},
      {"penalty\r\nq2\tkeeper\r\n\r\nderby\r\n",
       {{"1", "penalty"}, {"q2", "keeper"}, {"4", "derby"}}},
      {"q1\t\"derby final\"\n", {{"q1", "\"derby final\""}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.input));
    const BatchRun result = run(config(), c.input);
    const std::vector<json> answers = parse_lines(result.out);
    ASSERT_EQ(answers.size(), c.expected.size());
    for (std::size_t i = 0; i < answers.size(); ++i) {
      EXPECT_EQ(answers[i].at("qid"), c.expected[i].first);
      EXPECT_EQ(answers[i].at("query"), c.expected[i].second);
    }
    EXPECT_EQ(result.report.queries, c.expected.size());
  }
}

TEST_F(BatchTest, TrecRunIsWellFormed) {
  const std::vector<std::string> queries = make_queries(60);
  std::string input;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    input += "T" + std::to_string(i) + "\t" + queries[i] + "\n";
  }
  BatchConfig batch = config(2);
  batch.format = OutputFormat::kTrec;
  batch.run_tag = "myrun";
  const BatchRun result = run(batch, input);

  Searcher searcher(db_path());
  std::size_t line = 0;
  const std::vector<std::string> lines = lines_of(result.out);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const SearchResult expected = searcher.search(queries[i], batch.search);
    double previous_score = 0;
    for (std::size_t rank = 1; rank <= expected.hits.size(); ++rank, ++line) {
      ASSERT_LT(line, lines.size());
      const std::vector<std::string> fields = split_on_spaces(lines[line]);
      ASSERT_EQ(fields.size(), 6u) << lines[line];
      EXPECT_EQ(fields[0], "T" + std::to_string(i)) << lines[line];
      EXPECT_EQ(fields[1], "Q0");
      EXPECT_EQ(fields[2], expected.hits[rank - 1].id);
      EXPECT_EQ(fields[3], std::to_string(rank));
      const double score = std::stod(fields[4]);
      if (rank > 1) {
        EXPECT_LE(score, previous_score) << lines[line];
      }
      previous_score = score;
      EXPECT_EQ(fields[5], "myrun");
    }
  }
  EXPECT_EQ(line, lines.size());
  EXPECT_EQ(result.report.queries, queries.size());
}

// TREC tools split lines on white space, so a qid holding a space must not
// make a seventh field, as ids with spaces do not.
TEST_F(BatchTest, TrecRunKeepsSixFieldsWhenTheQidHasSpaces) {
  BatchConfig batch = config();
  batch.format = OutputFormat::kTrec;
  const BatchRun result = run(batch, "topic 1\tpenalty\n");
  const std::vector<std::string> lines = lines_of(result.out);
  ASSERT_FALSE(lines.empty());
  for (const std::string& line : lines) EXPECT_EQ(split_on_spaces(line).size(), 6u) << line;
}

TEST_F(BatchTest, ThreadsDoNotChangeTheOutput) {
  std::vector<std::string> queries = make_queries(200);
  queries[37] = "penalty AND";  // an error answer must keep its place too
  const std::string input = join_lines(queries);
  for (OutputFormat format : {OutputFormat::kJson, OutputFormat::kTrec}) {
    BatchConfig one = config(1);
    one.search.parse = ParseMode::kStrict;
    one.format = format;
    const BatchRun expected = run(one, input);
    ASSERT_FALSE(expected.out.empty());
    for (std::size_t threads : {2u, 4u}) {
      BatchConfig many = one;
      many.threads = threads;
      const BatchRun actual = run(many, input);
      EXPECT_EQ(actual.out, expected.out) << threads << " threads";
      EXPECT_EQ(actual.diagnostics, expected.diagnostics) << threads << " threads";
      EXPECT_EQ(actual.report.queries, 200u);
      EXPECT_EQ(actual.report.failed, 1u);
    }
  }
}

TEST_F(BatchTest, TimingsAddTookMs) {
  BatchConfig batch = config(2);
  batch.timings = true;
  const std::vector<std::string> queries = make_queries(20);
  for (const json& answer : parse_lines(run(batch, join_lines(queries)).out)) {
    ASSERT_TRUE(answer.contains("took_ms")) << answer.dump();
    ASSERT_TRUE(answer.at("took_ms").is_number()) << answer.dump();
    EXPECT_GE(answer.at("took_ms").get<double>(), 0.0);
  }
  batch.timings = false;
  for (const json& answer : parse_lines(run(batch, join_lines(queries)).out)) {
    EXPECT_FALSE(answer.contains("took_ms")) << answer.dump();
  }
}

TEST_F(BatchTest, BadQueryIsSearchedAsWordsWithAWarningField) {
  Searcher searcher(db_path());
  const BatchRun result = run(config(2), "q1\tpenalty\nq2\t(penalty\nq3\tgoal\n");
  const std::vector<json> answers = parse_lines(result.out);
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[1].at("qid"), "q2");
  EXPECT_FALSE(answers[1].contains("error"));
  EXPECT_EQ(answers[1].at("warnings"),
            json::parse(R"(["'(' is never closed (column 1); searched as plain words"])"));
  EXPECT_EQ(answers[1].at("hits"), parse_lines(run(config(), "penalty\n").out).at(0).at("hits"));
  EXPECT_EQ(result.report.failed, 0u);
  EXPECT_EQ(result.diagnostics, "");
}

TEST_F(BatchTest, StrictBadQueryYieldsAnErrorObjectAndOneDiagnostic) {
  const std::vector<std::string> bad = {"(penalty", "penalty AND", "NOT", ")"};
  Searcher searcher(db_path());
  BatchConfig strict = config(2);
  strict.search.parse = ParseMode::kStrict;
  for (const std::string& query : bad) {
    SCOPED_TRACE(query);
    const std::string input =
        "q1\tpenalty\nq2\tkeeper derby\nq3\t" + query + "\nq4\t\"derby final\"\nq5\tgoal\n";
    const BatchRun result = run(strict, input);
    const std::vector<json> answers = parse_lines(result.out);
    ASSERT_EQ(answers.size(), 5u);
    const std::vector<std::string> good = {"penalty", "keeper derby", "", "\"derby final\"",
                                           "goal"};
    for (std::size_t i = 0; i < answers.size(); ++i) {
      EXPECT_EQ(answers[i].at("qid"), "q" + std::to_string(i + 1));
      if (i != 2) expect_same_as_search(answers[i], searcher, good[i], {});
    }
    const json& error = answers[2];
    EXPECT_EQ(error.at("query"), query);
    ASSERT_TRUE(error.contains("error"));
    EXPECT_TRUE(error.at("error").is_string());
    EXPECT_FALSE(error.at("error").get<std::string>().empty());
    EXPECT_FALSE(error.contains("hits"));
    EXPECT_EQ(result.report.queries, 5u);
    EXPECT_EQ(result.report.failed, 1u);
    const std::vector<std::string> diagnostics = lines_of(result.diagnostics);
    ASSERT_EQ(diagnostics.size(), 1u) << result.diagnostics;
    EXPECT_EQ(diagnostics[0].rfind("quarry: ", 0), 0u) << diagnostics[0];
    EXPECT_NE(diagnostics[0].find("q3"), std::string::npos) << diagnostics[0];
  }
}

TEST_F(BatchTest, StrictBadQueryWritesNothingInTrec) {
  BatchConfig batch = config();
  batch.format = OutputFormat::kTrec;
  batch.search.parse = ParseMode::kStrict;
  const BatchRun result = run(batch, "q1\tpenalty\nq2\t(penalty\nq3\tgoal\n");
  for (const std::string& line : lines_of(result.out)) {
    EXPECT_NE(split_on_spaces(line).at(0), "q2") << line;
  }
  EXPECT_EQ(result.report.failed, 1u);
  EXPECT_EQ(lines_of(result.diagnostics).size(), 1u);
}

TEST_F(BatchTest, NoSnippetsLeavesSnippetsEmpty) {
  BatchConfig batch = config(2);
  batch.search.snippets.enabled = false;
  std::size_t hits = 0;
  for (const json& answer : parse_lines(run(batch, join_lines(make_queries(30))).out)) {
    for (const json& hit : answer.at("hits")) {
      EXPECT_EQ(hit.at("snippet"), "");
      EXPECT_TRUE(hit.at("highlights").empty());
      ++hits;
    }
  }
  EXPECT_GT(hits, 0u);
}

TEST_F(BatchTest, MissingIndexThrows) {
  BatchConfig batch = config();
  batch.db_paths = {(dir_ / "nothing-here").string()};
  EXPECT_THROW(run(batch, "penalty\n"), IndexNotFoundError);
}

TEST_F(BatchTest, TextAnswersAreHeadedByTheirQueryAndSetApart) {
  const std::vector<std::string> queries = make_queries(12);
  std::string input = "q0\t(" + queries[0] + "\n";
  for (std::size_t i = 1; i < queries.size(); ++i) input += queries[i] + "\n";
  Searcher searcher(db_path());
  std::string expected;
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const std::string query = i == 0 ? "(" + queries[0] : queries[i];
    if (i > 0) expected += "\n";
    expected +=
        "Query " + (i == 0 ? std::string("q0") : std::to_string(i + 1)) + ": " + query + "\n";
    std::ostringstream text;
    TextPrinter(text, TextStyle{}).answer(searcher.search(query), {});
    expected += text.str();
  }
  for (std::size_t threads : {1, 3}) {
    BatchConfig batch = config(threads);
    batch.format = OutputFormat::kText;
    const BatchRun result = run(batch, input);
    EXPECT_EQ(result.out, expected) << threads << " threads";
    EXPECT_EQ(result.report.queries, queries.size());
    // The query that could not be parsed was searched as words, as said.
    EXPECT_TRUE(result.diagnostics.starts_with("quarry: qid q0: warning: '(' is never closed"))
        << result.diagnostics;
    EXPECT_EQ(lines_of(result.diagnostics).size(), 1u) << result.diagnostics;
  }
  BatchConfig strict = config();
  strict.format = OutputFormat::kText;
  strict.search.parse = ParseMode::kStrict;
  const BatchRun refused = run(strict, "penalty AND\n");
  EXPECT_EQ(refused.out,
            "Query 1: penalty AND\nerror: query \"penalty AND\": AND needs words on both sides "
            "(column 9)\n");
  EXPECT_EQ(refused.report.failed, 1u);
  EXPECT_EQ(lines_of(refused.diagnostics).size(), 1u) << refused.diagnostics;
}

}  // namespace
}  // namespace quarry::testing
