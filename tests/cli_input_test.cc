// Queries read from standard input: one answer for each line, in order,
// labelled with its query, however each query fares; TREC runs carry their
// tag; -i reads the prompt's commands from a pipe.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli_fixture.h"

namespace quarry::testing {
namespace {

using nlohmann::json;

// Queries piped in are answered as --batch - answers them: one answer for
// each line read, in order, however each query fares.
TEST_F(CliCorpusTest, PipedQueriesGetOneAnswerEachLabelledWithTheQuery) {
  const std::string input = "penalty Herrera\n\n(penalty\nq7\tzyzzyva\n";
  RunResult text = run_quarry(db(), {"-n", "1"}, input);
  EXPECT_EQ(text.exit_code, 0) << text.err;
  auto alone = [&](const std::string& query) { return run_quarry(db(), {"-n", "1", query}).out; };
  EXPECT_EQ(text.out, "Query 1: penalty Herrera\n" + alone("penalty Herrera") +
                          "\nQuery 3: (penalty\n" + alone("(penalty") + "\nQuery q7: zyzzyva\n" +
                          alone("zyzzyva"));
  EXPECT_EQ(text.err,
            "quarry: qid 3: warning: '(' is never closed (column 1); searched as plain words\n");
  EXPECT_EQ(run_quarry(db(), {"-n", "1", "--batch", "-", "--format", "text"}, input).out, text.out)
      << "--batch - --format text writes text";

  // With --strict the bad query is a record of its own, in JSON as in text.
  const std::vector<std::string> strict = {"--strict", "--no-timings", "-n", "1"};
  std::vector<std::string> json_args = strict;
  json_args.insert(json_args.end(), {"--format", "json"});
  RunResult json_lines = run_quarry(db(), json_args, input);
  EXPECT_EQ(json_lines.exit_code, 2);
  const std::vector<std::string> records = lines_of(json_lines.out);
  ASSERT_EQ(records.size(), 3u) << json_lines.out;
  EXPECT_EQ(json::parse(records[0]).at("qid"), "1");
  EXPECT_EQ(json::parse(records[1]).at("qid"), "3");
  EXPECT_TRUE(json::parse(records[1]).contains("error")) << records[1];
  EXPECT_EQ(json::parse(records[2]).at("qid"), "q7");
  json_args.insert(json_args.end(), {"--batch", "-"});
  EXPECT_EQ(run_quarry(db(), json_args, input).out, json_lines.out) << "as --batch - writes it";

  RunResult strict_text = run_quarry(db(), strict, input);
  EXPECT_EQ(strict_text.exit_code, 2);
  EXPECT_NE(strict_text.out.find("\nQuery 3: (penalty\nerror: "), std::string::npos)
      << strict_text.out;
  EXPECT_EQ(lines_of(strict_text.err).size(), 1u) << strict_text.err;
}

TEST_F(CliCorpusTest, TrecRunsCarryTheRunTag) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--format", "trec"},
        std::vector<std::string>{"--batch", "-", "--format", "trec"}}) {
    for (const std::string tag : {"", "bm25-run.1"}) {
      std::vector<std::string> all = args;
      if (!tag.empty()) all.insert(all.end(), {"--run-tag", tag});
      RunResult result = run_quarry(db(), all, "q1\tpenalty\n");
      EXPECT_EQ(result.exit_code, 0) << result.err;
      const std::vector<std::string> lines = lines_of(result.out);
      ASSERT_EQ(lines.size(), 3u) << result.out;
      for (const std::string& line : lines) {
        EXPECT_TRUE(line.starts_with("q1 Q0 ")) << line;
        EXPECT_TRUE(line.ends_with(" " + (tag.empty() ? std::string("quarry") : tag))) << line;
      }
    }
  }
}

// -i reads the prompt's lines, commands included, from a pipe.
TEST_F(CliCorpusTest, InteractiveReadsThePromptsCommandsFromAPipe) {
  RunResult result = run_quarry(db(), {"-i", "--format", "json"}, ":limit 1\npenalty\n:next\n");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const std::vector<std::string> lines = lines_of(result.out);
  ASSERT_EQ(lines.size(), 2u) << result.out;
  EXPECT_EQ(json::parse(lines[1]).at("hits").at(0).at("rank"), 2);
}

TEST_F(CliCorpusTest, AnswersEachLineOfStandardInput) {
  RunResult result = run_quarry(db(), {"--format", "json"}, "penalty Herrera\nEderson\n");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::vector<std::string> lines = lines_of(result.out);
  ASSERT_EQ(lines.size(), 2u) << result.out;
  json first = json::parse(lines[0]);
  json second = json::parse(lines[1]);
  EXPECT_EQ(first.at("query"), "penalty Herrera");
  EXPECT_EQ(id_set(first), kAllArticles);
  EXPECT_EQ(second.at("query"), "Ederson");
  EXPECT_EQ(id_set(second), kAllArticles);
}

TEST_F(CliCorpusTest, BadLineOfStandardInputIsReportedAndTheRestAnswered) {
  RunResult result =
      run_quarry(db(), {"--strict", "--format", "json"}, "Portuguese\n\n(penalty\nraucous\n");
  EXPECT_EQ(result.exit_code, 2);
  // One record a query, the bad one's an error, so that records and queries
  // still pair up.
  std::vector<std::string> lines = lines_of(result.out);
  ASSERT_EQ(lines.size(), 3u) << result.out;
  EXPECT_EQ(id_set(json::parse(lines[0])), Ids({kKompany, kAmazon}));
  EXPECT_EQ(json::parse(lines[1]).at("query"), "(penalty");
  EXPECT_TRUE(json::parse(lines[1]).contains("error")) << lines[1];
  EXPECT_EQ(id_set(json::parse(lines[2])), Ids({kRaucous}));
  std::vector<std::string> errors = lines_of(result.err);
  ASSERT_EQ(errors.size(), 1u) << result.err;
  EXPECT_NE(errors[0].find("(penalty"), std::string::npos) << errors[0];
}

}  // namespace
}  // namespace quarry::testing
