// quarry --batch: standard input or a file answered, the batch's options
// ranking every query, and its errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/batch_fixture.h"

namespace quarry::testing {
namespace {

using nlohmann::json;

TEST_F(BatchCli, AnswersStandardInput) {
  const std::vector<std::string> queries = make_queries(30);
  const auto result = quarry({"--batch", "-", "-j", "2", "--no-timings"}, join_lines(queries));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  const std::vector<json> answers = parse_lines(result.out);
  ASSERT_EQ(answers.size(), queries.size());
  Searcher searcher(db_path());
  for (std::size_t i = 0; i < answers.size(); ++i) {
    EXPECT_EQ(answers[i].at("qid"), std::to_string(i + 1));
    expect_same_as_search(answers[i], searcher, queries[i], {});
  }
}

// The batch's options, --recency and --as-of among them, rank every query.
TEST_F(BatchCli, RecencyRanksEveryQuery) {
  testing::index_articles(dir_, testing::recency_articles());
  const auto ids = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", testing::index_path(dir_), "--batch", "-", "--no-timings"});
    const auto result = run_program(QUARRY_BIN, args, "q1\tlighthouse\nq2\tkeepers\n");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    std::vector<std::vector<std::string>> ranked;
    for (const json& answer : parse_lines(result.out)) {
      ranked.emplace_back();
      for (const json& hit : answer.at("hits")) ranked.back().push_back(hit.at("id"));
    }
    return ranked;
  };
  const std::vector<std::string> old_first{"lighthouse-old", "lighthouse-new"};
  const std::vector<std::string> new_first{"lighthouse-new", "lighthouse-old"};
  EXPECT_EQ(ids({}), (std::vector<std::vector<std::string>>{old_first, old_first}));
  EXPECT_EQ(ids({"--recency", "7d", "--as-of", "2024-05-01"}),
            (std::vector<std::vector<std::string>>{new_first, new_first}));
}

TEST_F(BatchCli, ReadsAFileAndWritesTrec) {
  write_file(dir_ / "queries.tsv", "q1\tpenalty\nq2\tkeeper\n");
  const auto result =
      quarry({"--batch", (dir_ / "queries.tsv").string(), "--format", "trec", "-n", "3"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const std::vector<std::string> lines = lines_of(result.out);
  EXPECT_FALSE(lines.empty());
  EXPECT_LE(lines.size(), 6u);
  for (const std::string& line : lines) {
    const std::vector<std::string> fields = split_on_spaces(line);
    ASSERT_EQ(fields.size(), 6u) << line;
    EXPECT_EQ(fields[1], "Q0");
    EXPECT_EQ(fields[5], "quarry");
  }
}

TEST_F(BatchCli, StrictExitsTwoWhenAQueryFails) {
  const std::string input = "q1\tpenalty\nq2\t(penalty\nq3\tgoal\n";
  const auto forgiving = quarry({"--batch", "-", "--no-timings"}, input);
  EXPECT_EQ(forgiving.exit_code, 0) << forgiving.err;
  EXPECT_EQ(parse_lines(forgiving.out).at(1).at("warnings").size(), 1u);
  const auto result = quarry({"--batch", "-", "--no-timings", "--strict"}, input);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(parse_lines(result.out).size(), 3u);
  const std::vector<std::string> errors = lines_of(result.err);
  ASSERT_EQ(errors.size(), 1u) << result.err;
  EXPECT_EQ(errors[0].rfind("quarry: ", 0), 0u) << errors[0];
  EXPECT_NE(errors[0].find("q2"), std::string::npos) << errors[0];
}

TEST_F(BatchCli, TrecWithoutBatchIsAUsageError) {
  const auto result = quarry({"--format", "trec", "penalty"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("--batch"), std::string::npos) << result.err;
}

TEST_F(BatchCli, MissingBatchFileIsNamed) {
  const std::string missing = (dir_ / "no-such-queries.tsv").string();
  const auto result = quarry({"--batch", missing});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find(missing), std::string::npos) << result.err;
  EXPECT_EQ(result.err.rfind("quarry: ", 0), 0u) << result.err;
}

TEST_F(BatchCli, MissingIndexExitsOne) {
  const auto result = run_program(
      QUARRY_BIN, {"--db", (dir_ / "nothing-here").string(), "--batch", "-"}, "penalty\n");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("nothing-here"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace quarry::testing
