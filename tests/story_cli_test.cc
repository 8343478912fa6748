// Stories as the quarry program shows them (see story_linker_test.cc for
// how they are formed).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/test_util.h"

namespace quarry {
namespace {

using testing::lines_of;
using testing::run_program;
using testing::RunResult;
using Json = nlohmann::json;

constexpr char kFirst[] = "000_574c536d11495eda.txt";
constexpr char kQuery[] = "penalty Herrera";

class StoryCli : public testing::SharedIndexTest {
 protected:
  static RunResult quarry(std::vector<std::string> args, const std::string& input = "") {
    args.insert(args.begin(), {"--db", db_path(), "--color", "never"});
    return run_program(QUARRY_BIN, args, input);
  }
  static Json json_of(std::vector<std::string> args) {
    args.insert(args.begin(), {"--format", "json"});
    const RunResult run = quarry(args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return Json::parse(run.out);
  }
};

TEST_F(StoryCli, JsonShowsTheStoryOnceWithItsOtherReports) {
  const Json answer = json_of({kQuery});
  EXPECT_EQ(answer["total"], 3);
  EXPECT_EQ(answer["stories"], 1);
  EXPECT_EQ(answer["stories_relation"], "eq");
  ASSERT_EQ(answer["hits"].size(), 1U);
  const Json& story = answer["hits"][0]["story"];
  EXPECT_EQ(story["id"], kFirst);
  ASSERT_EQ(story["more"].size(), 2U);
  EXPECT_EQ(story["more_count"], 2);
  EXPECT_LT(story["more"][0].get<std::string>(), story["more"][1].get<std::string>());
}

TEST_F(StoryCli, TextListsTheOtherReportsUnderTheHit) {
  const Json answer = json_of({kQuery});
  const Json& more = answer["hits"][0]["story"]["more"];
  const RunResult run = quarry({kQuery});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::vector<std::string> lines = lines_of(run.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "3 articles match, 1 story");
  const std::string expected =
      "   +2 more reports: " + more[0].get<std::string>() + ", " + more[1].get<std::string>();
  EXPECT_NE(std::find(lines.begin(), lines.end(), expected), lines.end()) << run.out;
}

TEST_F(StoryCli, CollapseNoneTrecAndPlainShowEveryArticle) {
  const Json none = json_of({"--collapse", "none", kQuery});
  EXPECT_EQ(none["hits"].size(), 3U);
  EXPECT_EQ(none["stories"], 3);
  for (const Json& hit : none["hits"]) EXPECT_FALSE(hit.contains("story"));
  EXPECT_EQ(json_of({"--plain", kQuery})["hits"].size(), 3U);
  EXPECT_EQ(json_of({"--collapse", "duplicates", kQuery})["hits"].size(), 3U);
  const RunResult trec = quarry({"--batch", "-", "--format", "trec"}, std::string("q1\t") + kQuery);
  ASSERT_EQ(trec.exit_code, 0) << trec.err;
  EXPECT_EQ(lines_of(trec.out).size(), 3U);
  const RunResult text = quarry({"--collapse", "none", kQuery});
  EXPECT_EQ(lines_of(text.out)[0], "3 articles match");
  EXPECT_EQ(text.out.find("more report"), std::string::npos);
}

TEST_F(StoryCli, BadCollapseIsAUsageError) {
  const RunResult run = quarry({"--collapse", "stories", kQuery});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("--collapse"), std::string::npos) << run.err;
}

TEST_F(StoryCli, PromptOpensTheOtherReports) {
  const Json answer = json_of({kQuery});
  const RunResult run = quarry({"-i"}, std::string(kQuery) + "\n:story 1\n:story 9\n");
  EXPECT_EQ(run.exit_code, 2) << run.err;  // one bad command
  EXPECT_NE(run.out.find("2 more reports of " + answer["hits"][0]["id"].get<std::string>()),
            std::string::npos)
      << run.out;
  for (const Json& id : answer["hits"][0]["story"]["more"]) {
    EXPECT_NE(run.out.find("    " + id.get<std::string>()), std::string::npos) << run.out;
  }
  EXPECT_NE(run.err.find("no hit 9"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace quarry
